package raftstore

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
)

var errCorruptEntry = errors.New("raftstore: corrupt raft entry")

// applyTask is work for an apply worker: committed entries of one peer,
// or a function to run in order with them (snapshot generation and
// application).
type applyTask struct {
	p       *peer
	entries []*raftpb.Entry
	fn      func()
	done    chan struct{} // closed once applied, if set
	// confChanges are filled with the conf changes that applied (the loop
	// hands them to raft).
	confChanges []*raftpb.ConfChangeV2
	// committedAt is when the loop handed the entries over (store clock).
	committedAt int64
}

// applyWorker applies the committed entries of the peers assigned to it,
// many tasks per kvdb batch. A peer's tasks run in submission order.
type applyWorker struct {
	s     *Store
	tasks workQueue[*applyTask]
}

func newApplyWorker(s *Store) *applyWorker {
	return &applyWorker{s: s, tasks: newWorkQueue[*applyTask]()}
}

func (w *applyWorker) submit(t *applyTask) { w.tasks.push(t) }

func (w *applyWorker) run() {
	defer w.s.wg.Done()
	var tasks []*applyTask
	for {
		select {
		case <-w.s.stopped:
			return
		case <-w.tasks.notify:
		}
		tasks = w.tasks.take(tasks)
		if len(tasks) > 0 {
			ab := newApplyBatch(w.s)
			for _, t := range tasks {
				ab.run(t)
			}
			ab.flush(false)
		}
		clear(tasks)
	}
}

// applyBatch accumulates the writes of several tasks into one kvdb batch;
// what waits on them (proposals, readers, done channels) is released after
// the commit.
type applyBatch struct {
	s       *Store
	wb      *pebble.Batch
	ops     engine.Batch // the data ops, for the apply observer
	results []pendingResult
	touched map[*peer]struct{}
	after   []func() // run after the commit, in order
	done    []chan struct{}
	// committedAt is the committedAt of the task being applied.
	committedAt int64
}

type pendingResult struct {
	prop        *proposal
	res         applyResult
	committedAt int64 // the entry's task's committedAt
}

func newApplyBatch(s *Store) *applyBatch {
	return &applyBatch{s: s, wb: s.kvdb.NewBatch(), touched: map[*peer]struct{}{}}
}

// flush commits what is batched and releases its waiters.
func (ab *applyBatch) flush(sync bool) {
	if ab.ops.Len() > 0 && ab.s.observer != nil {
		ab.s.observer.BeforeApply(&ab.ops)
	}
	if !ab.wb.Empty() {
		opts := pebble.NoSync
		if sync {
			opts = pebble.Sync
		}
		if err := ab.wb.Commit(opts); err != nil {
			ab.s.fatal(nil, "apply write", err)
			return
		}
	}
	ab.wb.Close()
	ab.wb = ab.s.kvdb.NewBatch()
	if ab.ops.Len() > 0 && ab.s.observer != nil {
		ab.s.observer.Applied(&ab.ops)
	}
	ab.ops = engine.Batch{}
	for p := range ab.touched {
		p.setApplied(p.ap.applied, p.ap.appliedT)
		p.sizeDiff.Add(p.ap.sizeAdded)
		p.keysDiff.Add(p.ap.keysAdded)
		p.ap.sizeAdded, p.ap.keysAdded = 0, 0
		delete(ab.touched, p)
	}
	for _, f := range ab.after {
		f()
	}
	ab.after = ab.after[:0]
	apply, now := ab.s.cfg.Latency.Apply, int64(0)
	if apply != nil {
		now = ab.s.now()
	}
	for _, r := range ab.results {
		r.prop.done(r.res)
		if apply != nil && r.res.err == nil {
			apply.Observe(float64(now-r.committedAt) / 1e9)
		}
	}
	ab.results = ab.results[:0]
	for _, ch := range ab.done {
		close(ch)
	}
	ab.done = ab.done[:0]
}

// run applies one task.
func (ab *applyBatch) run(t *applyTask) {
	p := t.p
	if t.fn != nil {
		ab.flush(false)
		t.fn()
		if t.done != nil {
			close(t.done)
		}
		return
	}
	if p.destroyed.Load() {
		if t.done != nil {
			ab.done = append(ab.done, t.done)
		}
		return
	}
	ab.committedAt = t.committedAt
	var maxTerm uint64
	for _, e := range t.entries {
		if e.GetIndex() <= p.ap.applied {
			continue // replayed after a restart: already in kvdb
		}
		if e.GetIndex() != p.ap.applied+1 {
			ab.s.fatal(p, "apply", fmt.Errorf("entry %d after applied %d", e.GetIndex(), p.ap.applied))
			if t.done != nil {
				close(t.done)
			}
			return
		}
		ab.applyEntry(t, e)
		p.ap.applied, p.ap.appliedT = e.GetIndex(), e.GetTerm()
		maxTerm = max(maxTerm, e.GetTerm())
		if p.destroyed.Load() {
			break
		}
	}
	if !p.destroyed.Load() {
		ab.putApplyState(p)
	}
	ab.touched[p] = struct{}{}
	if maxTerm > 0 {
		ab.after = append(ab.after, func() { p.failStale(maxTerm) })
	}
	if t.done != nil {
		ab.done = append(ab.done, t.done)
	}
}

func (ab *applyBatch) putApplyState(p *peer) {
	st := &raftserverpb.RaftApplyState{
		AppliedIndex: p.ap.applied, AppliedTerm: p.ap.appliedT,
		TruncatedState: &raftserverpb.RaftTruncatedState{Index: p.ap.truncated.Index, Term: p.ap.truncated.Term},
	}
	b, _ := proto.Marshal(st)
	_ = ab.wb.Set(applyStateKey(p.regionID), b, nil)
}

// applyEntry applies one committed entry of t's peer.
func (ab *applyBatch) applyEntry(t *applyTask, e *raftpb.Entry) {
	p := t.p
	switch e.GetType() {
	case raftpb.EntryNormal:
		if len(e.GetData()) == 0 {
			return // a new leader's empty entry
		}
		id, cmd, err := decodeCmd(e.GetData())
		if err != nil {
			ab.s.fatal(p, "decode entry", err)
			return
		}
		var res applyResult
		if cmd.GetAdmin() != nil {
			res = ab.applyAdmin(p, e, cmd)
		} else {
			res = ab.applyWrite(p, cmd)
		}
		ab.finish(p, id, e.GetTerm(), res)
	case raftpb.EntryConfChangeV2:
		cc := &raftpb.ConfChangeV2{}
		if err := proto.Unmarshal(e.GetData(), cc); err != nil {
			ab.s.fatal(p, "decode conf change", err)
			return
		}
		id, cmd, err := decodeCmd(cc.GetContext())
		if err != nil {
			ab.s.fatal(p, "decode conf change context", err)
			return
		}
		res := ab.applyConfChange(t, e, cc, cmd)
		ab.finish(p, id, e.GetTerm(), res)
	}
}

// finish queues the answer for the proposal id, if this peer made it in
// the entry's term.
func (ab *applyBatch) finish(p *peer, id, term uint64, res applyResult) {
	// Only the proposal made in the entry's term is answered by it; one of
	// another term with the same id is left to failStale.
	prop := p.takeProposalInTerm(id, term)
	if prop == nil {
		return
	}
	if res.err == nil {
		sentAt := prop.proposedAt
		ab.after = append(ab.after, func() { p.renewLease(term, sentAt) })
		if o := ab.s.cfg.Latency.CommitLog; o != nil {
			o.Observe(float64(ab.committedAt-sentAt) / 1e9)
		}
	}
	ab.results = append(ab.results, pendingResult{prop, res, ab.committedAt})
}

// applyWrite applies a write batch if the command's epoch is current.
func (ab *applyBatch) applyWrite(p *peer, cmd *raftserverpb.RaftCmdRequest) applyResult {
	region := p.ap.region
	if cmd.GetHeader().GetRegionEpoch().GetVersion() != region.GetRegionEpoch().GetVersion() {
		return applyResult{err: errEpochNotMatch("region changed before the write applied", region)}
	}
	var n, keys uint64
	defer func() {
		// Counted once the batch is in kvdb (flush): a split check that
		// resets the count and then measures must find every write in
		// one or the other.
		p.ap.sizeAdded += n
		p.ap.keysAdded += keys
	}()
	for _, op := range cmd.GetOps() {
		n += uint64(len(op.GetKey()) + len(op.GetValue()))
		if k := op.GetKey(); len(k) > 0 && k[0] == 'w' && engine.OpKind(op.GetKind()) == engine.OpPut {
			keys++ // a write record: at most one new user key
		}
		var err error
		switch engine.OpKind(op.GetKind()) {
		case engine.OpPut:
			err = ab.wb.Set(op.GetKey(), op.GetValue(), nil)
			ab.ops.Put(op.GetKey(), op.GetValue())
		case engine.OpDelete:
			err = ab.wb.Delete(op.GetKey(), nil)
			ab.ops.Delete(op.GetKey())
		default:
			err = fmt.Errorf("unknown op kind %d", op.GetKind())
		}
		if err != nil {
			ab.s.fatal(p, "apply op", err)
			return applyResult{err: err}
		}
	}
	return applyResult{}
}

// putRegionState writes a region's local state into the batch.
func (ab *applyBatch) putRegionState(r *kvrpcpb.Region, state raftserverpb.PeerState) {
	b, _ := proto.Marshal(&raftserverpb.RegionLocalState{State: state, Region: r})
	_ = ab.wb.Set(regionStateKey(r.GetId()), b, nil)
}

// applyConfChange applies a conf change if its conf_ver is current:
// the region's peers change and conf_ver grows by the number of changes.
func (ab *applyBatch) applyConfChange(t *applyTask, e *raftpb.Entry, cc *raftpb.ConfChangeV2, cmd *raftserverpb.RaftCmdRequest) applyResult {
	p := t.p
	region := p.ap.region
	if cmd.GetHeader().GetRegionEpoch().GetConfVer() != region.GetRegionEpoch().GetConfVer() {
		return applyResult{err: errEpochNotMatch("conf_ver changed before the conf change applied", region)}
	}
	target := cmd.GetAdmin().GetChangePeer()
	nr := proto.Clone(region).(*kvrpcpb.Region)
	removedSelf := false
	for _, ch := range cc.GetChanges() {
		id := ch.GetNodeId()
		switch ch.GetType() {
		case raftpb.ConfChangeType_ConfChangeAddNode, raftpb.ConfChangeType_ConfChangeAddLearnerNode:
			role := kvrpcpb.PeerRole_Voter
			if ch.GetType() == raftpb.ConfChangeType_ConfChangeAddLearnerNode {
				role = kvrpcpb.PeerRole_Learner
			}
			found := false
			for _, pr := range nr.Peers {
				if pr.GetId() == id {
					pr.Role, found = role, true
				}
			}
			if !found {
				nr.Peers = append(nr.Peers, &kvrpcpb.Peer{Id: id, StoreId: target.GetStoreId(), Role: role})
			}
		case raftpb.ConfChangeType_ConfChangeRemoveNode:
			kept := nr.Peers[:0]
			for _, pr := range nr.Peers {
				if pr.GetId() != id {
					kept = append(kept, pr)
				}
			}
			nr.Peers = kept
			if id == p.peerID {
				removedSelf = true
			}
		}
	}
	nr.RegionEpoch.ConfVer += uint64(len(cc.GetChanges()))
	state := raftserverpb.PeerState_Normal
	if removedSelf {
		state = raftserverpb.PeerState_Tombstone
	}
	ab.putRegionState(nr, state)
	p.ap.region = nr
	t.confChanges = append(t.confChanges, cc)
	ab.after = append(ab.after, func() {
		p.setRegion(nr)
		ab.s.onRegionChanged(p)
		if removedSelf {
			ab.s.destroyPeer(p, nr)
			return
		}
		p.reportSoon() // PD's next operator step waits on this report
	})
	return applyResult{regions: []*kvrpcpb.Region{nr}}
}

// applyAdmin applies a split or a log compaction.
func (ab *applyBatch) applyAdmin(p *peer, e *raftpb.Entry, cmd *raftserverpb.RaftCmdRequest) applyResult {
	admin := cmd.GetAdmin()
	switch admin.GetCmdType() {
	case raftserverpb.AdminCmdType_CompactLog:
		cl := admin.GetCompactLog()
		if cl.GetCompactIndex() > p.ap.truncated.Index && cl.GetCompactIndex() <= p.ap.applied {
			p.ap.truncated = truncState{cl.GetCompactIndex(), cl.GetCompactTerm()}
			// kvdb must hold everything up to the compact index durably
			// before raftdb forgets those entries.
			ab.putApplyState(p)
			ab.flush(true)
			idx, term := cl.GetCompactIndex(), cl.GetCompactTerm()
			p.post(msgCompacted{idx, term})
		}
		return applyResult{}
	case raftserverpb.AdminCmdType_BatchSplit:
		return ab.applySplit(p, cmd)
	}
	return applyResult{err: fmt.Errorf("raftstore: unknown admin command %v", admin.GetCmdType())}
}

// applySplit divides the region at the split keys: the new regions take
// the left pieces, the parent keeps the rightmost (right_derive), and all
// get version + number of new regions.
func (ab *applyBatch) applySplit(p *peer, cmd *raftserverpb.RaftCmdRequest) applyResult {
	region := p.ap.region
	ep := cmd.GetHeader().GetRegionEpoch()
	if ep.GetVersion() != region.GetRegionEpoch().GetVersion() || ep.GetConfVer() != region.GetRegionEpoch().GetConfVer() {
		ab.after = append(ab.after, func() { p.post(msgSplitDone{}) })
		return applyResult{err: errEpochNotMatch("region changed before the split applied", region)}
	}
	reqs := cmd.GetAdmin().GetSplits().GetRequests()
	prev := region.GetStartKey()
	for _, r := range reqs {
		k := r.GetSplitKey()
		if len(k) == 0 || bytes.Compare(k, prev) <= 0 || (len(region.GetEndKey()) > 0 && bytes.Compare(k, region.GetEndKey()) >= 0) ||
			len(r.GetNewPeerIds()) != len(region.GetPeers()) {
			ab.after = append(ab.after, func() { p.post(msgSplitDone{}) })
			return applyResult{err: fmt.Errorf("raftstore: invalid split key %q for region %d", k, region.GetId())}
		}
		prev = k
	}
	version := region.GetRegionEpoch().GetVersion() + uint64(len(reqs))
	var created []*kvrpcpb.Region
	start := region.GetStartKey()
	for _, r := range reqs {
		nr := &kvrpcpb.Region{
			Id: r.GetNewRegionId(), StartKey: bytes.Clone(start), EndKey: bytes.Clone(r.GetSplitKey()),
			RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: region.GetRegionEpoch().GetConfVer(), Version: version},
		}
		for i, pr := range region.GetPeers() {
			nr.Peers = append(nr.Peers, &kvrpcpb.Peer{Id: r.GetNewPeerIds()[i], StoreId: pr.GetStoreId(), Role: pr.GetRole()})
		}
		created = append(created, nr)
		start = r.GetSplitKey()
	}
	parent := proto.Clone(region).(*kvrpcpb.Region)
	parent.StartKey = bytes.Clone(start)
	parent.RegionEpoch.Version = version
	for _, nr := range created {
		if ab.s.splitTargetTaken(nr, p.s.cfg.StoreID) {
			continue // this store already holds a newer peer of it
		}
		ab.putRegionState(nr, raftserverpb.PeerState_Normal)
		st := &raftserverpb.RaftApplyState{
			AppliedIndex: raftInitLogIndex, AppliedTerm: raftInitLogTerm,
			TruncatedState: &raftserverpb.RaftTruncatedState{Index: raftInitLogIndex, Term: raftInitLogTerm},
		}
		b, _ := proto.Marshal(st)
		_ = ab.wb.Set(applyStateKey(nr.GetId()), b, nil)
	}
	ab.putRegionState(parent, raftserverpb.PeerState_Normal)
	p.ap.region = parent
	ab.putApplyState(p)
	// Synced: the children's raft states are written (synced) next, and a
	// replay of an unsynced split after a crash must not meet them.
	ab.flush(true)
	wasLeader := p.isLeader.Load()
	// Children first: until the parent shrinks it still covers their
	// ranges, so no message can create an empty peer for them meanwhile.
	for _, nr := range created {
		ab.s.createSplitPeer(nr, wasLeader)
	}
	p.setRegion(parent)
	ab.s.onRegionChanged(p)
	p.post(msgSplitDone{})
	p.reportSoon()
	all := append(created, parent)
	if wasLeader {
		ab.s.reportSplit(all)
	}
	return applyResult{regions: all}
}

// checkProposeEpoch checks a command's epoch against the region before
// proposing it (TiKV's check_region_epoch): writes check version, conf
// changes conf_ver, splits both.
func checkProposeEpoch(cmd *raftserverpb.RaftCmdRequest, region *kvrpcpb.Region) error {
	got, cur := cmd.GetHeader().GetRegionEpoch(), region.GetRegionEpoch()
	checkVer, checkConf := true, false
	switch cmd.GetAdmin().GetCmdType() {
	case raftserverpb.AdminCmdType_ChangePeer:
		checkVer, checkConf = false, true
	case raftserverpb.AdminCmdType_BatchSplit:
		checkConf = true
	case raftserverpb.AdminCmdType_CompactLog:
		checkVer = false
	}
	if checkVer && got.GetVersion() != cur.GetVersion() || checkConf && got.GetConfVer() != cur.GetConfVer() {
		return errEpochNotMatch(fmt.Sprintf("request epoch %v, region %d is at %v", got, region.GetId(), cur), region)
	}
	return nil
}
