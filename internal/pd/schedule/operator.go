package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/protobuf/proto"
)

// Kind says who made an operator; it picks the concurrency limit and the
// priority (a higher priority operator replaces a lower one on the same
// region).
type Kind int

const (
	// KindReplica: the replica checker restores the replica count
	// (replica-schedule-limit).
	KindReplica Kind = iota
	// KindLeader: balance-leader (leader-schedule-limit).
	KindLeader
	// KindRegion: balance-region (region-schedule-limit).
	KindRegion
	// KindAdmin: asked for by an operator of the cluster; no limit.
	KindAdmin
)

var kindNames = [...]string{"replica", "balance-leader", "balance-region", "admin"}

// String is the kind's name: replica, balance-leader, balance-region,
// admin.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// MarshalText makes a Kind a string in JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// priority orders kinds: repairs beat balancing, admins beat both.
func (k Kind) priority() int {
	switch k {
	case KindAdmin:
		return 2
	case KindReplica:
		return 1
	}
	return 0
}

// Status is where an operator is in its life.
type Status int

const (
	// StatusRunning: steps remain.
	StatusRunning Status = iota
	// StatusFinished: the region showed every step done.
	StatusFinished
	// StatusTimeout: the operator ran longer than its timeout.
	StatusTimeout
	// StatusCanceled: the region changed in a way the steps do not
	// explain, a step became impossible, or an admin cancelled it.
	StatusCanceled
	// StatusReplaced: a higher priority operator took the region.
	StatusReplaced
)

var statusNames = [...]string{"running", "finished", "timeout", "canceled", "replaced"}

// String is the status's name.
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// MarshalText makes a Status a string in JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Operator is a plan for one region: ordered steps, each sent to the
// region's leader until the region's heartbeats show it done. It is not
// safe for concurrent use; once handed to a Controller, the Controller
// owns it.
type Operator struct {
	regionID uint64
	name     string
	kind     Kind
	steps    []Step
	epoch    *kvrpcpb.RegionEpoch // the region's epoch when the operator was made
	created  time.Time
	timeout  time.Duration
	status   Status
	reason   string // why it stopped, when not finished
	current  int    // index of the first step not finished
	// currentApplied: the last Check saw the current step applied (a
	// learner there but catching up), so the region counts already show
	// it.
	currentApplied bool
	ended          time.Time // when the Controller retired it
}

// NewOperator plans steps for region as observed at now. name says why
// ("replace-lost-replica", "balance-leader", ...). The timeout is
// DefaultPeerMoveTimeout if a step changes peers, else
// DefaultLeaderTransferTimeout; see SetTimeout.
func NewOperator(name string, kind Kind, region *meta.RegionInfo, now time.Time, steps ...Step) *Operator {
	o := &Operator{
		regionID: region.ID(),
		name:     name,
		kind:     kind,
		steps:    steps,
		epoch:    proto.Clone(region.Epoch()).(*kvrpcpb.RegionEpoch),
		created:  now,
	}
	o.timeout = timeoutFor(steps, DefaultPeerMoveTimeout, DefaultLeaderTransferTimeout)
	return o
}

// SetTimeout changes the operator's timeout, counted from its creation.
func (o *Operator) SetTimeout(d time.Duration) { o.timeout = d }

// RegionID is the region the operator is for.
func (o *Operator) RegionID() uint64 { return o.regionID }

// Name says why the operator was made.
func (o *Operator) Name() string { return o.name }

// Kind is who made the operator.
func (o *Operator) Kind() Kind { return o.kind }

// Steps are the operator's steps, in order. The caller must not change
// them.
func (o *Operator) Steps() []Step { return o.steps }

// Epoch is the region's epoch the operator was made for.
func (o *Operator) Epoch() *kvrpcpb.RegionEpoch { return o.epoch }

// Created is when the operator was made.
func (o *Operator) Created() time.Time { return o.created }

// Timeout is how long after Created the operator gives up.
func (o *Operator) Timeout() time.Duration { return o.timeout }

// Status is where the operator is.
func (o *Operator) Status() Status { return o.status }

// Reason says why an operator that did not finish stopped.
func (o *Operator) Reason() string { return o.reason }

// StepIndex is the index of the first step not finished (len(Steps())
// once finished).
func (o *Operator) StepIndex() int { return o.current }

// Desc describes the steps: "add learner peer 42 on store 4, promote,
// remove peer 7 on store 1".
func (o *Operator) Desc() string {
	parts := make([]string, len(o.steps))
	for i, s := range o.steps {
		parts[i] = s.String()
		if p, ok := s.(PromoteLearner); ok && i > 0 {
			if a, ok := o.steps[i-1].(AddLearner); ok && a.PeerID == p.PeerID {
				parts[i] = "promote"
			}
		}
	}
	return strings.Join(parts, ", ")
}

// String names the operator for logs.
func (o *Operator) String() string {
	return fmt.Sprintf("%s (%s) region %d: %s [step %d/%d, %s]", o.name, o.kind, o.regionID, o.Desc(),
		o.current, len(o.steps), o.status)
}

// Check compares the operator with region's observed state: it skips the
// steps the region shows done and returns the next one, or nil once the
// operator stopped (Status says whether it finished or was cancelled).
// The operator is cancelled when the region's epoch moved in a way its own
// steps do not explain: a version change (split or merge), or a conf_ver
// above the operator's epoch plus the conf changes of its steps that the
// region shows applied (PD's checkStaleOperator); or when a step became
// impossible (ErrStepConflict).
func (o *Operator) Check(region *meta.RegionInfo) Step {
	if o.status != StatusRunning {
		return nil
	}
	for o.current < len(o.steps) && o.steps[o.current].IsFinished(region) {
		o.current++
	}
	if err := o.checkStale(region); err != nil {
		o.stop(StatusCanceled, err.Error())
		return nil
	}
	if o.current == len(o.steps) {
		o.stop(StatusFinished, "")
		return nil
	}
	step := o.steps[o.current]
	if err := step.check(region); err != nil {
		o.stop(StatusCanceled, err.Error())
		return nil
	}
	o.currentApplied = step.applied(region)
	return step
}

// checkStale returns ErrStaleOperator when region's epoch moved further
// than the operator's steps (up to the current one, which may have
// applied already) explain.
func (o *Operator) checkStale(region *meta.RegionInfo) error {
	e := region.Epoch()
	if e.GetVersion() != o.epoch.GetVersion() {
		return fmt.Errorf("%w: region %d version %d, operator made at %d", ErrStaleOperator,
			o.regionID, e.GetVersion(), o.epoch.GetVersion())
	}
	explained := o.epoch.GetConfVer()
	last := min(o.current, len(o.steps)-1)
	for _, s := range o.steps[:last+1] {
		if s.confChange() && s.applied(region) {
			explained++
		}
	}
	if e.GetConfVer() > explained {
		return fmt.Errorf("%w: region %d conf_ver %d, the operator explains %d", ErrStaleOperator,
			o.regionID, e.GetConfVer(), explained)
	}
	return nil
}

// CheckTimeout stops a running operator older than its timeout at now and
// reports whether it did.
func (o *Operator) CheckTimeout(now time.Time) bool {
	if o.status != StatusRunning || now.Sub(o.created) <= o.timeout {
		return false
	}
	o.stop(StatusTimeout, fmt.Sprintf("not done after %v", o.timeout))
	return true
}

// Cancel stops a running operator with reason.
func (o *Operator) Cancel(reason string) {
	if o.status == StatusRunning {
		o.stop(StatusCanceled, reason)
	}
}

func (o *Operator) stop(s Status, reason string) {
	o.status, o.reason = s, reason
}

// addInfluence adds to m what the steps not yet applied will change.
func (o *Operator) addInfluence(m map[uint64]*influence) {
	if o.status != StatusRunning {
		return
	}
	addInfluence(m, o.steps[o.current:], o.currentApplied)
}
