package schedule

import (
	"fmt"
	"sort"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/protobuf/proto"
)

// Controller holds the running operators, at most one per region, and
// turns them into heartbeat responses. It is safe for concurrent use: the
// PD server calls Dispatch from every region heartbeat stream while the
// Coordinator adds operators.
type Controller struct {
	opts Options
	// lost reports whether a store's peers count as lost (down, offline,
	// tombstone); set by the Coordinator, nil for a bare Controller (then
	// only the region's own down and pending reports count).
	lost func(storeID uint64) bool

	mu struct {
		sync.Mutex
		ops     map[uint64]*Operator // by region id
		history []*Operator          // retired, oldest first, at most HistorySize
	}
}

// NewController returns a Controller with no operators.
func NewController(opts Options) *Controller {
	c := &Controller{opts: opts.withDefaults()}
	c.mu.ops = map[uint64]*Operator{}
	return c
}

// AddOperator starts op. A running operator on the same region is
// replaced (StatusReplaced) if op has a higher priority (admin > replica
// > balance), else the call fails with ErrOperatorExists. Operators other
// than admin ones fail with ErrScheduleLimit when their kind's limit is
// reached, and with ErrStoreLimit when a store they add a peer to already
// receives Options.StoreLimit peers.
func (c *Controller) AddOperator(op *Operator) error {
	if op == nil || len(op.steps) == 0 || op.regionID == 0 || op.status != StatusRunning {
		return fmt.Errorf("%w: %v", ErrInvalidOperator, op)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.mu.ops[op.regionID]
	if old != nil && op.kind.priority() <= old.kind.priority() {
		return fmt.Errorf("%w: region %d: %v", ErrOperatorExists, op.regionID, old)
	}
	if op.kind != KindAdmin {
		cfg := c.opts.Config()
		if n := c.countLocked(op.kind, old); uint64(n) >= limitOf(cfg, op.kind) {
			return fmt.Errorf("%w: %d %s operators running", ErrScheduleLimit, n, op.kind)
		}
		infl := c.influenceLocked(old)
		for _, s := range op.steps {
			if a, ok := s.(AddLearner); ok {
				if in := infl[a.ToStore]; in != nil && in.adding >= c.opts.StoreLimit {
					return fmt.Errorf("%w: store %d receives %d peers", ErrStoreLimit, a.ToStore, in.adding)
				}
			}
		}
	}
	if old != nil {
		old.stop(StatusReplaced, "replaced by "+op.name)
		c.retireLocked(old)
	}
	c.mu.ops[op.regionID] = op
	c.opts.Logger.Info("schedule: operator created", "region", op.regionID, "name", op.name,
		"kind", op.kind.String(), "steps", op.Desc())
	return nil
}

// limitOf is the cluster config's limit for kind.
func limitOf(cfg meta.ClusterConfig, k Kind) uint64 {
	switch k {
	case KindLeader:
		return cfg.Schedule.LeaderScheduleLimit
	case KindRegion:
		return cfg.Schedule.RegionScheduleLimit
	case KindReplica:
		return cfg.Schedule.ReplicaScheduleLimit
	}
	return ^uint64(0)
}

// countLocked counts running operators of kind, except skip.
func (c *Controller) countLocked(k Kind, skip *Operator) int {
	n := 0
	for _, op := range c.mu.ops {
		if op != skip && op.kind == k {
			n++
		}
	}
	return n
}

// influenceLocked sums the remaining steps of the running operators,
// except skip.
func (c *Controller) influenceLocked(skip *Operator) map[uint64]*influence {
	m := map[uint64]*influence{}
	for _, op := range c.mu.ops {
		if op != skip {
			op.addInfluence(m)
		}
	}
	return m
}

// load returns the running operators' influence per store and their
// count per kind.
func (c *Controller) load() (map[uint64]*influence, map[Kind]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	running := map[Kind]int{}
	for _, op := range c.mu.ops {
		running[op.kind]++
	}
	return c.influenceLocked(nil), running
}

// Dispatch is called with every region heartbeat PD accepts. It checks
// the region's operator against the region's state (retiring it when it
// finished, timed out or went stale) and returns the response that asks
// the region's leader for the next step, or nil when there is nothing to
// ask. A step is asked for again on every heartbeat until the region
// shows it applied, so a lost response or a refused proposal costs one
// heartbeat interval; a step that applied but is not finished (a learner
// catching up) is not asked again.
func (c *Controller) Dispatch(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	op := c.mu.ops[region.ID()]
	if op == nil {
		return nil
	}
	step := op.Check(region)
	if op.status == StatusRunning && op.CheckTimeout(c.opts.Now()) {
		step = nil
	}
	if to := targetStore(step); to != 0 && c.storeLost(to) {
		op.stop(StatusCanceled, fmt.Sprintf("store %d, which the step %q needs, is lost", to, step))
	}
	if op.status != StatusRunning {
		c.retireLocked(op)
		return nil
	}
	return c.responseLocked(region, step)
}

// responseLocked builds the response carrying step for region's leader,
// or nil when the step must wait.
func (c *Controller) responseLocked(region *meta.RegionInfo, step Step) *pdpb.RegionHeartbeatResponse {
	leader := region.Leader
	if leader == nil || step.applied(region) {
		return nil
	}
	var resp *pdpb.RegionHeartbeatResponse
	switch s := step.(type) {
	case RemovePeer:
		if s.PeerID == leader.GetId() {
			// Never remove the leader: move leadership first; the step is
			// sent once another peer leads.
			to := c.transferTarget(region, s.PeerID)
			if to == nil {
				return nil
			}
			resp = transferTo(to)
			break
		}
		if !removeKeepsQuorum(region, s.PeerID, c.storeLost) {
			return nil
		}
		resp = s.request(region)
	default:
		resp = step.request(region)
	}
	resp.RegionId = region.ID()
	resp.RegionEpoch = proto.Clone(region.Epoch()).(*kvrpcpb.RegionEpoch)
	resp.TargetPeer = proto.Clone(leader).(*kvrpcpb.Peer)
	return resp
}

// targetStore is the store a step needs alive (the new peer's, the new
// leader's), or 0.
func targetStore(s Step) uint64 {
	switch s := s.(type) {
	case AddLearner:
		return s.ToStore
	case PromoteLearner:
		return s.ToStore
	case TransferLeader:
		return s.ToStore
	}
	return 0
}

// storeLost reports whether store id's peers count as lost.
func (c *Controller) storeLost(id uint64) bool { return c.lost != nil && c.lost(id) }

// transferTarget picks the voter to take over from the leader peer
// leaving: one the leader does not report down or pending, on a store
// not lost, lowest store id first.
func (c *Controller) transferTarget(region *meta.RegionInfo, leaving uint64) *kvrpcpb.Peer {
	var best *kvrpcpb.Peer
	for _, p := range region.Meta.GetPeers() {
		if p.GetId() == leaving || p.GetRole() != kvrpcpb.PeerRole_Voter ||
			isDown(region, p.GetId()) || isPending(region, p.GetId()) || c.storeLost(p.GetStoreId()) {
			continue
		}
		if best == nil || p.GetStoreId() < best.GetStoreId() {
			best = p
		}
	}
	return best
}

// removeKeepsQuorum reports whether removing peer id from region leaves a
// quorum of the remaining voters healthy (not reported down or pending,
// store not lost). Removing a learner always does.
func removeKeepsQuorum(region *meta.RegionInfo, id uint64, lost func(uint64) bool) bool {
	if p := findPeer(region, id); p == nil || p.GetRole() != kvrpcpb.PeerRole_Voter {
		return true
	}
	voters, healthy := 0, 0
	for _, p := range region.Meta.GetPeers() {
		if p.GetId() == id || p.GetRole() != kvrpcpb.PeerRole_Voter {
			continue
		}
		voters++
		if !isDown(region, p.GetId()) && !isPending(region, p.GetId()) && !lost(p.GetStoreId()) {
			healthy++
		}
	}
	return voters > 0 && healthy >= voters/2+1
}

// retireLocked moves a stopped operator to the history.
func (c *Controller) retireLocked(op *Operator) {
	if c.mu.ops[op.regionID] == op {
		delete(c.mu.ops, op.regionID)
	}
	op.ended = c.opts.Now()
	c.mu.history = append(c.mu.history, op)
	if n := len(c.mu.history) - c.opts.HistorySize; n > 0 {
		c.mu.history = append(c.mu.history[:0:0], c.mu.history[n:]...)
	}
	log := c.opts.Logger.Info
	if op.status != StatusFinished {
		log = c.opts.Logger.Warn
	}
	log("schedule: operator "+op.status.String(), "region", op.regionID, "name", op.name,
		"steps", op.Desc(), "step", op.current, "reason", op.reason, "took", op.ended.Sub(op.created))
}

// CheckTimeouts retires the operators past their timeout, including those
// of regions that stopped sending heartbeats. The Coordinator calls it
// every tick.
func (c *Controller) CheckTimeouts() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Now()
	for _, id := range sortedIDs(c.mu.ops) {
		if op := c.mu.ops[id]; op.CheckTimeout(now) {
			c.retireLocked(op)
		}
	}
}

// HasOperator reports whether region id has a running operator.
func (c *Controller) HasOperator(regionID uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mu.ops[regionID] != nil
}

// Cancel stops region id's operator (StatusCanceled) and reports whether
// there was one.
func (c *Controller) Cancel(regionID uint64, reason string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	op := c.mu.ops[regionID]
	if op == nil {
		return false
	}
	op.Cancel(reason)
	c.retireLocked(op)
	return true
}

// Operator describes region id's running operator.
func (c *Controller) Operator(regionID uint64) (OperatorView, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	op := c.mu.ops[regionID]
	if op == nil {
		return OperatorView{}, false
	}
	return viewOf(op, c.opts.Now()), true
}

// View describes op, running or retired.
func (c *Controller) View(op *Operator) OperatorView {
	c.mu.Lock()
	defer c.mu.Unlock()
	return viewOf(op, c.opts.Now())
}

// Operators describes the running operators, by region id.
func (c *Controller) Operators() []OperatorView {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Now()
	out := make([]OperatorView, 0, len(c.mu.ops))
	for _, id := range sortedIDs(c.mu.ops) {
		out = append(out, viewOf(c.mu.ops[id], now))
	}
	return out
}

// History describes the retired operators, newest first (at most
// Options.HistorySize).
func (c *Controller) History() []OperatorView {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]OperatorView, 0, len(c.mu.history))
	for i := len(c.mu.history) - 1; i >= 0; i-- {
		out = append(out, viewOf(c.mu.history[i], c.mu.history[i].ended))
	}
	return out
}

func sortedIDs[V any](m map[uint64]V) []uint64 {
	ids := make([]uint64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
