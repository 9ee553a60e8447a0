package raftstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.etcd.io/raft/v3"
	"go.etcd.io/raft/v3/raftpb"
	"go.etcd.io/raft/v3/tracker"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// leaderTick runs a leader's periodic work. Loop goroutine.
func (p *peer) leaderTick() {
	now := p.s.clock()
	cfg := &p.s.cfg
	if now.Sub(p.lastGC) >= cfg.RaftLogGCInterval {
		p.lastGC = now
		p.maybeCompactLog()
	}
	if p.s.pd != nil && now.Sub(p.lastSplitChk) >= cfg.SplitCheckInterval && !p.pendingSplit && p.needsMeasure() {
		p.lastSplitChk = now
		p.s.scheduleSplitCheck(p)
	}
	if p.s.pd != nil && (now.Sub(p.lastPDBeat) >= cfg.PDHeartbeatInterval || p.pendingCount() != p.lastPending) {
		p.lastPDBeat = now
		req := p.heartbeatRequest()
		p.lastPending = len(req.PendingPeers)
		p.s.regionHeartbeat(p, req)
	}
}

// needsMeasure reports whether the region's size must be measured (it
// never was, or its estimate reached a split threshold).
func (p *peer) needsMeasure() bool {
	cfg := &p.s.cfg
	size, keys := p.estimate()
	return !p.measured.Load() || size >= cfg.RegionMaxSize || keys >= cfg.RegionMaxKeys
}

// estimate is the region's size and key count as splits see them: the
// last measurement plus what was applied since (measuring scans the
// region, so it waits for a split threshold).
func (p *peer) estimate() (size, keys uint64) {
	return p.approxSize.Load() + p.sizeDiff.Load(), p.approxKeys.Load() + p.keysDiff.Load()
}

// maybeCompactLog proposes truncating the log below what every follower
// has. Once the log is longer than RaftLogGCCountLimit it truncates past
// a laggard too, but by at most half the log (TiKV's rule): a follower
// whose appends are merely in flight when the tick comes is still caught
// up from the log, and only one that fell behind by half the log gets a
// snapshot. Loop goroutine.
func (p *peer) maybeCompactLog() {
	applied := p.appliedIdx.Load()
	first := p.ps.truncated.Index
	if applied <= first || applied-first < p.s.cfg.RaftLogGCThreshold {
		return
	}
	st := p.rn.Status()
	minMatch := applied
	snapFloor := applied // a follower being sent a snapshot needs what follows it
	for id, pr := range st.Progress {
		if id == p.peerID {
			continue
		}
		if pr.Match < minMatch {
			minMatch = pr.Match
		}
		if pr.State == tracker.StateSnapshot && pr.PendingSnapshot < snapFloor {
			snapFloor = pr.PendingSnapshot
		}
	}
	idx := compactIndex(first, p.ps.lastIndex, applied, minMatch, snapFloor, p.s.cfg.RaftLogGCCountLimit)
	if idx <= first || idx-first < p.s.cfg.RaftLogGCThreshold/2 {
		return
	}
	term, err := p.ps.Term(idx)
	if err != nil {
		return
	}
	cmd := &raftserverpb.RaftCmdRequest{
		Header: &raftserverpb.RaftRequestHeader{RegionId: p.regionID, RegionEpoch: p.Region().GetRegionEpoch()},
		Admin: &raftserverpb.AdminRequest{
			CmdType:    raftserverpb.AdminCmdType_CompactLog,
			CompactLog: &raftserverpb.CompactLogRequest{CompactIndex: idx, CompactTerm: term},
		},
	}
	p.propose(&proposal{id: proposalIDs.Add(1), cmd: cmd, done: func(applyResult) {}})
}

// compactIndex is the index a leader truncates its log to, its log being
// (first, last]: what every follower has (minMatch, at most applied);
// past a laggard only once the log is longer than limit, and then to at
// most its midpoint, never past applied or past what a follower being
// sent a snapshot needs (snapFloor).
func compactIndex(first, last, applied, minMatch, snapFloor, limit uint64) uint64 {
	if last-first <= limit {
		return minMatch
	}
	return min(applied, snapFloor, max(minMatch, first+(last-first)/2))
}

// onCompacted deletes the log up to index from raftdb once the apply of
// CompactLog made kvdb durable past it. Loop goroutine.
func (p *peer) onCompacted(index, term uint64) {
	wb := p.s.raftdb.NewBatch()
	defer wb.Close()
	if err := p.ps.compactTo(wb, index, term); err != nil {
		p.s.log.Warn("raftstore: compact log", "region", p.regionID, "err", err)
		return
	}
	if err := wb.Commit(nil); err != nil {
		p.s.log.Warn("raftstore: compact log", "region", p.regionID, "err", err)
	}
	if g := p.genSnap; g != nil && g.snap.GetMetadata().GetIndex() < index {
		p.genSnap = nil
	}
}

// dropCommitOnly removes from msgs a leader's appends that carry no
// entries to a follower already holding everything before them: they
// only tell it the new commit index, which its next append or heartbeat
// (every HeartbeatTicks) carries as well. Raft tolerates their loss like
// any message's. Each would cost the follower a receive, a raft state
// write and a reply, and the leader that reply; when every proposal waits
// for its own commit, there are as many of them as appends with entries.
// Loop goroutine.
func (p *peer) dropCommitOnly(msgs []*raftpb.Message) []*raftpb.Message {
	if !p.isLeader.Load() {
		return msgs
	}
	out := msgs[:0]
	for _, m := range msgs {
		if m.GetType() == raftpb.MsgApp && len(m.GetEntries()) == 0 && p.replicatingAt(m.GetTo(), m.GetIndex()) {
			p.s.metrics.commitOnlyDropped()
			continue
		}
		out = append(out, m)
	}
	return out
}

// maxMergedAppend bounds the entries' bytes of an append mergeAppends
// builds, as Config.MaxSizePerMsg bounds one raft builds.
const maxMergedAppend = 1 << 20

// mergeAppends folds a leader's appends to one follower that follow each
// other in msgs, each starting where the previous one ended, into one
// append (TiKV's raft-rs does the same: batch_append). Raft sends an
// append per proposal, so a round that took several proposals sent each
// follower as many appends; each cost it a step and a reply, and the
// leader that reply. The merged append carries the entries of all, in
// order, and the last one's commit index; raft's inflight window counts
// the parts, and the one reply, acknowledging the last entry, frees them
// all. Another message to the same follower in between ends the run.
// Loop goroutine.
func (p *peer) mergeAppends(msgs []*raftpb.Message) []*raftpb.Message {
	if len(msgs) < 2 || !p.isLeader.Load() {
		return msgs
	}
	type lastSent struct {
		to   uint64
		at   int // index in out of the last message to to
		size int // entry bytes of out[at] once merged into (it then owns its entries), else -1
	}
	var buf [4]lastSent
	lasts := buf[:0]
	out := msgs[:0]
	for _, m := range msgs {
		j := -1
		for k := range lasts {
			if lasts[k].to == m.GetTo() {
				j = k
				break
			}
		}
		if j >= 0 && m.GetType() == raftpb.MsgApp {
			prev := out[lasts[j].at]
			if size, ok := mergeableAppend(prev, m, lasts[j].size); ok {
				if lasts[j].size < 0 {
					// prev's first merge: a slice of our own, as raft's
					// entries may share their array with its log and
					// with the appends to other followers.
					prev.Entries = slices.Clip(prev.Entries)
				}
				prev.Entries = append(prev.Entries, m.GetEntries()...)
				prev.Commit = proto.Uint64(max(prev.GetCommit(), m.GetCommit()))
				lasts[j].size = size
				p.s.metrics.appendMerged()
				continue
			}
		}
		out = append(out, m)
		if j < 0 {
			lasts = append(lasts, lastSent{to: m.GetTo()})
			j = len(lasts) - 1
		}
		lasts[j].at, lasts[j].size = len(out)-1, -1
	}
	clear(msgs[len(out):]) // drop the merged messages' pointers
	return out
}

// mergeableAppend reports whether append next starts where append prev
// ends, in the same term, and the entries' bytes of the two merged (size:
// prev's, or -1 not counted yet) stay within maxMergedAppend.
func mergeableAppend(prev, next *raftpb.Message, size int) (int, bool) {
	if prev.GetType() != raftpb.MsgApp || prev.GetTerm() != next.GetTerm() {
		return 0, false
	}
	ents := prev.GetEntries()
	lastIndex, lastTerm := prev.GetIndex()+uint64(len(ents)), prev.GetLogTerm()
	if len(ents) > 0 {
		lastTerm = ents[len(ents)-1].GetTerm()
	}
	if next.GetIndex() != lastIndex || next.GetLogTerm() != lastTerm {
		return 0, false
	}
	if size < 0 {
		size = entriesSize(ents)
	}
	size += entriesSize(next.GetEntries())
	return size, size <= maxMergedAppend
}

func entriesSize(ents []*raftpb.Entry) int {
	n := 0
	for _, e := range ents {
		n += len(e.GetData())
	}
	return n
}

// replicatingAt reports whether follower id is replicating and has
// matched the log up to index. Loop goroutine.
func (p *peer) replicatingAt(id, index uint64) bool {
	at := false
	p.rn.WithProgress(func(pid uint64, _ raft.ProgressType, pr tracker.Progress) {
		if pid == id {
			at = pr.State == tracker.StateReplicate && pr.Match == index
		}
	})
	return at
}

// maxTransferLag is how many committed entries a transferee may miss:
// raft drops every proposal until the transferee caught up and won, so a
// transfer starts only when that is one round trip away (TiKV's
// leader_transfer_max_log_lag).
const maxTransferLag = 128

// transferRefusal says why leadership should not go to peer to now ("" if
// it may): the transferee must be a voter replicating close behind the
// commit index, and no conf change may be in flight. A refused transfer
// leaves PD's operator to time out and be scheduled again. Loop goroutine.
func (p *peer) transferRefusal(to uint64) string {
	if !p.isLeader.Load() {
		return "not the leader"
	}
	if p.pendingConf {
		return "a conf change is in flight"
	}
	st := p.rn.Status()
	pr, ok := st.Progress[to]
	switch {
	case !ok || to == p.peerID:
		return "not a peer of the region"
	case pr.IsLearner:
		return "a learner"
	case pr.State != tracker.StateReplicate:
		return "not replicating (probing or taking a snapshot)"
	case pr.Match+maxTransferLag < st.GetCommit():
		return fmt.Sprintf("matched %d, %d behind the commit index", pr.Match, st.GetCommit()-pr.Match)
	}
	return ""
}

// readyTransferee is the first other voter leadership may go to now, or
// 0. Loop goroutine.
func (p *peer) readyTransferee() uint64 {
	for _, pr := range p.Region().GetPeers() {
		if pr.GetId() != p.peerID && pr.GetRole() == kvrpcpb.PeerRole_Voter && p.transferRefusal(pr.GetId()) == "" {
			return pr.GetId()
		}
	}
	return 0
}

// pendingCount counts the followers that are behind the log's start
// (they need a snapshot) or receiving one: a change is reported to PD at
// once, since its operators wait for a new peer to catch up.
func (p *peer) pendingCount() int {
	n := 0
	p.rn.WithProgress(func(id uint64, _ raft.ProgressType, pr tracker.Progress) {
		if id != p.peerID && pr.RecentActive && (pr.Match < p.ps.truncated.Index || pr.State == tracker.StateSnapshot) {
			n++
		}
	})
	return n
}

// heartbeatRequest describes the region for PD, with the size estimate
// splits go by. Loop goroutine.
func (p *peer) heartbeatRequest() *pdpb.RegionHeartbeatRequest {
	region := p.Region()
	size, keys := p.estimate()
	req := &pdpb.RegionHeartbeatRequest{
		Region: proto.Clone(region).(*kvrpcpb.Region), Leader: findPeer(region, p.peerID),
		ApproximateSize: size, ApproximateKeys: keys, Term: p.term.Load(),
	}
	st := p.rn.Status()
	for id, pr := range st.Progress {
		if id == p.peerID {
			continue
		}
		peer := findPeer(region, id)
		if peer == nil {
			continue
		}
		if !pr.RecentActive {
			req.DownPeers = append(req.DownPeers, &pdpb.PeerStats{Peer: peer})
		} else if pr.Match < p.ps.truncated.Index || pr.State == tracker.StateSnapshot {
			req.PendingPeers = append(req.PendingPeers, peer)
		}
	}
	return req
}

// reportSoon makes a leader report its region to PD at its next tick
// (after a conf change or split: PD's operators advance on reports).
func (p *peer) reportSoon() {
	p.post(msgCall{func() { p.lastPDBeat = time.Time{} }})
}

// regionHeartbeat sends req to PD off the loop.
func (s *Store) regionHeartbeat(p *peer, req *pdpb.RegionHeartbeatRequest) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.pd.RegionHeartbeat(ctx, req); err != nil {
			s.log.Debug("raftstore: region heartbeat", "region", p.regionID, "err", err)
		}
	}()
}

// onBecomeLeader syncs max_ts from the TSO for the new term (async
// commit and 1PC prewrites wait for it) and reports to PD at once.
func (s *Store) onBecomeLeader(p *peer) {
	term := p.term.Load()
	if s.pd == nil || s.maxTS == nil {
		p.maxTSTerm.Store(term)
		return
	}
	go func() {
		for attempt := 0; ; attempt++ {
			if p.term.Load() != term || !p.isLeader.Load() || p.destroyed.Load() {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			ts, err := s.pd.GetTimestamp(ctx)
			cancel()
			if err == nil {
				s.maxTS.UpdateMaxTS(ts)
				p.maxTSTerm.Store(term)
				return
			}
			select {
			case <-s.stopped:
				return
			case <-time.After(min(time.Duration(attempt+1)*50*time.Millisecond, time.Second)):
			}
		}
	}()
}

// storeHeartbeatLoop reports the store to PD periodically.
func (s *Store) storeHeartbeatLoop() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.StoreHeartbeatInterval)
	defer t.Stop()
	started := uint64(time.Now().Unix())
	for {
		select {
		case <-s.stopped:
			return
		case <-t.C:
		}
		regions := s.Regions()
		var used uint64
		if m := s.kvdb.Metrics(); m != nil {
			used = m.DiskSpaceUsage()
		}
		stats := &pdpb.StoreStats{
			StoreId: s.cfg.StoreID, RegionCount: uint32(len(regions)), LeaderCount: uint32(s.LeaderCount()),
			UsedSize: used, StartTime: started, Capacity: 1 << 40, Available: 1<<40 - used,
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if err := s.pd.StoreHeartbeat(ctx, stats); err != nil {
			s.log.Debug("raftstore: store heartbeat", "err", err)
		}
		cancel()
	}
}

// HandleRegionHeartbeatResponse carries out an operator step PD sent
// back for a region this store leads.
func (s *Store) HandleRegionHeartbeatResponse(resp *pdpb.RegionHeartbeatResponse) {
	p := s.peer(resp.GetRegionId())
	if p == nil || !p.isLeader.Load() {
		return
	}
	cur := p.Region().GetRegionEpoch()
	if e := resp.GetRegionEpoch(); e != nil && (e.GetConfVer() < cur.GetConfVer() || e.GetVersion() < cur.GetVersion()) {
		return // PD decided on an older region
	}
	switch {
	case resp.GetChangePeer() != nil:
		cp := resp.GetChangePeer()
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := s.ChangePeer(ctx, p.regionID, cp.GetChangeType(), cp.GetPeer()); err != nil {
				s.log.Info("raftstore: change peer", "region", p.regionID, "peer", cp.GetPeer().GetId(), "err", err)
			}
		}()
	case resp.GetTransferLeader() != nil:
		s.TransferLeader(p.regionID, resp.GetTransferLeader().GetPeer().GetId())
	}
}

// ErrNotLeader is returned by admin calls on a store that does not lead
// the region.
var ErrNotLeader = errors.New("raftstore: not the region's leader")

// TransferLeader asks region id's leader here to hand leadership to peer.
// toPeer 0 picks the first voter transferRefusal accepts.
func (s *Store) TransferLeader(regionID, toPeer uint64) {
	if p := s.peer(regionID); p != nil {
		p.post(msgTransferLeader{to: toPeer})
	}
}

// ChangePeer proposes adding (as voter or learner) or removing a peer of
// region id and waits for it to apply. The leader does not remove itself:
// it hands leadership to another voter first and answers busy.
func (s *Store) ChangePeer(ctx context.Context, regionID uint64, typ pdpb.ConfChangeType, target *kvrpcpb.Peer) error {
	p := s.peer(regionID)
	if p == nil {
		return errRegionNotFound(regionID)
	}
	if !p.isLeader.Load() {
		return ErrNotLeader
	}
	region := p.Region()
	var ct raftpb.ConfChangeType
	switch typ {
	case pdpb.ConfChangeType_AddNode:
		ct = raftpb.ConfChangeType_ConfChangeAddNode
	case pdpb.ConfChangeType_AddLearnerNode:
		ct = raftpb.ConfChangeType_ConfChangeAddLearnerNode
	case pdpb.ConfChangeType_RemoveNode:
		ct = raftpb.ConfChangeType_ConfChangeRemoveNode
		if target.GetId() == p.peerID {
			s.TransferLeader(regionID, 0) // to a voter ready for it
			return errServerIsBusy("transferring leadership before removing the leader")
		}
	}
	cc := &raftpb.ConfChangeV2{Changes: []*raftpb.ConfChangeSingle{{Type: ct.Enum(), NodeId: proto.Uint64(target.GetId())}}}
	cmd := &raftserverpb.RaftCmdRequest{
		Header: &raftserverpb.RaftRequestHeader{RegionId: regionID, RegionEpoch: region.GetRegionEpoch()},
		Admin:  &raftserverpb.AdminRequest{CmdType: raftserverpb.AdminCmdType_ChangePeer, ChangePeer: target},
	}
	_, err := s.propose(ctx, p, cmd, cc)
	return err
}

// SplitRegion splits region id at the given user keys (ascending, inside
// the region) with ids from PD, and returns the resulting regions. A
// store that does not lead the region answers a NotLeader region error.
func (s *Store) SplitRegion(ctx context.Context, regionID uint64, keys [][]byte) ([]*kvrpcpb.Region, error) {
	p := s.peer(regionID)
	if p == nil {
		return nil, errRegionNotFound(regionID)
	}
	if !p.isLeader.Load() {
		return nil, errNotLeader(regionID, p.leaderPeer())
	}
	if s.pd == nil {
		return nil, errors.New("raftstore: split needs PD")
	}
	term, err := s.handOffBeforeSplit(ctx, p)
	if err != nil {
		return nil, err // handOffBeforeSplit ended the freeze
	}
	if s.handoff != nil {
		defer s.handoff.HandoffEnded(regionID, term)
	}
	region := p.Region()
	ids, err := s.pd.AskBatchSplit(ctx, region, len(keys))
	if err != nil {
		return nil, err
	}
	if len(ids) != len(keys) {
		return nil, errors.New("raftstore: PD returned the wrong number of split ids")
	}
	req := &raftserverpb.BatchSplitRequest{RightDerive: true}
	for i, k := range keys {
		req.Requests = append(req.Requests, &raftserverpb.SplitRequest{
			SplitKey: k, NewRegionId: ids[i].GetNewRegionId(), NewPeerIds: ids[i].GetNewPeerIds(),
		})
	}
	cmd := &raftserverpb.RaftCmdRequest{
		Header: &raftserverpb.RaftRequestHeader{RegionId: regionID, RegionEpoch: region.GetRegionEpoch()},
		Admin:  &raftserverpb.AdminRequest{CmdType: raftserverpb.AdminCmdType_BatchSplit, Splits: req},
	}
	res, err := s.propose(ctx, p, cmd, nil)
	return res.regions, err
}

// handOffBeforeSplit writes the region's in-memory pessimistic locks
// through raft before a split, as a leader transfer does (TiKV moves them
// to the new regions instead): a lock in memory is seen only by commands
// of its region, so the keys that leave would lose theirs; in the engine
// the new region's leader finds them. It returns the hand-off's term once
// handOff is done: the writes it waited for, and the lock changes that
// now go through raft (see txn's HandoffLocks), come before the split's
// entry, or after it, refused by its epoch and retried on the new region.
// The caller ends the freeze the hand-off started (HandoffEnded with the
// term) once its split applied or failed; when the hand-off fails, or
// ctx ends before it answers, this ends it instead, so that every split
// hand-off is ended exactly once (the freeze lasts until all of a term's
// have; a stopping store ends none).
func (s *Store) handOffBeforeSplit(ctx context.Context, p *peer) (term uint64, err error) {
	if s.handoff == nil {
		return 0, nil
	}
	type handedOff struct {
		term uint64
		err  error
	}
	ch := make(chan handedOff, 1)
	p.post(msgHandOff{split: true, done: func(term uint64, err error) {
		if err != nil {
			s.handoff.HandoffEnded(p.regionID, term) // no split follows
		}
		ch <- handedOff{term, err}
	}})
	select {
	case h := <-ch:
		return h.term, h.err
	case <-ctx.Done():
	case <-s.stopped:
		return 0, ErrStopped
	}
	// No split follows: end the hand-off once it answers.
	s.goBackground(func() {
		select {
		case h := <-ch:
			if h.err == nil {
				s.handoff.HandoffEnded(p.regionID, h.term)
			}
		case <-s.stopped:
		}
	})
	return 0, ctx.Err()
}

// SplitRegionAt splits region id at those of keys that fall strictly
// inside it (any order, duplicates allowed) and returns the resulting
// regions in key order; with none inside, the region alone. A split a
// request asked for (server.Splitter, TiDB's split-table and SPLIT).
func (s *Store) SplitRegionAt(ctx context.Context, regionID uint64, keys [][]byte) ([]*kvrpcpb.Region, error) {
	p := s.peer(regionID)
	if p == nil || !p.initialized.Load() {
		return nil, errRegionNotFound(regionID)
	}
	region := p.Region()
	var inside [][]byte
	for _, k := range keys {
		if bytes.Compare(k, region.GetStartKey()) > 0 &&
			(len(region.GetEndKey()) == 0 || bytes.Compare(k, region.GetEndKey()) < 0) {
			inside = append(inside, k)
		}
	}
	slices.SortFunc(inside, bytes.Compare)
	inside = slices.CompactFunc(inside, bytes.Equal)
	if len(inside) == 0 {
		return []*kvrpcpb.Region{region}, nil
	}
	return s.SplitRegion(ctx, regionID, inside)
}

// reportSplit tells PD about the regions a split produced.
func (s *Store) reportSplit(regions []*kvrpcpb.Region) {
	if s.pd == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.pd.ReportBatchSplit(ctx, regions); err != nil {
			s.log.Debug("raftstore: report split", "err", err)
		}
	}()
}
