package schedule

import "errors"

// Errors of the scheduling core. Callers check them with errors.Is.
var (
	// ErrOperatorExists: the region already has a running operator of the
	// same or a higher priority.
	ErrOperatorExists = errors.New("schedule: region already has an operator")
	// ErrScheduleLimit: the kind's concurrency limit (leader-, region- or
	// replica-schedule-limit) is reached.
	ErrScheduleLimit = errors.New("schedule: schedule limit reached")
	// ErrStoreLimit: a store the operator adds a peer to already receives
	// Options.StoreLimit new peers.
	ErrStoreLimit = errors.New("schedule: store limit reached")
	// ErrInvalidOperator: an operator without steps, without a region, or
	// no longer running when handed to the Controller.
	ErrInvalidOperator = errors.New("schedule: invalid operator")
	// ErrStepConflict: the region's observed state contradicts a step (the
	// store holds another peer of the region, the peer to promote is gone,
	// the leader's target holds no voter); the operator is cancelled.
	ErrStepConflict = errors.New("schedule: step conflicts with the region")
	// ErrNoIDAllocator: Options.AllocID was not set, so no peer can be
	// added.
	ErrNoIDAllocator = errors.New("schedule: no ID allocator")
	// ErrStaleOperator: the region's epoch moved further than the
	// operator's own steps explain (someone else changed the peers, or
	// the region split or merged); the operator is cancelled.
	ErrStaleOperator = errors.New("schedule: region changed under the operator")
)
