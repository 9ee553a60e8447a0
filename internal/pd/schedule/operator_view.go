package schedule

import "time"

// OperatorView describes an operator for the HTTP API (GET
// /pd/api/v1/operators) and `strata ctl operators`; it marshals to JSON
// as is.
type OperatorView struct {
	// RegionID is the operator's region.
	RegionID uint64 `json:"region_id"`
	// Name says why it was made ("replace-lost-replica", "balance-leader").
	Name string `json:"name"`
	// Kind is who made it (replica, balance-leader, balance-region,
	// admin).
	Kind Kind `json:"kind"`
	// Desc lists the steps: "add learner peer 42 on store 4, promote,
	// remove peer 7 on store 1".
	Desc string `json:"desc"`
	// Step is the index of the first step not done; Steps the count.
	Step int `json:"step"`
	// Steps: see Step.
	Steps int `json:"steps"`
	// Status is running, finished, timeout, canceled or replaced.
	Status Status `json:"status"`
	// Reason says why an operator that did not finish stopped.
	Reason string `json:"reason,omitempty"`
	// Created is when it was made.
	Created time.Time `json:"created"`
	// Age is how long it has run (until it stopped, for history), like
	// "1m30s".
	Age string `json:"age"`
}

// viewOf describes op at now.
func viewOf(op *Operator, now time.Time) OperatorView {
	return OperatorView{
		RegionID: op.regionID, Name: op.name, Kind: op.kind, Desc: op.Desc(),
		Step: op.current, Steps: len(op.steps), Status: op.status, Reason: op.reason,
		Created: op.created, Age: now.Sub(op.created).Round(time.Millisecond).String(),
	}
}
