package rpc

import "errors"

// ErrStoreUnreachable marks a request that got no reply because the store
// could not be reached or the stream carrying it broke. The request may or
// may not have run on the store: a commit that fails with it is
// undetermined (kv.ErrResultUndetermined at the transaction layer).
var ErrStoreUnreachable = errors.New("rpc: store unreachable")

// ErrClientClosed is returned by calls made through a closed Client.
var ErrClientClosed = errors.New("rpc: client closed")
