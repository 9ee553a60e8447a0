package raftstore

import (
	"context"
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// peer is this store's replica of one region: a raft RawNode driven by
// one raft loop, and the region as last applied.
//
// Goroutines: the owning raftLoop alone touches rn, ps and the fields
// marked "loop"; the apply worker owns ap; everything else is atomic or
// under its own mutex. Lock order: propMu, then readMu (never both from
// the loop while calling into raft).
type peer struct {
	s        *Store
	regionID uint64
	peerID   uint64
	loop     *raftLoop
	applier  *applyWorker

	mbox mailbox

	// loop
	rn           *raft.RawNode
	ps           *peerStorage
	readQueue    []*readReq // waiting for the next ReadIndex round
	readRounds   map[uint64]*readRound
	nextReadID   uint64
	pendingConf  bool // a conf change is proposed and not yet applied
	pendingSplit bool // a split is proposed and not yet applied
	lastGC       time.Time
	lastSplitChk time.Time
	lastPDBeat   time.Time
	lastPending  int // pending peers in the last report to PD
	wasLeader    bool
	// downTicks counts ticks since the peer stopped leading with
	// proposals possibly pending; -1 when not counting.
	downTicks      int
	voteBlockUntil int64                    // store-clock ns; see createPeer
	peerCache      map[uint64]*kvrpcpb.Peer // senders of messages, for replies before the region is known
	genSnap        *genSnapshot             // the last snapshot generated for followers
	generating     bool

	region      atomic.Pointer[regionView] // as applied
	initialized atomic.Bool                // has a key range (not created from a message)
	isLeader    atomic.Bool
	leaderID    atomic.Uint64
	term        atomic.Uint64
	appliedIdx  atomic.Uint64
	appliedTerm atomic.Uint64
	leaseUntil  atomic.Int64  // store-clock ns; valid only for leaseTerm
	leaseTerm   atomic.Uint64 // term the lease was granted in
	maxTSTerm   atomic.Uint64 // term in which max_ts was synced from the TSO
	// leaseSuspect (store-clock ns): no lease reads or renewals before it
	// (a leader transfer is under way). splitting: a split is proposed and
	// not applied here; the children may take writes elsewhere first.
	leaseSuspect atomic.Int64
	splitting    atomic.Bool
	destroyed    atomic.Bool
	approxSize   atomic.Uint64
	approxKeys   atomic.Uint64
	// splitChecking is set while a split check of the region runs.
	// approxSize and approxKeys are the last measurement; sizeDiff and
	// keysDiff count the bytes and write records applied since, each
	// once its apply batch is in kvdb (an over-estimate: overwrites and
	// deletes count as growth, and a write the measurement saw may count
	// too). A region is measured (scanned) once, then again only when the
	// estimate reaches RegionMaxSize or RegionMaxKeys.
	splitChecking atomic.Bool
	measured      atomic.Bool
	sizeDiff      atomic.Uint64
	keysDiff      atomic.Uint64

	ap *applyState // apply worker

	propMu    sync.Mutex
	proposals map[uint64]*proposal

	applyMu      sync.Mutex
	applyWaiters []applyWaiter
}

// applyState is what the apply worker keeps of a peer.
type applyState struct {
	region    *kvrpcpb.Region
	applied   uint64
	appliedT  uint64
	truncated truncState
	// sizeAdded and keysAdded are what the writes in the apply batch add
	// to sizeDiff and keysDiff once the batch is committed.
	sizeAdded, keysAdded uint64
}

// proposal is a command waiting for its entry to apply.
type proposal struct {
	id   uint64
	cmd  *raftserverpb.RaftCmdRequest
	cc   *raftpb.ConfChangeV2 // set for a conf change
	term uint64
	// wantTerm, when not 0, is the term the request was routed in: the
	// proposal is refused if the peer's term moved on since (what a
	// command decided under that leadership, e.g. on an in-memory
	// pessimistic lock, must not land in a later term).
	wantTerm   uint64
	proposedAt int64 // store-clock ns
	// noSync: losing this write in a crash is acceptable (a pessimistic
	// lock: a lost one aborts its txn at prewrite); see peer.canSkipSync.
	noSync bool
	done   func(res applyResult)
}

// applyResult is the outcome of one applied command.
type applyResult struct {
	err     error
	regions []*kvrpcpb.Region // a split's regions
}

type applyWaiter struct {
	index, term uint64
	ch          chan struct{}
}

// readReq is a read waiting to be confirmed by a ReadIndex round. done
// gets the read index and the term of the leadership that confirmed it.
type readReq struct {
	done func(index, term uint64, err error)
}

// readRound is one ReadIndex issued for a batch of reads.
type readRound struct {
	reqs   []*readReq
	sentAt int64
	term   uint64
}

// regionView is a region with the engine key ranges its keys occupy,
// computed once per region change instead of on every request.
type regionView struct {
	region *kvrpcpb.Region
	ranges [][2][]byte // mvcc.EngineRanges of the region
}

// Region returns the peer's region as last applied.
func (p *peer) Region() *kvrpcpb.Region { return p.region.Load().region }

// setRegion publishes r as the peer's region.
func (p *peer) setRegion(r *kvrpcpb.Region) {
	p.region.Store(&regionView{region: r, ranges: mvcc.EngineRanges(r.GetStartKey(), r.GetEndKey())})
}

// post hands x to the peer's loop.
func (p *peer) post(x any) {
	p.mbox.push(x)
	p.loop.wake(p)
}

// leaderPeer returns the peer the region's leader runs as, if known.
func (p *peer) leaderPeer() *kvrpcpb.Peer {
	if id := p.leaderID.Load(); id != 0 {
		return findPeer(p.Region(), id)
	}
	return nil
}

// leaseValid reports whether the leader may read locally now.
func (p *peer) leaseValid() bool {
	if !p.isLeader.Load() {
		return false
	}
	t, now := p.term.Load(), p.s.now()
	return p.leaseTerm.Load() == t && p.appliedTerm.Load() == t && now < p.leaseUntil.Load() &&
		now >= p.leaseSuspect.Load() && !p.splitting.Load()
}

// suspendLease allows no lease reads or renewals for an election timeout
// from now (a leader transfer is under way).
func (p *peer) suspendLease() {
	p.leaseSuspect.Store(p.s.now() + int64(p.s.cfg.electionTimeout()))
}

// renewLease extends the lease to sentAt + maxLease if term is current.
func (p *peer) renewLease(term uint64, sentAt int64) {
	if term != p.term.Load() || !p.isLeader.Load() || p.s.now() < p.leaseSuspect.Load() {
		return
	}
	until := sentAt + int64(p.s.cfg.maxLease())
	if p.leaseTerm.Load() != term {
		p.leaseTerm.Store(term)
		p.leaseUntil.Store(until)
		return
	}
	for {
		cur := p.leaseUntil.Load()
		if until <= cur || p.leaseUntil.CompareAndSwap(cur, until) {
			return
		}
	}
}

// waitApplied blocks until the peer applied index and an entry of term
// (or a later one), or it is removed, or ctx ends.
func (p *peer) waitApplied(ctx context.Context, index, term uint64) error {
	if p.appliedTo(index, term) {
		return nil
	}
	ch := make(chan struct{})
	p.applyMu.Lock()
	if p.appliedTo(index, term) {
		p.applyMu.Unlock()
		return nil
	}
	p.applyWaiters = append(p.applyWaiters, applyWaiter{index, term, ch})
	p.applyMu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-p.s.stopped:
		return ErrStopped
	}
}

// releaseApplyWaiters wakes every waitApplied of a peer that will apply
// nothing more.
func (p *peer) releaseApplyWaiters() {
	p.applyMu.Lock()
	for _, w := range p.applyWaiters {
		close(w.ch)
	}
	p.applyWaiters = nil
	p.applyMu.Unlock()
}

// appliedTo reports whether the peer applied index and an entry of term
// or a later one.
func (p *peer) appliedTo(index, term uint64) bool {
	return p.appliedIdx.Load() >= index && p.appliedTerm.Load() >= term
}

// setApplied publishes the applied position and wakes waiters.
func (p *peer) setApplied(index, term uint64) {
	p.applyMu.Lock()
	p.appliedIdx.Store(index)
	p.appliedTerm.Store(term)
	kept := p.applyWaiters[:0]
	for _, w := range p.applyWaiters {
		if w.index <= index && w.term <= term {
			close(w.ch)
		} else {
			kept = append(kept, w)
		}
	}
	clear(p.applyWaiters[len(kept):])
	p.applyWaiters = kept
	p.applyMu.Unlock()
}

// addProposal registers prop for its apply.
func (p *peer) addProposal(prop *proposal) {
	p.propMu.Lock()
	p.proposals[prop.id] = prop
	p.propMu.Unlock()
}

// takeProposal removes and returns the proposal with id, if pending.
func (p *peer) takeProposal(id uint64) *proposal {
	p.propMu.Lock()
	prop := p.proposals[id]
	delete(p.proposals, id)
	p.propMu.Unlock()
	return prop
}

// canSkipSync reports whether the raft-log write of ents may skip the
// fsync: only in a region whose one voter is this peer (the embedded
// server), and only when every entry is a proposal marked noSync. A lost
// unsynced tail is then as if never proposed (a later synced write makes
// everything before it durable, so the log has no holes; kvdb ahead of
// the log restarts the log at its apply state). Groups with followers
// always sync: an acknowledged entry must survive on a quorum.
func (p *peer) canSkipSync(ents []*raftpb.Entry) bool {
	if len(ents) == 0 {
		return false
	}
	r := p.Region()
	if len(r.GetPeers()) != 1 || r.GetPeers()[0].GetId() != p.peerID {
		return false
	}
	p.propMu.Lock()
	defer p.propMu.Unlock()
	for _, e := range ents {
		if e.GetType() != raftpb.EntryNormal || len(e.GetData()) < 8 {
			return false
		}
		prop := p.proposals[binary.BigEndian.Uint64(e.GetData())]
		if prop == nil || !prop.noSync {
			return false
		}
	}
	return true
}

// takeProposalInTerm removes and returns the proposal with id if it was
// made in term.
func (p *peer) takeProposalInTerm(id, term uint64) *proposal {
	p.propMu.Lock()
	defer p.propMu.Unlock()
	prop := p.proposals[id]
	if prop == nil || prop.term != term {
		return nil
	}
	delete(p.proposals, id)
	return prop
}

// failStale answers StaleCommand to every proposal made in a term below
// term: an entry of term has applied, so every entry of an older term
// that will ever commit has applied before it.
func (p *peer) failStale(term uint64) {
	var stale []*proposal
	p.propMu.Lock()
	for id, prop := range p.proposals {
		if prop.term < term {
			stale = append(stale, prop)
			delete(p.proposals, id)
		}
	}
	p.propMu.Unlock()
	for _, prop := range stale {
		prop.done(applyResult{err: errStaleCommand()})
	}
}

// failMailbox answers err to the proposals and reads still queued for
// the loop of a peer that stopped.
func (p *peer) failMailbox(err error) {
	for _, it := range p.mbox.drain(nil) {
		switch m := it.(type) {
		case *proposal:
			m.done(applyResult{err: err})
		case *readReq:
			m.done(0, 0, err)
		}
	}
}

// failAll answers err to every pending proposal (the peer is gone).
func (p *peer) failAll(err error) {
	p.propMu.Lock()
	props := p.proposals
	p.proposals = map[uint64]*proposal{}
	p.propMu.Unlock()
	for _, prop := range props {
		prop.done(applyResult{err: err})
	}
}

// encodeCmd is a normal entry's data: the proposal id, then the command.
func encodeCmd(id uint64, cmd *raftserverpb.RaftCmdRequest) ([]byte, error) {
	b := binary.BigEndian.AppendUint64(make([]byte, 0, 8+proto.Size(cmd)), id)
	return proto.MarshalOptions{}.MarshalAppend(b, cmd)
}

// decodeCmd splits an entry's data into proposal id and command.
func decodeCmd(data []byte) (uint64, *raftserverpb.RaftCmdRequest, error) {
	if len(data) < 8 {
		return 0, nil, errCorruptEntry
	}
	cmd := &raftserverpb.RaftCmdRequest{}
	if err := proto.Unmarshal(data[8:], cmd); err != nil {
		return 0, nil, err
	}
	return binary.BigEndian.Uint64(data), cmd, nil
}
