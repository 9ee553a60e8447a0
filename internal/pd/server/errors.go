package server

import "errors"

// Errors of the PD server.
var (
	// ErrNotLeader: this member does not lead PD (any more). A guarded
	// etcd write that finds the leader key changed fails with it, and the
	// member stops serving at once.
	ErrNotLeader = errors.New("pd: not leader")
	// ErrNotReady: the member has not joined its etcd cluster yet.
	ErrNotReady = errors.New("pd: member not ready")
	// ErrCorrupt: a value read from etcd does not parse.
	ErrCorrupt = errors.New("pd: corrupt value in etcd")
)
