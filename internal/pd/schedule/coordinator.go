package schedule

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// scheduler makes one balance operator from a view, or nil; busy reports
// regions that already have an operator.
type scheduler struct {
	name     string
	schedule func(v *view, busy func(regionID uint64) bool) (*Operator, error)
}

// schedulers run every tick, in this order.
var schedulers = []scheduler{
	{OpBalanceLeader, balanceLeader},
	{OpBalanceRegion, balanceRegion},
}

// Coordinator runs the replica checker on every region heartbeat and,
// every tick, over all regions, followed by the balance schedulers; the
// operators go to its Controller. Its only goroutine is Run's ticker; the
// rest is called by the PD server. It is safe for concurrent use.
type Coordinator struct {
	cluster Cluster
	opts    Options
	ctrl    *Controller

	// mu guards counts, the region counts of the last tick, which
	// heartbeats reuse instead of scanning every region.
	mu     sync.Mutex
	counts *counts
}

// NewCoordinator returns a Coordinator over cluster. Options.Since
// defaults to Now(): stores are given max-store-down-time from then
// before they count as down.
func NewCoordinator(cluster Cluster, opts Options) *Coordinator {
	opts = opts.withDefaults()
	if opts.Since.IsZero() {
		opts.Since = opts.Now()
	}
	c := &Coordinator{cluster: cluster, opts: opts}
	c.ctrl = NewController(opts)
	c.ctrl.lost = c.storeLost
	return c
}

// Controller is the Coordinator's operator controller (for the HTTP API:
// Operators, History, Cancel, AddOperator).
func (c *Coordinator) Controller() *Controller { return c.ctrl }

// StoreState classifies store id now (StoreTombstone if unknown).
func (c *Coordinator) StoreState(id uint64) StoreState {
	cfg := c.opts.Config()
	return StoreStateOf(c.cluster.Store(id), c.opts.Now(), c.opts.Since, c.opts.DisconnectDuration,
		cfg.Schedule.MaxStoreDownTime.D())
}

func (c *Coordinator) storeLost(id uint64) bool { return c.StoreState(id).lost() }

// HandleRegionHeartbeat is the PD server's heartbeat hook: it dispatches
// the region's operator and, if the region has none, runs the replica
// checker on it and dispatches what that creates. It returns the
// response to send on the heartbeat stream, or nil.
func (c *Coordinator) HandleRegionHeartbeat(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	if resp := c.ctrl.Dispatch(region); resp != nil || c.ctrl.HasOperator(region.ID()) {
		return resp
	}
	if !c.mayNeedReplicas(region) {
		return nil
	}
	c.mu.Lock()
	cnt := c.counts
	c.mu.Unlock()
	if cnt == nil {
		cnt = c.refreshCounts()
	}
	v := c.newView(cnt)
	op, err := checkReplicas(v, region)
	if err != nil {
		c.opts.Logger.Warn("schedule: replica check", "region", region.ID(), "err", err)
		return nil
	}
	if op == nil || !c.add(v, op, nil, false) {
		return nil
	}
	return c.ctrl.Dispatch(region)
}

// mayNeedReplicas is a cheap filter before the replica checker (which
// builds a view of every store): false when region is led and has
// exactly max-replicas voters, no learner, and no peer on a lost store.
func (c *Coordinator) mayNeedReplicas(region *meta.RegionInfo) bool {
	if region.Leader == nil {
		return false
	}
	voters := 0
	for _, p := range region.Meta.GetPeers() {
		if p.GetRole() != kvrpcpb.PeerRole_Voter || c.storeLost(p.GetStoreId()) {
			return true
		}
		voters++
	}
	return uint64(voters) != c.opts.Config().Replication.MaxReplicas
}

// Tick runs one scheduling round: timeouts, the replica checker over
// every region, then each scheduler until it has nothing to do, hits its
// limit or made SchedulesPerTick operators. The balance schedulers wait
// until every region has reported a leader or WarmUp passed since Since.
func (c *Coordinator) Tick() {
	c.ctrl.CheckTimeouts()
	regions := c.cluster.Regions()
	cnt := countRegions(regions)
	c.mu.Lock()
	c.counts = cnt
	c.mu.Unlock()
	v := c.newView(cnt)
	for _, r := range regions {
		if v.room[KindReplica] <= 0 {
			break
		}
		if c.ctrl.HasOperator(r.ID()) {
			continue
		}
		op, err := checkReplicas(v, r)
		if err != nil {
			c.opts.Logger.Warn("schedule: replica check", "region", r.ID(), "err", err)
			break
		}
		if op != nil {
			c.add(v, op, r, true)
		}
	}
	if !cnt.allLed && v.now.Sub(c.opts.Since) < c.opts.WarmUp {
		return
	}
	for _, s := range schedulers {
		for range c.opts.SchedulesPerTick {
			op, err := s.schedule(v, c.ctrl.HasOperator)
			if err != nil {
				c.opts.Logger.Warn("schedule: "+s.name, "err", err)
			}
			if op == nil || !c.add(v, op, nil, true) {
				break
			}
		}
	}
}

// Run calls Tick every ScheduleInterval until ctx ends.
func (c *Coordinator) Run(ctx context.Context) {
	t := time.NewTicker(c.opts.ScheduleInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.Tick()
		}
	}
}

// refreshCounts scans every region.
func (c *Coordinator) refreshCounts() *counts {
	cnt := countRegions(c.cluster.Regions())
	c.mu.Lock()
	c.counts = cnt
	c.mu.Unlock()
	return cnt
}

// newView builds a view at Now from the cluster's stores, the counts cnt
// and the Controller's running operators.
func (c *Coordinator) newView(cnt *counts) *view {
	infl, running := c.ctrl.load()
	return newView(&c.opts, c.opts.Now(), c.cluster.Stores(), cnt, infl, running)
}

// add hands op to the Controller and accounts for it in v. With push and
// a Send function, the first step goes out at once to the leader of
// region (as last seen; nil: look it up).
func (c *Coordinator) add(v *view, op *Operator, region *meta.RegionInfo, push bool) bool {
	in := map[uint64]*influence{}
	op.addInfluence(in)
	kind, id, desc := op.Kind(), op.RegionID(), op.String()
	if err := c.ctrl.AddOperator(op); err != nil {
		if !errors.Is(err, ErrOperatorExists) {
			c.opts.Logger.Debug("schedule: operator refused", "op", desc, "err", err)
		}
		return false
	}
	v.apply(kind, in)
	if !push || c.opts.Send == nil {
		return true
	}
	if region == nil {
		region = c.cluster.Region(id)
	}
	if region == nil || region.Leader == nil {
		return true
	}
	if resp := c.ctrl.Dispatch(region); resp != nil {
		if err := c.opts.Send(region.Leader.GetStoreId(), resp); err != nil {
			c.opts.Logger.Debug("schedule: send step", "region", region.ID(), "err", err)
		}
	}
	return true
}
