package raftstore

import (
	"context"
	"math/rand/v2"
	"sync/atomic"

	"go.etcd.io/raft/v3/raftpb"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
)

// routeKey carries the routed region of a request in its context.
type routeKey struct{}

type route struct {
	p  *peer
	rc *kvrpcpb.Context
	// term is the peer's term when the request was routed; its writes
	// are refused in any other term.
	term uint64
}

// Route checks that a request routed with rc may run here — the target
// store, a peer of the region, its epoch's version, this peer leading,
// and for async-commit or 1PC prewrites (needMaxTS) max_ts synced since
// the leader change — and returns the context the storage calls take.
// A refusal is a *RegionError.
func (s *Store) Route(ctx context.Context, rc *kvrpcpb.Context, needMaxTS bool) (context.Context, error) {
	if rc == nil {
		return nil, errRegionNotFound(0)
	}
	if sid := rc.GetPeer().GetStoreId(); sid != 0 && sid != s.cfg.StoreID {
		return nil, errStoreNotMatch(sid, s.cfg.StoreID)
	}
	p := s.peer(rc.GetRegionId())
	if p == nil || !p.initialized.Load() || p.destroyed.Load() {
		return nil, errRegionNotFound(rc.GetRegionId())
	}
	region := p.Region()
	if rc.GetRegionEpoch().GetVersion() != region.GetRegionEpoch().GetVersion() {
		return nil, errEpochNotMatch("request is routed by an old region", s.siblings(region)...)
	}
	if !p.isLeader.Load() {
		return nil, errNotLeader(p.regionID, p.leaderPeer())
	}
	term := p.term.Load()
	if needMaxTS && p.maxTSTerm.Load() != term {
		return nil, errMaxTSNotSynced(p.regionID)
	}
	return context.WithValue(ctx, routeKey{}, &route{p: p, rc: rc, term: term}), nil
}

// LeaderTerm implements txn.LeaderTermer: the routed region, its user-key
// range now and the term its leader (this peer) had when the request was
// routed. Write refuses the request's batches in any other term.
func (s *Store) LeaderTerm(ctx context.Context) (regionID, term uint64, start, end []byte, ok bool) {
	rt, _ := ctx.Value(routeKey{}).(*route)
	if rt == nil {
		return 0, 0, nil, nil, false
	}
	r := rt.p.Region()
	return rt.p.regionID, rt.term, r.GetStartKey(), r.GetEndKey(), true
}

// RegionLeadership implements txn.LeaderTermer: the term and user-key
// range of region id when this store leads it.
func (s *Store) RegionLeadership(id uint64) (term uint64, start, end []byte, ok bool) {
	p := s.peer(id)
	if p == nil || p.destroyed.Load() || !p.isLeader.Load() {
		return 0, nil, nil, false
	}
	r := p.Region()
	return p.term.Load(), r.GetStartKey(), r.GetEndKey(), true
}

// siblings returns region and the regions here that follow it up to the
// end of the range it had (what a client needs after a split).
func (s *Store) siblings(region *kvrpcpb.Region) []*kvrpcpb.Region {
	out := []*kvrpcpb.Region{region}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, q := range s.mu.peers {
		if q.regionID != region.GetId() && q.initialized.Load() {
			r := q.Region()
			if r.GetRegionEpoch().GetVersion() == region.GetRegionEpoch().GetVersion() {
				out = append(out, r)
			}
		}
	}
	return out
}

var _ engine.Engine = (*Store)(nil)

// Snapshot implements engine.Engine: a read view of kvdb that is
// linearizable for the routed region — under the leader's lease, or after
// a ReadIndex round confirmed leadership and the peer applied up to the
// read index and an entry of the confirming term. Without a route
// (store-wide scans at start-up) it is a plain kvdb snapshot.
func (s *Store) Snapshot(ctx context.Context) (engine.Snapshot, error) {
	rt, _ := ctx.Value(routeKey{}).(*route)
	if rt == nil {
		return s.kv.Snapshot(ctx)
	}
	p := rt.p
	if p.leaseValid() {
		s.metrics.leaseRead()
		return s.checkedSnapshot(ctx, rt)
	}
	s.metrics.readIndex()
	type res struct {
		index, term uint64
		err         error
	}
	ch := make(chan res, 1)
	p.post(&readReq{done: func(index, term uint64, err error) { ch <- res{index, term, err} }})
	var r res
	select {
	case r = <-ch:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.stopped:
		return nil, ErrStopped
	}
	if r.err != nil {
		return nil, r.err
	}
	// Also wait for an entry of the confirming term: etcd raft answers a
	// lone voter's ReadIndex with its commit index at once, even before
	// the entry of its new term commits the earlier terms' tail (after a
	// restart, entries the hard state did not yet record as committed).
	if err := p.waitApplied(ctx, r.index, r.term); err != nil {
		return nil, err
	}
	return s.checkedSnapshot(ctx, rt)
}

// checkedSnapshot takes the kvdb snapshot for a routed read, then checks
// the region did not change under it (a split or removal applied between
// the route check and the snapshot: the read may miss writes the new
// regions took elsewhere), and bounds its iterators to the region.
func (s *Store) checkedSnapshot(ctx context.Context, rt *route) (engine.Snapshot, error) {
	snap, err := s.kv.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	p := rt.p
	v := p.region.Load()
	if p.destroyed.Load() || v.region.GetRegionEpoch().GetVersion() != rt.rc.GetRegionEpoch().GetVersion() {
		snap.Close()
		return nil, errEpochNotMatch("the region changed while the read started", s.siblings(v.region)...)
	}
	return newRegionSnapshot(snap, v.ranges), nil
}

// proposalIDs numbers proposals. It starts at a random point so that ids
// of different stores and of earlier runs of this one (entries of their
// terms still in the log) do not collide with this run's.
var proposalIDs = func() *atomic.Uint64 {
	var a atomic.Uint64
	a.Store(rand.Uint64() >> 1)
	return &a
}()

// Write implements engine.Engine: the batch is proposed to the routed
// region's raft group and Write returns once it applied on this peer
// (or the proposal failed: a *RegionError, or ctx's error — then the
// write may still apply).
func (s *Store) Write(ctx context.Context, b *engine.Batch) error {
	rt, _ := ctx.Value(routeKey{}).(*route)
	if rt == nil {
		return errRegionNotFound(0)
	}
	if b.Empty() {
		return nil
	}
	v := rt.p.region.Load()
	if err := checkKeysInRegion(b, v.region, v.ranges); err != nil {
		return err
	}
	p := rt.p
	cmd := writeCmd(p.regionID, rt.rc.GetPeer(), rt.rc.GetRegionEpoch(), b.Ops())
	// Refused unless p still leads in the term the request was routed in.
	_, err := s.submit(p, &proposal{cmd: cmd, noSync: b.NoSync, wantTerm: rt.term})
	return err
}

// writeCmd is the raft command that writes ops to region regionID as of
// epoch, proposed by peer.
func writeCmd(regionID uint64, peer *kvrpcpb.Peer, epoch *kvrpcpb.RegionEpoch, ops []engine.Op) *raftserverpb.RaftCmdRequest {
	wops := make([]*raftserverpb.WriteOp, 0, len(ops))
	for _, op := range ops {
		wops = append(wops, &raftserverpb.WriteOp{Kind: uint32(op.Kind), Key: op.Key, Value: op.Value})
	}
	return &raftserverpb.RaftCmdRequest{
		Header: &raftserverpb.RaftRequestHeader{RegionId: regionID, Peer: peer, RegionEpoch: epoch},
		Ops:    wops,
	}
}

// propose hands cmd to p's raft group and waits for its apply.
func (s *Store) propose(_ context.Context, p *peer, cmd *raftserverpb.RaftCmdRequest, cc *raftpb.ConfChangeV2) (applyResult, error) {
	return s.submit(p, &proposal{cmd: cmd, cc: cc})
}

// submit hands prop to p's raft group and waits for its apply.
func (s *Store) submit(p *peer, prop *proposal) (applyResult, error) {
	ch := make(chan applyResult, 1)
	prop.id = proposalIDs.Add(1)
	prop.done = func(r applyResult) { ch <- r }
	p.post(prop)
	// Wait for the final answer even past ctx's deadline: the caller holds
	// the keys' latches, and releasing them while the write may still
	// apply would let another command decide on a state about to change.
	// Every proposal is answered within bounded time: applied, StaleCommand
	// when a newer term applies, UndeterminedResult when neither reached
	// this peer within two election timeouts of its stepping down
	// (CheckQuorum bounds how long a cut-off leader leads) or the peer
	// goes away.
	select {
	case r := <-ch:
		return r, r.err
	case <-s.stopped:
		return applyResult{}, errUndetermined("store stopped")
	}
}

// Close implements engine.Engine; the store's owner closes the engines.
func (s *Store) Close() error { return nil }
