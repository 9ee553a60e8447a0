package rpc

import (
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// StoreAPI is one storage node's request/response API (kvrpcpb.StoreAPI,
// which the storage node implements without importing the client).
type StoreAPI = kvrpcpb.StoreAPI

// Client hands out the StoreAPI of a store by its address.
type Client interface {
	// Store returns the API of the store at addr. Errors mean the store
	// cannot be reached at all; per-request failures come from the calls.
	Store(addr string) (StoreAPI, error)
	// Close releases connections.
	Close() error
}
