// Package rpc is the transport from the client to storage nodes: one
// interface, StoreAPI (the unary half of kvrpcpb.TikvServer), with two
// implementations, a direct in-process call to a node (the embedded
// `strata server`) and gRPC, where concurrent requests to one store are
// gathered onto long-lived BatchCommands streams.
//
// It sits apart from locate (routing, region cache, retries) the way
// tikv/client-go keeps internal/client apart from internal/locate: routing
// decides where a request goes, this package only carries it there.
package rpc
