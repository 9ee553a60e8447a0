package schedule

import (
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// counts is what one scan of the region tree says about the stores: how
// many peers and leaders each holds, and which regions.
type counts struct {
	regions map[uint64]int
	leaders map[uint64]int
	size    map[uint64]uint64
	// led lists, per store, the regions it leads; peers the regions with
	// a voter on it. Both in key order.
	led   map[uint64][]*meta.RegionInfo
	peers map[uint64][]*meta.RegionInfo
	// allLed: every region has reported a leader.
	allLed bool
}

// countRegions scans regions (in key order).
func countRegions(regions []*meta.RegionInfo) *counts {
	c := &counts{
		regions: map[uint64]int{}, leaders: map[uint64]int{}, size: map[uint64]uint64{},
		led: map[uint64][]*meta.RegionInfo{}, peers: map[uint64][]*meta.RegionInfo{}, allLed: true,
	}
	for _, r := range regions {
		for _, p := range r.Meta.GetPeers() {
			s := p.GetStoreId()
			c.regions[s]++
			c.size[s] += r.ApproximateSize
			if p.GetRole() == kvrpcpb.PeerRole_Voter {
				c.peers[s] = append(c.peers[s], r)
			}
		}
		if r.Leader == nil {
			c.allLed = false
			continue
		}
		s := r.Leader.GetStoreId()
		c.leaders[s]++
		c.led[s] = append(c.led[s], r)
	}
	return c
}

// influence is how running operators will change a store's counts once
// their remaining steps are done.
type influence struct {
	regions, leaders int
	adding           int // peers being added to the store
}

// addInfluence adds the effect of steps to m. firstApplied: the first
// step's change is already in the region tree (a learner catching up),
// so only its snapshot counts.
func addInfluence(m map[uint64]*influence, steps []Step, firstApplied bool) {
	get := func(id uint64) *influence {
		in := m[id]
		if in == nil {
			in = &influence{}
			m[id] = in
		}
		return in
	}
	for i, s := range steps {
		switch s := s.(type) {
		case AddLearner:
			in := get(s.ToStore)
			in.adding++
			if i > 0 || !firstApplied {
				in.regions++
			}
		case RemovePeer:
			get(s.FromStore).regions--
		case TransferLeader:
			get(s.FromStore).leaders--
			get(s.ToStore).leaders++
		}
	}
}

// storeView is one store as one scheduling round sees it: its state and
// its counts including the running operators' influence.
type storeView struct {
	id      uint64
	info    *meta.StoreInfo
	state   StoreState
	regions int
	leaders int
	size    uint64
	adding  int
}

// available is the store's free space as last reported (0: unknown).
func (s *storeView) available() uint64 { return s.info.Stats.GetAvailable() }

// view is the input of one scheduling decision: the clock, the config,
// the stores with their load, and the room left under each kind's limit.
// It is not safe for concurrent use.
type view struct {
	now    time.Time
	cfg    meta.ClusterConfig
	opts   *Options
	stores []*storeView // by id
	byID   map[uint64]*storeView
	room   map[Kind]int
	counts *counts
}

// newView builds a view from stores, the region counts c, and the load of
// the running operators (influence and count per kind).
func newView(opts *Options, now time.Time, stores []*meta.StoreInfo, c *counts,
	infl map[uint64]*influence, running map[Kind]int) *view {
	cfg := opts.Config()
	v := &view{now: now, cfg: cfg, opts: opts, byID: map[uint64]*storeView{}, counts: c,
		room: map[Kind]int{
			KindReplica: int(cfg.Schedule.ReplicaScheduleLimit) - running[KindReplica],
			KindLeader:  int(cfg.Schedule.LeaderScheduleLimit) - running[KindLeader],
			KindRegion:  int(cfg.Schedule.RegionScheduleLimit) - running[KindRegion],
		}}
	for _, s := range stores {
		sv := &storeView{id: s.ID(), info: s,
			state:   StoreStateOf(s, now, opts.Since, opts.DisconnectDuration, cfg.Schedule.MaxStoreDownTime.D()),
			regions: c.regions[s.ID()], leaders: c.leaders[s.ID()], size: c.size[s.ID()]}
		if in := infl[s.ID()]; in != nil {
			sv.regions += in.regions
			sv.leaders += in.leaders
			sv.adding += in.adding
		}
		v.stores = append(v.stores, sv)
		v.byID[sv.id] = sv
	}
	return v
}

// state is store id's state; an unknown store counts as a tombstone.
func (v *view) state(id uint64) StoreState {
	if s := v.byID[id]; s != nil {
		return s.state
	}
	return StoreTombstone
}

// apply accounts for an operator of kind k, with influence in, just
// accepted by the Controller. (The influence is taken before the
// operator is handed over: after that, only the Controller may read it.)
func (v *view) apply(k Kind, in map[uint64]*influence) {
	for id, d := range in {
		if s := v.byID[id]; s != nil {
			s.regions += d.regions
			s.leaders += d.leaders
			s.adding += d.adding
		}
	}
	v.room[k]--
}

// newOperator makes an operator at the view's time with the configured
// timeout.
func (v *view) newOperator(name string, kind Kind, region *meta.RegionInfo, steps ...Step) *Operator {
	op := NewOperator(name, kind, region, v.now, steps...)
	op.SetTimeout(timeoutFor(steps, v.opts.PeerMoveTimeout, v.opts.LeaderTransferTimeout))
	return op
}

// healthyVoter reports whether peer p of region is a voter that can lead:
// not reported down or pending, on a store that is up.
func (v *view) healthyVoter(region *meta.RegionInfo, p *kvrpcpb.Peer) bool {
	return p.GetRole() == kvrpcpb.PeerRole_Voter && !isDown(region, p.GetId()) &&
		!isPending(region, p.GetId()) && v.state(p.GetStoreId()) == StoreUp
}
