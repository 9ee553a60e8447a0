// Package rpc is the transport from the client to storage nodes: one
// interface, StoreAPI (the unary half of kvrpcpb.TikvServer), with two
// implementations, a direct in-process call to a node (the embedded
// `strata server`) and gRPC, where concurrent requests to one store are
// gathered onto long-lived BatchCommands streams.
//
// It sits apart from locate (routing, region cache, retries) the way
// tikv/client-go keeps internal/client apart from internal/locate: routing
// decides where a request goes, this package only carries it there.
//
// # Batched gRPC
//
// NewGRPC keeps, per store, GRPCOptions.ConnCount connections, each with
// one BatchCommands stream:
//
//	caller ─▶ entry{id, req, done} ─▶ queue ─▶ sender: take all queued ─▶ stream.Send(batch)
//	caller ◀─ done ◀──────────────── receiver: match request_id ◀─ stream.Recv()
//
// A call picks the first connection with fewer than ConnSpill calls in
// flight, so light load fills one stream (big batches, few syscalls) and
// heavy load spreads over all. The sender takes everything queued (after
// one yield when other calls are in flight, and optionally MaxBatchWait
// more) into one message. Responses come back in any order and are
// matched by id.
//
// # Failures
//
// A stream that breaks (store killed, connection reset, server stopping)
// fails every request pending on it with an error wrapping
// ErrStoreUnreachable: the request may or may not have run, so a commit
// that fails this way is undetermined. The next request opens a new stream
// (gRPC reconnects the connection, backing off at most
// MaxReconnectBackoff). A caller whose ctx ends gets ctx.Err() at once;
// its request may still run on the store. kvrpcpb.Dispatch and
// kvrpcpb.RegionErrorResponse are the server half of the same mapping
// between StoreAPI calls and batch entries.
//
// # Lock order
//
// batchConn.mu guards the current stream, its generation and the pending
// map; it is never held across Send, Recv or delivery to a caller.
// grpcClient.mu guards the store map and is never held with batchConn.mu.
package rpc
