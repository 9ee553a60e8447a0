package raftstore

import (
	"encoding/binary"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// Mailbox items besides raft messages, proposals and reads.
type (
	msgTransferLeader struct{ to uint64 }
	msgSnapStatus     struct {
		to     uint64
		failed bool
	}
	msgUnreachable struct{ to uint64 }
	msgCampaign    struct{}
	msgCompacted   struct{ index, term uint64 }
	msgSnapGen     struct{ snap *genSnapshot }
	msgSnapGenFail struct{}
	msgConfApplied struct{}
	msgSplitDone   struct{}
	msgCall        struct{ fn func() } // runs fn on the loop
)

// readyWork is one peer's Ready in flight through a round.
type readyWork struct {
	rd raft.Ready
	// applied: the committed entries went to the apply worker before the
	// round's raft write (applyEarly).
	applied bool
}

// handle acts on one mailbox item. Loop goroutine.
func (p *peer) handle(it any) {
	switch m := it.(type) {
	case *raftserverpb.RaftMessage:
		if from := m.GetFromPeer(); from != nil {
			if p.peerCache == nil {
				p.peerCache = map[uint64]*kvrpcpb.Peer{}
			}
			p.peerCache[from.GetId()] = from
		}
		if t := m.GetMessage().GetType(); (t == raftpb.MsgVote || t == raftpb.MsgPreVote) && p.s.now() < p.voteBlockUntil {
			return
		}
		if err := p.rn.Step(m.GetMessage()); err != nil {
			p.s.log.Debug("raft step", "region", p.regionID, "err", err)
		}
	case *proposal:
		p.propose(m)
	case *readReq:
		p.readQueue = append(p.readQueue, m)
	case msgTransferLeader:
		// The transferee may win before our lease would end: no lease
		// reads, and no renewal, for an election timeout.
		p.leaseSuspect.Store(p.s.now() + int64(p.s.cfg.ElectionTicks)*int64(p.s.cfg.TickInterval))
		p.leaseTerm.Store(0)
		p.rn.TransferLeader(m.to)
	case msgSnapStatus:
		st := raft.SnapshotFinish
		if m.failed {
			st = raft.SnapshotFailure
		}
		p.rn.ReportSnapshot(m.to, st)
	case msgUnreachable:
		p.rn.ReportUnreachable(m.to)
	case msgCampaign:
		_ = p.rn.Campaign()
	case msgCompacted:
		p.onCompacted(m.index, m.term)
	case msgSnapGen:
		p.genSnap, p.generating = m.snap, false
	case msgSnapGenFail:
		p.generating = false
	case msgConfApplied:
		p.pendingConf = false
	case msgSplitDone:
		p.pendingSplit = false
		p.splitting.Store(false)
	case msgCall:
		m.fn()
	}
	if len(p.readQueue) > 0 {
		p.issueReadIndex()
	}
}

// issueReadIndex starts one ReadIndex round for every queued read.
func (p *peer) issueReadIndex() {
	reqs := p.readQueue
	p.readQueue = nil
	if !p.isLeader.Load() {
		err := errNotLeader(p.regionID, p.leaderPeer())
		for _, r := range reqs {
			r.done(0, err)
		}
		return
	}
	p.nextReadID++
	id := p.nextReadID
	if p.readRounds == nil {
		p.readRounds = map[uint64]*readRound{}
	}
	p.readRounds[id] = &readRound{reqs: reqs, sentAt: p.s.now(), term: p.term.Load()}
	p.rn.ReadIndex(binary.BigEndian.AppendUint64(nil, id))
}

// failReads answers err to every read not yet confirmed.
func (p *peer) failReads(err error) {
	for id, rr := range p.readRounds {
		for _, r := range rr.reqs {
			r.done(0, err)
		}
		delete(p.readRounds, id)
	}
	for _, r := range p.readQueue {
		r.done(0, err)
	}
	p.readQueue = nil
}

// propose appends prop to the raft log if this peer leads and the
// command's epoch is current. Loop goroutine.
func (p *peer) propose(prop *proposal) {
	if !p.isLeader.Load() {
		prop.done(applyResult{err: errNotLeader(p.regionID, p.leaderPeer())})
		return
	}
	region := p.Region()
	if err := checkProposeEpoch(prop.cmd, region); err != nil {
		prop.done(applyResult{err: err})
		return
	}
	admin := prop.cmd.GetAdmin()
	if t := admin.GetCmdType(); (t == raftserverpb.AdminCmdType_ChangePeer || t == raftserverpb.AdminCmdType_BatchSplit) &&
		(p.pendingConf || p.pendingSplit) {
		prop.done(applyResult{err: errServerIsBusy("an epoch-changing command is in flight")})
		return
	}
	if prop.cc != nil && p.appliedTerm.Load() != p.term.Load() {
		// A new leader's raft turns a conf change into an empty entry until
		// the earlier ones applied; wait until it applied its own entry.
		prop.done(applyResult{err: errServerIsBusy("the new leader has not applied its first entry")})
		return
	}
	prop.term = p.term.Load()
	prop.proposedAt = p.s.now()
	data, err := encodeCmd(prop.id, prop.cmd)
	if err != nil {
		prop.done(applyResult{err: err})
		return
	}
	p.addProposal(prop)
	if prop.cc != nil {
		prop.cc.Context = data
		err = p.rn.ProposeConfChange(prop.cc)
	} else {
		err = p.rn.Propose(data)
	}
	if err != nil {
		p.takeProposal(prop.id)
		prop.done(applyResult{err: errNotLeader(p.regionID, p.leaderPeer())})
		return
	}
	switch admin.GetCmdType() {
	case raftserverpb.AdminCmdType_ChangePeer:
		p.pendingConf = true
	case raftserverpb.AdminCmdType_BatchSplit:
		p.pendingSplit = true
		p.splitting.Store(true) // no lease reads until it applied
	}
}

// onTick advances raft's clock and runs the leader's periodic work.
func (p *peer) onTick() {
	p.rn.Tick()
	if p.isLeader.Load() {
		p.leaderTick()
	}
}

// collectReady takes the peer's Ready and records what must be
// persisted into wb; it returns whether the write must be synced.
func (p *peer) collectReady(wb *pebble.Batch) (readyWork, bool, error) {
	rd := p.rn.Ready()
	mustSync := rd.MustSync
	if hs := rd.HardState; !raft.IsEmptyHardState(hs) {
		if hs.GetTerm() != p.ps.hardState.GetTerm() || hs.GetVote() != p.ps.hardState.GetVote() {
			mustSync = true // a term or vote change is always synced
		} else if p.canSkipSync(rd.Entries) {
			mustSync = false
		}
		p.ps.hardState = proto.Clone(hs).(*raftpb.HardState)
		p.term.Store(hs.GetTerm())
	} else if p.canSkipSync(rd.Entries) {
		mustSync = false
	}
	if rd.SoftState != nil {
		p.onSoftState(rd.SoftState)
	}
	dirty := !raft.IsEmptyHardState(rd.HardState) || len(rd.Entries) > 0
	if !raft.IsEmptySnap(rd.Snapshot) {
		if err := p.applySnapshot(rd.Snapshot); err != nil {
			return readyWork{}, false, err
		}
		if err := p.ps.applySnapshotMeta(wb, rd.Snapshot.GetMetadata()); err != nil {
			return readyWork{}, false, err
		}
		dirty = true
	}
	if err := p.ps.append(wb, rd.Entries); err != nil {
		return readyWork{}, false, err
	}
	// A leader's appends, heartbeats and snapshots may leave before its own
	// log write is durable (raft thesis §10.2.1): followers persist in
	// parallel with it. Acks and votes wait for the write (afterPersist).
	rd.Messages = p.sendEarly(rd.Messages)
	if dirty {
		if err := p.ps.saveRaftState(wb); err != nil {
			return readyWork{}, false, err
		}
	}
	if !raft.IsEmptySnap(rd.Snapshot) {
		mustSync = true
	}
	return readyWork{rd: rd}, mustSync, nil
}

// onSoftState reacts to a leadership change.
func (p *peer) onSoftState(ss *raft.SoftState) {
	p.leaderID.Store(ss.Lead)
	leader := ss.RaftState == raft.StateLeader
	p.isLeader.Store(leader)
	if leader && !p.wasLeader {
		p.s.onBecomeLeader(p)
		p.lastPDBeat = p.s.clock() // first report on the next tick
		p.lastPDBeat = p.lastPDBeat.Add(-p.s.cfg.PDHeartbeatInterval)
	}
	if !leader && p.wasLeader {
		p.pendingConf, p.pendingSplit = false, false
		p.splitting.Store(false)
		p.failReads(errNotLeader(p.regionID, p.leaderPeer()))
		// Proposals of the lost term may still commit under the next
		// leader, or be overwritten: their callers cannot know which.
		p.failAll(errUndetermined("the leader stepped down before the write applied"))
	}
	p.wasLeader = leader
}

// sendEarly sends the messages that need not wait for this round's raft
// write and returns the others.
func (p *peer) sendEarly(msgs []*raftpb.Message) []*raftpb.Message {
	if len(msgs) == 0 {
		return msgs
	}
	var early []*raftpb.Message
	rest := msgs[:0:0]
	for _, m := range msgs {
		switch m.GetType() {
		case raftpb.MsgApp, raftpb.MsgHeartbeat, raftpb.MsgSnap:
			early = append(early, m)
		default:
			rest = append(rest, m)
		}
	}
	p.s.sendRaftMessages(p, early)
	return rest
}

// afterPersist sends the Ready's messages, confirms reads and hands the
// committed entries to the apply worker. Loop goroutine, after the raft
// state of the round is durable.
func (p *peer) afterPersist(w *readyWork) {
	rd := &w.rd
	p.s.sendRaftMessages(p, rd.Messages)
	for _, rs := range rd.ReadStates {
		if len(rs.RequestCtx) != 8 {
			continue
		}
		id := binary.BigEndian.Uint64(rs.RequestCtx)
		rr := p.readRounds[id]
		if rr == nil {
			continue
		}
		delete(p.readRounds, id)
		p.renewLease(rr.term, rr.sentAt)
		for _, r := range rr.reqs {
			r.done(rs.Index, nil)
		}
	}
	if len(rd.CommittedEntries) == 0 || w.applied {
		return
	}
	hasConf := hasConfChange(rd.CommittedEntries)
	task := &applyTask{p: p, entries: rd.CommittedEntries}
	if hasConf {
		task.done = make(chan struct{})
	}
	p.applier.submit(task)
	if hasConf {
		select {
		case <-task.done:
		case <-p.s.stopped:
			return
		}
		for _, cc := range task.confChanges {
			p.rn.ApplyConfChange(cc)
		}
		p.pendingConf = false
	}
}

// applyEarly hands the Ready's committed entries to the apply worker
// before the round's synced raft write when that write cannot matter to
// them: every one was appended by an earlier round, whose write is done
// (and synced, except where canSkipSync or sync-log = false allow the
// loss anyway), the Ready carries no snapshot, and none is a conf change
// (afterPersist applies those synchronously). Otherwise a leader whose
// followers acknowledged during its previous write would make the
// acknowledged entries wait for this round's fsync too. Loop goroutine.
func (p *peer) applyEarly(w *readyWork) {
	rd := &w.rd
	n := len(rd.CommittedEntries)
	if n == 0 || !raft.IsEmptySnap(rd.Snapshot) || hasConfChange(rd.CommittedEntries) {
		return
	}
	if len(rd.Entries) > 0 && rd.CommittedEntries[n-1].GetIndex() >= rd.Entries[0].GetIndex() {
		return
	}
	p.applier.submit(&applyTask{p: p, entries: rd.CommittedEntries})
	w.applied = true
}

// hasConfChange reports whether ents hold a conf change.
func hasConfChange(ents []*raftpb.Entry) bool {
	for _, e := range ents {
		if e.GetType() == raftpb.EntryConfChangeV2 || e.GetType() == raftpb.EntryConfChange {
			return true
		}
	}
	return false
}

// advance tells raft the Ready is handled.
func (p *peer) advance(w *readyWork) { p.rn.Advance(w.rd) }
