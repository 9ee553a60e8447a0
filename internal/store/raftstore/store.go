package raftstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/google/btree"
	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
)

// PD is what a store asks of the placement driver.
type PD interface {
	// AllocID returns a new unique id.
	AllocID(ctx context.Context) (uint64, error)
	// AskBatchSplit returns ids for count new regions split off region.
	AskBatchSplit(ctx context.Context, region *kvrpcpb.Region, count int) ([]*pdpb.SplitID, error)
	// ReportBatchSplit tells PD the regions a split produced.
	ReportBatchSplit(ctx context.Context, regions []*kvrpcpb.Region) error
	// RegionHeartbeat reports a region led by this store. Answers come
	// back through Store.HandleRegionHeartbeatResponse.
	RegionHeartbeat(ctx context.Context, req *pdpb.RegionHeartbeatRequest) error
	// StoreHeartbeat reports the store's stats.
	StoreHeartbeat(ctx context.Context, stats *pdpb.StoreStats) error
	// GetTimestamp returns a fresh timestamp from the TSO.
	GetTimestamp(ctx context.Context) (uint64, error)
}

// ApplyObserver learns what the apply workers wrote, on every replica, so
// that in-memory indexes over kvdb (the lock index of store/txn) stay
// exact when a follower becomes leader.
type ApplyObserver interface {
	// BeforeApply is called before the batch's data ops are written to
	// kvdb, Applied after they are in it.
	BeforeApply(b *engine.Batch)
	// Applied is called after the batch's data ops are in kvdb.
	Applied(b *engine.Batch)
	// DataReplacing is called before a snapshot's install or a peer's
	// destroy rewrites a range of kvdb, DataReplaced after it, whether
	// the rewrite was written or failed.
	DataReplacing()
	DataReplaced()
	// RangeReset is called after a snapshot replaced the user keys in
	// [start, end) (empty end: unbounded).
	RangeReset(start, end []byte)
}

// LockHandoff returns the in-memory pessimistic locks of a region this
// store leads in term, as the engine writes that persist them (store/txn's
// Storage): a leader proposes them before it hands leadership over, so
// the transferee finds them (TiKV does the same). HandoffPending reports
// whether a write replacing a lock the hand-off left out is still on its
// way: the transfer waits for it (at most Config.HandoffWait).
// HandoffLocks's split says which the hand-off precedes, a split or a
// transfer. HandoffEnded, called once for each split hand-off, says the
// split has applied or failed (or its hand-off did): the region's locks
// may live in memory again, unless another split or a transfer of the
// term still needs them in the engine.
type LockHandoff interface {
	HandoffLocks(regionID, term uint64, split bool) *engine.Batch
	HandoffPending(regionID, term uint64) bool
	HandoffEnded(regionID, term uint64)
}

// MaxTSUpdater raises the store's max_ts (store/txn's concurrency
// manager) when a peer becomes leader.
type MaxTSUpdater interface{ UpdateMaxTS(ts uint64) }

// Deps are the collaborators of a Store.
type Deps struct {
	// KV is the data engine (kvdb), opened with the MVCC key split.
	KV *engine.Pebble
	// RaftDB holds the raft logs and raft states.
	RaftDB *pebble.DB
	// Transport carries raft messages to other stores.
	Transport Transport
	// PD is the placement driver (nil: no PD — splits and heartbeats off).
	PD PD
}

// Store is a storage node's multi-raft: the peers of every region with a
// replica here, their raft loops and apply workers. It implements
// engine.Engine for store/txn: reads and writes name their region in the
// context (WithRegion).
type Store struct {
	cfg      Config
	log      *slog.Logger
	kv       *engine.Pebble
	kvdb     *pebble.DB
	raftdb   *pebble.DB
	trans    Transport
	pd       PD
	observer ApplyObserver
	handoff  LockHandoff
	maxTS    MaxTSUpdater
	start    time.Time
	loops    []*raftLoop
	writer   *raftWriter
	appliers []*applyWorker
	metrics  storeMetrics

	mu struct {
		sync.RWMutex
		peers  map[uint64]*peer          // by region id
		ranges *btree.BTreeG[*peer]      // initialized peers by start key
		snaps  map[snapKey]*receivedSnap // snapshots received, not yet applied
		// installing are the ranges of snapshots being installed.
		installing map[uint64]*kvrpcpb.Region
	}

	// isolated drops every raft message and snapshot to and from other
	// stores (fault injection: a network partition of this store).
	isolated atomic.Bool

	splitVotes splitVotes

	stopOnce sync.Once
	stopped  chan struct{}
	wg       sync.WaitGroup // loops, workers and background tasks

	bgMu     sync.Mutex
	stopping bool // no background task starts once set
}

// goBackground runs fn in a goroutine that Stop waits for (it reads kvdb,
// which the owner closes after Stop); once Stop began it runs nothing and
// returns false.
func (s *Store) goBackground(fn func()) bool {
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.stopping {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
	return true
}

// NewStore loads the regions of this store from kvdb and raftdb. Start
// runs it.
func NewStore(cfg Config, d Deps) (*Store, error) {
	cfg.fill()
	s := &Store{
		cfg: cfg, log: cfg.Logger.With("store", cfg.StoreID), kv: d.KV, kvdb: d.KV.DB(), raftdb: d.RaftDB,
		trans: d.Transport, pd: d.PD, start: time.Now(),
		stopped: make(chan struct{}),
	}
	s.splitVotes.ttl = int64(cfg.electionTimeout()) // then the candidate campaigns again
	s.mu.peers = map[uint64]*peer{}
	s.mu.ranges = btree.NewG(16, func(a, b *peer) bool {
		return bytes.Compare(a.Region().GetStartKey(), b.Region().GetStartKey()) < 0
	})
	s.mu.snaps = map[snapKey]*receivedSnap{}
	s.mu.installing = map[uint64]*kvrpcpb.Region{}
	for range cfg.StorePoolSize {
		s.loops = append(s.loops, newRaftLoop(s))
	}
	s.writer = newRaftWriter(s)
	for range cfg.ApplyPoolSize {
		s.appliers = append(s.appliers, newApplyWorker(s))
	}
	if err := s.loadPeers(); err != nil {
		return nil, err
	}
	return s, nil
}

// SetObserver sets the apply observer (store/txn's Storage, built over
// this Store, so set after NewStore); call before Start.
func (s *Store) SetObserver(o ApplyObserver) { s.observer = o }

// SetLockHandoff sets where a leader about to transfer leadership takes
// the in-memory locks to persist first; before Start.
func (s *Store) SetLockHandoff(h LockHandoff) { s.handoff = h }

// SetMaxTSUpdater sets what a new leader raises max_ts on; before Start.
func (s *Store) SetMaxTSUpdater(m MaxTSUpdater) { s.maxTS = m }

// Start runs the raft loops, apply workers and background tasks.
func (s *Store) Start() {
	for _, l := range s.loops {
		s.wg.Add(1)
		go l.run()
	}
	s.wg.Add(1)
	go s.writer.run()
	for _, w := range s.appliers {
		s.wg.Add(1)
		go w.run()
	}
	if s.pd != nil {
		s.wg.Add(1)
		go s.storeHeartbeatLoop()
	}
}

// Stop ends every loop and worker and fails waiting requests. It does
// not close the engines.
func (s *Store) Stop() {
	s.stopOnce.Do(func() {
		s.bgMu.Lock()
		s.stopping = true
		s.bgMu.Unlock()
		close(s.stopped)
		s.wg.Wait()
		s.mu.Lock()
		peers := make([]*peer, 0, len(s.mu.peers))
		for _, p := range s.mu.peers {
			peers = append(peers, p)
		}
		s.mu.Unlock()
		for _, p := range peers {
			p.failAll(ErrStopped)
		}
	})
}

// StoreID returns the store's id.
func (s *Store) StoreID() uint64 { return s.cfg.StoreID }

// now is the store's monotonic clock in ns.
func (s *Store) now() int64 { return int64(time.Since(s.start)) }

// clock is wall time (for coarse periodic work).
func (s *Store) clock() time.Time { return time.Now() }

// fatal logs a failure the store cannot recover from for p. The peer
// stops (it would otherwise diverge); the store goes on with the others.
func (s *Store) fatal(p *peer, what string, err error) {
	if p == nil {
		s.log.Error("raftstore: "+what+" failed", "err", err)
		return
	}
	s.log.Error("raftstore: "+what+" failed; peer stopped", "region", p.regionID, "err", err)
	// Unregistered (its data stays): messages no longer pile up in a
	// mailbox nobody drains, and a later peer of the region can be made.
	s.removePeer(p)
	p.failMailbox(err)
}

// peer returns the peer of region id, or nil.
func (s *Store) peer(id uint64) *peer {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mu.peers[id]
}

// Regions returns the initialized regions with a peer here, for tests
// and the status page.
func (s *Store) Regions() []*kvrpcpb.Region {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*kvrpcpb.Region, 0, len(s.mu.peers))
	for _, p := range s.mu.peers {
		if p.initialized.Load() {
			out = append(out, p.Region())
		}
	}
	return out
}

// IsLeader reports whether this store leads region id.
func (s *Store) IsLeader(id uint64) bool {
	p := s.peer(id)
	return p != nil && p.isLeader.Load()
}

// LeaderCount returns the number of regions this store leads.
func (s *Store) LeaderCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, p := range s.mu.peers {
		if p.isLeader.Load() {
			n++
		}
	}
	return n
}

// Bootstrap writes the first region of a new cluster (the whole key
// space, with one peer per entry of region.Peers) into a store's empty
// engines. Only the store that bootstraps the cluster calls it.
func Bootstrap(kv *engine.Pebble, raftdb *pebble.DB, region *kvrpcpb.Region) error {
	kb := kv.DB().NewBatch()
	defer kb.Close()
	b, err := proto.Marshal(&raftserverpb.RegionLocalState{State: raftserverpb.PeerState_Normal, Region: region})
	if err != nil {
		return err
	}
	_ = kb.Set(regionStateKey(region.GetId()), b, nil)
	b, _ = proto.Marshal(&raftserverpb.RaftApplyState{
		AppliedIndex: raftInitLogIndex, AppliedTerm: raftInitLogTerm,
		TruncatedState: &raftserverpb.RaftTruncatedState{Index: raftInitLogIndex, Term: raftInitLogTerm},
	})
	_ = kb.Set(applyStateKey(region.GetId()), b, nil)
	if err := kb.Commit(pebble.Sync); err != nil {
		return err
	}
	return writeInitialRaftState(raftdb, region.GetId(), nil)
}

// writeInitialRaftState records the raft state of a region created by
// bootstrap or split: log at (5, 5), committed. A hard state a peer
// created from a message already persisted (its vote) is kept.
func writeInitialRaftState(raftdb *pebble.DB, regionID uint64, prev *raftpb.HardState) error {
	if cur, err := loadRaftState(raftdb, regionID); err != nil {
		return err
	} else if cur.GetLastIndex() >= raftInitLogIndex {
		return nil // the peer already ran (a split replayed after a crash)
	}
	hs := &raftpb.HardState{Term: proto.Uint64(raftInitLogTerm), Commit: proto.Uint64(raftInitLogIndex), Vote: proto.Uint64(0)}
	if prev.GetTerm() > raftInitLogTerm {
		hs.Term, hs.Vote = proto.Uint64(prev.GetTerm()), proto.Uint64(prev.GetVote())
	}
	b, err := proto.Marshal(&raftserverpb.RaftLocalState{HardState: hs, LastIndex: raftInitLogIndex, LastTerm: raftInitLogTerm})
	if err != nil {
		return err
	}
	return raftdb.Set(raftStateKey(regionID), b, pebble.Sync)
}

// loadPeers creates a peer for every region whose local state is Normal.
func (s *Store) loadPeers() error {
	lo, hi := regionStateBounds()
	it, err := s.kvdb.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		id, ok := regionIDOfStateKey(it.Key())
		if !ok {
			continue
		}
		st := &raftserverpb.RegionLocalState{}
		if err := proto.Unmarshal(it.Value(), st); err != nil {
			return fmt.Errorf("raftstore: region %d: corrupt local state: %w", id, err)
		}
		if st.GetState() != raftserverpb.PeerState_Normal {
			continue
		}
		self := findStorePeer(st.GetRegion(), s.cfg.StoreID)
		if self == nil {
			continue
		}
		if _, err := s.createPeer(st.GetRegion(), self.GetId(), true, true); err != nil {
			return err
		}
	}
	return it.Error()
}

// findStorePeer returns region's peer on store id, or nil.
func findStorePeer(r *kvrpcpb.Region, storeID uint64) *kvrpcpb.Peer {
	for _, p := range r.GetPeers() {
		if p.GetStoreId() == storeID {
			return p
		}
	}
	return nil
}

// loadApplyState reads a region's apply state from kvdb.
func (s *Store) loadApplyState(id uint64) (*raftserverpb.RaftApplyState, error) {
	v, closer, err := s.kvdb.Get(applyStateKey(id))
	if errors.Is(err, pebble.ErrNotFound) {
		return &raftserverpb.RaftApplyState{TruncatedState: &raftserverpb.RaftTruncatedState{}}, nil
	}
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	st := &raftserverpb.RaftApplyState{}
	if err := proto.Unmarshal(v, st); err != nil {
		return nil, fmt.Errorf("raftstore: region %d: corrupt apply state: %w", id, err)
	}
	return st, nil
}

// createPeer builds and registers the peer peerID of region. An
// initialized peer loads its state from the engines; an uninitialized one
// (created from a raft message) starts empty, keeping any hard state it
// persisted before. restarted marks a peer loaded at start-up.
func (s *Store) createPeer(region *kvrpcpb.Region, peerID uint64, initialized, restarted bool) (*peer, error) {
	id := region.GetId()
	rs, err := loadRaftState(s.raftdb, id)
	if err != nil {
		return nil, err
	}
	ps := &peerStorage{regionID: id, raftdb: s.raftdb, hardState: &raftpb.HardState{}, confState: &raftpb.ConfState{}}
	ap := &applyState{region: region}
	if initialized {
		as, err := s.loadApplyState(id)
		if err != nil {
			return nil, err
		}
		if rs == nil {
			// Split or bootstrap state committed in kvdb, raft state not
			// yet written when the process died: write it now.
			if err := writeInitialRaftState(s.raftdb, id, nil); err != nil {
				return nil, err
			}
			if rs, err = loadRaftState(s.raftdb, id); err != nil {
				return nil, err
			}
		}
		ps.hardState = proto.Clone(rs.GetHardState()).(*raftpb.HardState)
		ps.lastIndex, ps.lastTerm = rs.GetLastIndex(), rs.GetLastTerm()
		ps.truncated = truncState{as.GetTruncatedState().GetIndex(), as.GetTruncatedState().GetTerm()}
		if ps.truncated.Index > ps.lastIndex {
			// A snapshot applied to kvdb before raftdb recorded it.
			ps.lastIndex, ps.lastTerm = ps.truncated.Index, ps.truncated.Term
		}
		if as.GetAppliedIndex() > ps.lastIndex {
			// kvdb got ahead of an unsynced raft log (sync-log = false):
			// restart the log at what is applied.
			ps.truncated = truncState{as.GetAppliedIndex(), as.GetAppliedTerm()}
			ps.lastIndex, ps.lastTerm = ps.truncated.Index, ps.truncated.Term
		}
		if ps.hardState.GetCommit() < as.GetAppliedIndex() {
			ps.hardState.Commit = proto.Uint64(as.GetAppliedIndex())
		}
		ps.confState = confStateOf(region)
		ps.applied = as.GetAppliedIndex()
		ap.applied, ap.appliedT = as.GetAppliedIndex(), as.GetAppliedTerm()
		ap.truncated = ps.truncated
	} else if rs != nil {
		ps.hardState = &raftpb.HardState{Term: proto.Uint64(rs.GetHardState().GetTerm()), Vote: proto.Uint64(rs.GetHardState().GetVote()), Commit: proto.Uint64(0)}
	}
	rn, err := raft.NewRawNode(&raft.Config{
		ID: peerID, ElectionTick: s.cfg.ElectionTicks, HeartbeatTick: s.cfg.HeartbeatTicks,
		Storage: ps, Applied: ps.applied,
		MaxSizePerMsg: 1 << 20, MaxInflightMsgs: s.cfg.MaxInflightMsgs,
		MaxUncommittedEntriesSize: 128 << 20, MaxCommittedSizePerReady: 16 << 20,
		CheckQuorum: true, PreVote: true, ReadOnlyOption: raft.ReadOnlySafe,
		AsyncStorageWrites:        true,
		DisableProposalForwarding: true, StepDownOnRemoval: true,
		Logger: raftLogger{s.log.With("region", id)},
	})
	if err != nil {
		return nil, fmt.Errorf("raftstore: region %d: %w", id, err)
	}
	p := &peer{
		s: s, regionID: id, peerID: peerID,
		loop: s.loops[id%uint64(len(s.loops))], applier: s.appliers[id%uint64(len(s.appliers))],
		rn: rn, ps: ps, ap: ap, proposals: map[uint64]*proposal{}, downTicks: -1,
	}
	ps.snapshot = p.snapshotForRaft
	p.setRegion(region)
	p.initialized.Store(initialized)
	if restarted && len(region.GetPeers()) > 1 {
		// A restarted peer forgot the leader it followed: it grants no
		// vote for an election timeout, so it cannot help elect a rival
		// while the old leader's lease may still hold (TiKV #15035). A
		// peer a split creates does not wait: the parent's leader campaigns
		// for the new region at once, and blocking its votes would leave
		// the new region without a leader for an election timeout.
		p.voteBlockUntil = s.now() + int64(s.cfg.electionTimeout())
	}
	p.term.Store(ps.hardState.GetTerm())
	p.appliedIdx.Store(ap.applied)
	p.appliedTerm.Store(ap.appliedT)
	s.mu.Lock()
	old := s.mu.peers[id]
	if old != nil {
		// Only an initialized peer replaces an uninitialized one (created
		// from a message) with the same or an older peer id.
		if !initialized || old.initialized.Load() || old.peerID > peerID {
			s.mu.Unlock()
			return nil, fmt.Errorf("raftstore: region %d already has peer %d here", id, old.peerID)
		}
		old.destroyed.Store(true)
	}
	s.mu.peers[id] = p
	if initialized {
		s.mu.ranges.ReplaceOrInsert(p)
	}
	s.mu.Unlock()
	if old != nil {
		old.loop.remove(old)
		old.failAll(errRegionNotFound(id))
	}
	p.loop.add(p)
	if initialized && len(region.GetPeers()) == 1 && region.GetPeers()[0].GetId() == peerID {
		p.post(msgCampaign{}) // alone: no need to wait for an election timeout
	}
	return p, nil
}

// createSplitPeer creates the peer of a region a split produced here. A
// peer of it created from a message (uninitialized) gives way, keeping
// its hard state.
func (s *Store) createSplitPeer(region *kvrpcpb.Region, campaign bool) {
	self := findStorePeer(region, s.cfg.StoreID)
	if self == nil {
		return
	}
	var prev *raftpb.HardState
	if old := s.peer(region.GetId()); old != nil {
		if old.initialized.Load() || old.peerID > self.GetId() {
			return
		}
		// The uninitialized peer stops; the vote it persisted is kept.
		old.destroyed.Store(true)
		s.writer.flush() // its queued raft state lands before we read it
		if rs, _ := loadRaftState(s.raftdb, region.GetId()); rs != nil {
			prev = rs.GetHardState()
		}
	}
	if err := writeInitialRaftState(s.raftdb, region.GetId(), prev); err != nil {
		s.log.Error("raftstore: write split raft state", "region", region.GetId(), "err", err)
		return
	}
	p, err := s.createPeer(region, self.GetId(), true, false)
	if err != nil {
		s.log.Error("raftstore: create split peer", "region", region.GetId(), "err", err)
		return
	}
	if m := s.splitVotes.take(region.GetId(), self.GetId(), s.now()); m != nil && !campaign {
		p.post(m)
	}
	if campaign {
		p.post(msgCampaign{})
	}
}

// splitTargetTaken reports whether this store already has an initialized
// peer (or a newer one) of a region a split is about to create.
func (s *Store) splitTargetTaken(r *kvrpcpb.Region, storeID uint64) bool {
	old := s.peer(r.GetId())
	self := findStorePeer(r, storeID)
	return old != nil && self != nil && (old.initialized.Load() || old.peerID > self.GetId())
}

// onRegionChanged re-indexes p after its range or epoch changed.
func (s *Store) onRegionChanged(p *peer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The btree orders by start key, which p may just have changed.
	s.reindexLocked()
}

// reindexLocked rebuilds the range index (regions are few per store
// compared to requests, and ranges change only on split, snapshot and
// destroy).
func (s *Store) reindexLocked() {
	s.mu.ranges.Clear(false)
	for _, p := range s.mu.peers {
		if p.initialized.Load() && !p.destroyed.Load() {
			s.mu.ranges.ReplaceOrInsert(p)
		}
	}
}

// removePeer unregisters p (without touching its data).
func (s *Store) removePeer(p *peer) {
	p.destroyed.Store(true)
	s.mu.Lock()
	if s.mu.peers[p.regionID] == p {
		delete(s.mu.peers, p.regionID)
	}
	s.reindexLocked()
	s.mu.Unlock()
	p.loop.remove(p)
	// Its proposals may still commit under the remaining peers.
	p.failAll(errUndetermined("the peer was removed before the write applied"))
	p.releaseApplyWaiters() // their reads then see it destroyed
}

// overlapsInitialized reports whether an initialized peer other than
// region id's covers part of [start, end).
func (s *Store) overlapsInitialized(id uint64, start, end []byte) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.overlapsInitializedLocked(id, start, end)
}

// overlapsInitializedLocked is overlapsInitialized with s.mu held.
func (s *Store) overlapsInitializedLocked(id uint64, start, end []byte) bool {
	found := false
	s.mu.ranges.Ascend(func(q *peer) bool {
		r := q.Region()
		if q.regionID != id && rangesOverlap(r.GetStartKey(), r.GetEndKey(), start, end) {
			found = true
			return false
		}
		return true
	})
	return found
}

// rangesOverlap reports whether [s1, e1) and [s2, e2) intersect (empty
// end: +inf).
func rangesOverlap(s1, e1, s2, e2 []byte) bool {
	return (len(e2) == 0 || bytes.Compare(s1, e2) < 0) && (len(e1) == 0 || bytes.Compare(s2, e1) < 0)
}

// RegionForKey returns the region holding key here, or nil: for tests.
func (s *Store) RegionForKey(key []byte) *kvrpcpb.Region {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out *kvrpcpb.Region
	s.mu.ranges.Ascend(func(q *peer) bool {
		r := q.Region()
		if bytes.Compare(key, r.GetStartKey()) >= 0 && (len(r.GetEndKey()) == 0 || bytes.Compare(key, r.GetEndKey()) < 0) {
			out = r
			return false
		}
		return true
	})
	return out
}

// LoadStoreIdent returns the store identity recorded in kvdb, or nil for
// a new store.
func LoadStoreIdent(kv *engine.Pebble) (*raftserverpb.StoreIdent, error) {
	v, closer, err := kv.DB().Get(storeIdentKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	id := &raftserverpb.StoreIdent{}
	if err := proto.Unmarshal(v, id); err != nil {
		return nil, fmt.Errorf("raftstore: corrupt store ident: %w", err)
	}
	return id, nil
}

// SaveStoreIdent records the store identity in kvdb (synced).
func SaveStoreIdent(kv *engine.Pebble, id *raftserverpb.StoreIdent) error {
	b, err := proto.Marshal(id)
	if err != nil {
		return err
	}
	return kv.DB().Set(storeIdentKey, b, pebble.Sync)
}

// ClearBootstrap removes a region written by Bootstrap when PD says
// another store bootstrapped the cluster first.
func ClearBootstrap(kv *engine.Pebble, raftdb *pebble.DB, regionID uint64) error {
	b := kv.DB().NewBatch()
	defer b.Close()
	_ = b.Delete(regionStateKey(regionID), nil)
	_ = b.Delete(applyStateKey(regionID), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return err
	}
	return raftdb.Delete(raftStateKey(regionID), pebble.Sync)
}

// HasRegions reports whether kvdb holds any region state (the store was
// bootstrapped or has received peers).
func HasRegions(kv *engine.Pebble) (bool, error) {
	lo, hi := regionStateBounds()
	it, err := kv.DB().NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return false, err
	}
	defer it.Close()
	return it.First(), it.Error()
}

// RegionBeforeKey returns the region here holding the keys just below
// key (an empty key: the last region), or nil.
func (s *Store) RegionBeforeKey(key []byte) *kvrpcpb.Region {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out *kvrpcpb.Region
	s.mu.ranges.Ascend(func(q *peer) bool {
		r := q.Region()
		if len(key) == 0 {
			if len(r.GetEndKey()) == 0 {
				out = r
				return false
			}
			return true
		}
		if bytes.Compare(r.GetStartKey(), key) < 0 && (len(r.GetEndKey()) == 0 || bytes.Compare(key, r.GetEndKey()) <= 0) {
			out = r
			return false
		}
		return true
	})
	return out
}

// SetIsolated cuts (true) or heals (false) this store's raft traffic both
// ways, as a network partition would; clients still reach it. For fault
// tests.
func (s *Store) SetIsolated(on bool) {
	s.isolated.Store(on)
	s.log.Warn("raftstore: raft isolation set", "isolated", on)
}
