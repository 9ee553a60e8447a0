package raftstore

import (
	"bytes"
	"encoding/binary"
	"time"

	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// Mailbox items besides raft messages, proposals and reads.
type (
	msgTransferLeader struct{ to uint64 }
	// msgHandOff runs a lock hand-off (see handOff), then done.
	msgHandOff struct {
		done  func(term uint64, err error)
		split bool // ahead of a split (else of a leader transfer)
		// Set by handOff: the hand-off of term was proposed; the wait
		// for the writes it left out ends at until (store clock). asked:
		// the LockHandoff was asked for the locks (HandoffLocks), which
		// froze the region's lock changes.
		started, asked bool
		term           uint64
		until          int64
	}
	msgSnapStatus struct {
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

// campaignTransfer is the context etcd raft puts on the votes of a
// campaign a leader's MsgTimeoutNow started.
var campaignTransfer = []byte("CampaignTransfer")

// isTransferCampaign reports whether m asks a vote for a leader transfer:
// the leader that asked gave up its lease first, so a restarted peer may
// grant it.
func isTransferCampaign(m *raftpb.Message) bool { return bytes.Equal(m.GetContext(), campaignTransfer) }

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
		if t := m.GetMessage().GetType(); (t == raftpb.MsgVote || t == raftpb.MsgPreVote) &&
			p.s.now() < p.voteBlockUntil && !isTransferCampaign(m.GetMessage()) {
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
		if m.to == 0 {
			m.to = p.readyTransferee()
		}
		if !p.startTransfer(m.to) {
			break
		}
		// The transfer starts once the in-memory locks are handed off,
		// as TiKV's waits for its lock migration: the transferee has them
		// before it may campaign, and the writes proposed meanwhile,
		// which raft would drop during the transfer, are appended after.
		p.handOff(msgHandOff{done: func(_ uint64, err error) {
			if err == nil && p.startTransfer(m.to) {
				p.rn.TransferLeader(m.to)
			}
		}})
	case msgHandOff:
		p.handOff(m)
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
	case msgPersisted:
		p.onPersisted(m.msgs)
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
			r.done(0, 0, err)
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
			r.done(0, 0, err)
		}
		delete(p.readRounds, id)
	}
	for _, r := range p.readQueue {
		r.done(0, 0, err)
	}
	p.readQueue = nil
}

// startTransfer reports whether leadership may go to peer to now and,
// if so, gives the lease up: the transferee may win before it would end.
func (p *peer) startTransfer(to uint64) bool {
	if why := p.transferRefusal(to); why != "" {
		p.s.log.Debug("raftstore: leader transfer refused", "region", p.regionID, "to", to, "why", why)
		return false
	}
	p.suspendLease()
	p.leaseTerm.Store(0)
	return true
}

// handOff writes the region's in-memory pessimistic locks through raft
// (proposeHandOff) ahead of a leader transfer or a split, and calls
// m.done on the loop once that write applied and the writes replacing
// the locks it left out (see txn's HandoffLocks) have answered
// (HandoffPending, asked every millisecond for at most HandoffWait): their
// entries come before the transfer or the split, not dropped with a lock
// the new leader lacks. done gets the term of the hand-off (0 when the
// LockHandoff was never asked: this peer did not lead), and an error if
// this peer no longer leads in that term, or if the hand-off write failed
// (then done may run off the loop). Loop goroutine.
func (p *peer) handOff(m msgHandOff) {
	if !m.started {
		m.started, m.term = true, p.term.Load()
		m.asked = p.s.handoff != nil && p.isLeader.Load()
		if m.asked && p.proposeHandOff(m.split, func(r applyResult) {
			if r.err != nil {
				// At once, from wherever the answer comes: a destroyed
				// peer's mailbox is not read any more.
				m.done(m.term, r.err)
				return
			}
			m.until = p.s.now() + int64(p.s.cfg.HandoffWait)
			p.post(m)
		}) {
			return // goes on once the hand-off applied
		}
		m.until = p.s.now() + int64(p.s.cfg.HandoffWait)
	}
	var err error
	switch {
	case !p.isLeader.Load() || p.term.Load() != m.term:
		err = errNotLeader(p.regionID, p.leaderPeer())
	case p.s.handoff != nil && p.s.handoff.HandoffPending(p.regionID, m.term) && p.s.now() < m.until:
		time.AfterFunc(time.Millisecond, func() { p.post(m) })
		return
	}
	term := m.term
	if !m.asked {
		term = 0
	}
	m.done(term, err)
}

// proposeHandOff proposes the region's in-memory pessimistic locks (the
// LockHandoff's) as one write ahead of a split (split) or a transfer, and
// reports whether there was one to propose; done receives its answer.
// The peer leads and has a LockHandoff. Loop goroutine.
func (p *peer) proposeHandOff(split bool, done func(applyResult)) bool {
	b := p.s.handoff.HandoffLocks(p.regionID, p.term.Load(), split)
	if b == nil || b.Empty() {
		return false
	}
	v := p.region.Load()
	var ops []engine.Op
	for _, op := range b.Ops() {
		if mvcc.InEngineRanges(op.Key, v.ranges) { // a split may have moved some keys away
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return false
	}
	cmd := writeCmd(p.regionID, findPeer(v.region, p.peerID), v.region.GetRegionEpoch(), ops)
	p.propose(&proposal{id: proposalIDs.Add(1), cmd: cmd, noSync: true, done: done})
	return true
}

// propose appends prop to the raft log if this peer leads and the
// command's epoch is current. Loop goroutine.
func (p *peer) propose(prop *proposal) {
	if !p.isLeader.Load() || (prop.wantTerm != 0 && prop.wantTerm != p.term.Load()) {
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
		if p.rn.BasicStatus().LeadTransferee != 0 {
			// Raft's transfer outlives the suspension msgTransferLeader
			// set when ticks run late: no lease while it lasts.
			p.suspendLease()
		}
		p.leaderTick()
	} else if p.downTicks >= 0 {
		p.downTicks++
		if p.downTicks > 2*p.s.cfg.ElectionTicks {
			p.downTicks = -1
			p.failAll(errUndetermined("the leader stepped down and the write's fate did not reach it"))
		}
	}
}

// handleReady takes the peer's Ready (raft runs with AsyncStorageWrites):
// the raft state to persist goes into job, messages that need no
// persistence leave now, committed entries go to the apply worker. Loop
// goroutine.
func (p *peer) handleReady(job *writeJob) error {
	rd := p.rn.Ready()
	if rd.SoftState != nil {
		p.onSoftState(rd.SoftState)
	}
	p.confirmReads(rd.ReadStates)
	var appendMsg, applyMsg *raftpb.Message
	out := rd.Messages[:0] // the Ready's slice is ours: filter it in place
	for _, m := range rd.Messages {
		switch m.GetTo() {
		case raft.LocalAppendThread:
			appendMsg = m
		case raft.LocalApplyThread:
			applyMsg = m
		default:
			// A leader's appends, heartbeats and snapshots may leave before
			// its own log write is durable (raft thesis §10.2.1): followers
			// persist in parallel with it. Acknowledgements and votes are
			// the append's responses; they wait for the write.
			out = append(out, m)
		}
	}
	if appendMsg != nil {
		if err := p.persist(job, &rd, appendMsg.GetResponses()); err != nil {
			return err
		}
	}
	p.s.sendRaftMessages(p, p.dropCommitOnly(p.mergeAppends(out)))
	if applyMsg != nil {
		p.applyCommitted(applyMsg)
	}
	return nil
}

// persist records the Ready's hard state, entries and snapshot in the
// round's job, with resps to deliver once they are written. A snapshot is
// installed in kvdb here, before raftdb records it.
func (p *peer) persist(job *writeJob, rd *raft.Ready, resps []*raftpb.Message) error {
	mustSync, dirty := false, false
	if hs := rd.HardState; !raft.IsEmptyHardState(hs) {
		if hs.GetTerm() != p.ps.hardState.GetTerm() || hs.GetVote() != p.ps.hardState.GetVote() {
			mustSync = true // a term or vote change is always synced
		}
		p.ps.hardState = proto.Clone(hs).(*raftpb.HardState)
		p.term.Store(hs.GetTerm())
		dirty = true
	}
	if !raft.IsEmptySnap(rd.Snapshot) {
		if err := p.applySnapshot(rd.Snapshot); err != nil {
			return err
		}
		if err := p.ps.applySnapshotMeta(job.batch(p.s.raftdb), rd.Snapshot.GetMetadata()); err != nil {
			return err
		}
		mustSync, dirty = true, true
	}
	if len(rd.Entries) > 0 {
		if err := p.ps.append(job.batch(p.s.raftdb), rd.Entries); err != nil {
			return err
		}
		mustSync = mustSync || !p.canSkipSync(rd.Entries)
		dirty = true
	}
	if dirty {
		if err := p.ps.saveRaftState(job.batch(p.s.raftdb)); err != nil {
			return err
		}
	}
	job.sync = job.sync || mustSync
	job.entries += len(rd.Entries)
	if len(resps) > 0 {
		job.acks = append(job.acks, p.persistAck(resps))
	}
	return nil
}

// persistAck splits an append's responses into the acknowledgements the
// writer sends to other stores and those that come back to this peer.
func (p *peer) persistAck(resps []*raftpb.Message) persistAck {
	a := persistAck{p: p}
	var remote []*raftpb.Message
	for _, m := range resps {
		if m.GetTo() == p.peerID || m.GetType() == raftpb.MsgSnap {
			a.local = append(a.local, m)
		} else {
			remote = append(remote, m)
		}
	}
	if len(remote) > 0 {
		a.remote = p.s.raftEnvelopes(p, remote)
	}
	return a
}

// onPersisted steps the responses of a written append that raft directed
// at this peer and sends any others. Loop goroutine.
func (p *peer) onPersisted(msgs []*raftpb.Message) {
	var out []*raftpb.Message
	for _, m := range msgs {
		if m.GetTo() != p.peerID {
			out = append(out, m)
			continue
		}
		if err := p.rn.Step(m); err != nil {
			p.s.log.Debug("raft step", "region", p.regionID, "err", err)
		}
	}
	p.s.sendRaftMessages(p, out)
}

// onSoftState reacts to a leadership change.
func (p *peer) onSoftState(ss *raft.SoftState) {
	p.leaderID.Store(ss.Lead)
	leader := ss.RaftState == raft.StateLeader
	p.isLeader.Store(leader)
	if leader != p.wasLeader {
		// Rare, and what explains a lost in-memory pessimistic lock or a
		// client's retries: TiKV logs it too.
		p.s.log.Info("raftstore: leadership changed", "region", p.regionID, "leader", leader,
			"term", p.rn.BasicStatus().GetTerm(), "leader-peer", ss.Lead)
	}
	if leader && !p.wasLeader {
		p.downTicks = -1
		p.s.onBecomeLeader(p)
		p.lastPDBeat = p.s.clock() // first report on the next tick
		p.lastPDBeat = p.lastPDBeat.Add(-p.s.cfg.PDHeartbeatInterval)
	}
	if !leader && p.wasLeader {
		p.pendingConf, p.pendingSplit = false, false
		p.splitting.Store(false)
		p.failReads(errNotLeader(p.regionID, p.leaderPeer()))
		// Proposals of the lost term may still commit under the next
		// leader (a transferee has them all), or be overwritten. They stay
		// pending: this peer applies the next leader's log, which answers
		// each one (applied in its term, or StaleCommand once a newer
		// term's entry applies). Only if that does not happen in time —
		// this peer is cut off — are they answered UndeterminedResult.
		p.downTicks = 0
	}
	p.wasLeader = leader
}

// confirmReads answers the reads whose ReadIndex round a quorum
// confirmed. Loop goroutine.
func (p *peer) confirmReads(states []raft.ReadState) {
	for _, rs := range states {
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
			r.done(rs.Index, rr.term, nil)
		}
	}
}

// applyCommitted hands committed entries (a MsgStorageApply; raft gives
// only entries already durable here) to the apply worker and steps the
// message's responses. A conf change is applied before the loop goes on:
// raft learns the new configuration from ApplyConfChange. Loop goroutine.
func (p *peer) applyCommitted(m *raftpb.Message) {
	if ents := m.GetEntries(); len(ents) > 0 {
		hasConf := hasConfChange(ents)
		task := &applyTask{p: p, entries: ents, committedAt: p.s.now()}
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
	for _, r := range m.GetResponses() {
		if err := p.rn.Step(r); err != nil {
			p.s.log.Debug("raft step", "region", p.regionID, "err", err)
		}
	}
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
