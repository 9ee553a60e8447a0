package client

import (
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// Errors of the PD client. An error PD reported in a response header is an
// *Error, which matches (errors.Is) the sentinel of its type.
var (
	// ErrClosed: the client was closed.
	ErrClosed = errors.New("pd client: closed")
	// ErrNoLeader: no member named a reachable PD leader.
	ErrNoLeader = errors.New("pd client: no PD leader")
	// ErrNotBootstrapped: the cluster has no first store and region yet.
	ErrNotBootstrapped = errors.New("pd client: cluster not bootstrapped")
	// ErrAlreadyBootstrapped: Bootstrap of a bootstrapped cluster.
	ErrAlreadyBootstrapped = errors.New("pd client: cluster already bootstrapped")
	// ErrStaleRegion: the region's epoch is behind PD's.
	ErrStaleRegion = errors.New("pd client: stale region")
	// ErrRegionNotFound: PD knows no region there (or with that id).
	ErrRegionNotFound = errors.New("pd client: region not found")
	// ErrStoreNotFound: PD knows no store with that id.
	ErrStoreNotFound = errors.New("pd client: store not found")
	// ErrStoreTombstone: the store was removed for good.
	ErrStoreTombstone = errors.New("pd client: store is tombstone")
	// ErrClusterMismatch: the members belong to another cluster than the
	// one this client first talked to.
	ErrClusterMismatch = errors.New("pd client: cluster id mismatch")
	// ErrNotLeader: the member is not the leader (retried internally; seen
	// only when a context ends during a leader change).
	ErrNotLeader = errors.New("pd client: not leader")
	// ErrHeartbeatBacklog: the region heartbeat queue is full.
	ErrHeartbeatBacklog = errors.New("pd client: region heartbeat queue full")
)

// Error is an error PD reported in a response header.
type Error struct {
	Type    pdpb.ErrorType // what went wrong
	Message string         // PD's words
}

// Error formats the error.
func (e *Error) Error() string { return fmt.Sprintf("pd: %s: %s", e.Type, e.Message) }

// Is matches the sentinel of e's type.
func (e *Error) Is(target error) bool {
	switch e.Type {
	case pdpb.ErrorType_NOT_BOOTSTRAPPED:
		return target == ErrNotBootstrapped
	case pdpb.ErrorType_ALREADY_BOOTSTRAPPED:
		return target == ErrAlreadyBootstrapped
	case pdpb.ErrorType_STALE_REGION:
		return target == ErrStaleRegion
	case pdpb.ErrorType_REGION_NOT_FOUND:
		return target == ErrRegionNotFound
	case pdpb.ErrorType_STORE_TOMBSTONE:
		return target == ErrStoreTombstone
	case pdpb.ErrorType_CLUSTER_MISMATCH:
		return target == ErrClusterMismatch
	case pdpb.ErrorType_NOT_LEADER:
		return target == ErrNotLeader
	}
	return false
}

// headerError returns the error a response header reports, or nil.
func headerError(h *pdpb.ResponseHeader) error {
	e := h.GetError()
	if e == nil || e.GetType() == pdpb.ErrorType_OK {
		return nil
	}
	return &Error{Type: e.GetType(), Message: e.GetMessage()}
}
