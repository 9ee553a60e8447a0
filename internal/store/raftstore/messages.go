package raftstore

import (
	"errors"

	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

var errUnreachable = errors.New("raftstore: store unreachable")

// sendRaftMessages wraps raft's messages of p with the region's routing
// data and hands them to the transport, grouped by store. Loop goroutine.
func (s *Store) sendRaftMessages(p *peer, msgs []*raftpb.Message) {
	if len(msgs) == 0 || s.trans == nil || s.isolated.Load() {
		return
	}
	for store, batch := range s.raftEnvelopes(p, msgs) {
		s.metrics.raftSent(len(batch))
		s.trans.Send(store, batch)
	}
}

// raftEnvelopes addresses p's msgs to the stores of their peers, grouped
// by store; a MsgSnap goes out at once through sendSnapshot instead (an
// append's responses, which the writer sends later, hold none). Loop
// goroutine (it reads p's peer cache).
func (s *Store) raftEnvelopes(p *peer, msgs []*raftpb.Message) map[uint64][]*raftserverpb.RaftMessage {
	region := p.Region()
	from := findPeer(region, p.peerID)
	if from == nil {
		from = &kvrpcpb.Peer{Id: p.peerID, StoreId: s.cfg.StoreID}
	}
	byStore := map[uint64][]*raftserverpb.RaftMessage{}
	for _, m := range msgs {
		to := findPeer(region, m.GetTo())
		if to == nil {
			if to = p.peerCache[m.GetTo()]; to == nil {
				continue // a peer removed meanwhile
			}
		}
		rm := &raftserverpb.RaftMessage{
			RegionId: p.regionID, FromPeer: from, ToPeer: to, Message: m,
			RegionEpoch: region.GetRegionEpoch(), StartKey: region.GetStartKey(), EndKey: region.GetEndKey(),
		}
		if m.GetType() == raftpb.MsgSnap {
			s.sendSnapshot(p, to, rm)
			continue
		}
		byStore[to.GetStoreId()] = append(byStore[to.GetStoreId()], rm)
	}
	return byStore
}

// findPeer returns region's peer with id, or nil.
func findPeer(r *kvrpcpb.Region, id uint64) *kvrpcpb.Peer {
	for _, p := range r.GetPeers() {
		if p.GetId() == id {
			return p
		}
	}
	return nil
}

// isInitialMsg reports whether m may create a peer on its receiver: a
// (pre)vote, or a heartbeat of a leader that knows nothing of the peer
// (commit 0), or a snapshot (TiKV's is_initial_msg, plus MsgSnap).
func isInitialMsg(m *raftpb.Message) bool {
	switch m.GetType() {
	case raftpb.MsgVote, raftpb.MsgPreVote, raftpb.MsgSnap:
		return true
	case raftpb.MsgHeartbeat:
		return m.GetCommit() == 0
	}
	return false
}

// OnRaftMessage routes a raft message from another store to its peer,
// creating the peer when the message may (isInitialMsg) and no
// initialized region here covers its range.
func (s *Store) OnRaftMessage(m *raftserverpb.RaftMessage) {
	select {
	case <-s.stopped:
		return
	default:
	}
	if m.GetToPeer().GetStoreId() != s.cfg.StoreID || m.GetMessage() == nil || s.isolated.Load() {
		return
	}
	if p := s.peer(m.GetRegionId()); p != nil {
		switch {
		case p.peerID == m.GetToPeer().GetId():
			if m.GetIsTombstone() {
				// On the peer's loop, so no round of it runs meanwhile.
				p.post(msgCall{func() { s.destroyPeer(p, nil) }})
				return
			}
			if s.replyTombstone(p, m) {
				return
			}
			p.post(m)
			return
		case p.peerID < m.GetToPeer().GetId() && !p.initialized.Load():
			s.removePeer(p) // a newer peer of the region replaces it
		case p.peerID < m.GetToPeer().GetId():
			// Peer ids are never reused: this peer was removed while it
			// could not hear it, and the region came back here with a new
			// peer. Destroy the stale one (on its loop); the new one is
			// made from a later message.
			p.post(msgCall{func() { s.destroyPeer(p, nil) }})
			return
		default:
			return // for an older peer of this region
		}
	}
	if m.GetIsTombstone() || !isInitialMsg(m.GetMessage()) {
		return
	}
	if s.isTombstoned(m) {
		return
	}
	if s.overlapsInitialized(m.GetRegionId(), m.GetStartKey(), m.GetEndKey()) {
		s.splitVotes.keep(m, s.now())
		// The split may have made the peer meanwhile, missing what we kept.
		if p := s.peer(m.GetRegionId()); p != nil && p.initialized.Load() && p.peerID == m.GetToPeer().GetId() {
			if kept := s.splitVotes.take(m.GetRegionId(), p.peerID, s.now()); kept != nil {
				p.post(kept)
			}
		}
		return
	}
	region := &kvrpcpb.Region{Id: m.GetRegionId(), RegionEpoch: &kvrpcpb.RegionEpoch{}}
	p, err := s.createPeer(region, m.GetToPeer().GetId(), false, false)
	if err != nil {
		if p = s.peer(m.GetRegionId()); p != nil && p.peerID == m.GetToPeer().GetId() {
			p.post(m) // created concurrently
		}
		return
	}
	p.post(m)
}

// isTombstoned reports whether this store holds a tombstone of m's region
// at least as new as m's sender knows (a removed peer never comes back; a
// re-add raises conf_ver above the tombstone's).
func (s *Store) isTombstoned(m *raftserverpb.RaftMessage) bool {
	v, closer, err := s.kvdb.Get(regionStateKey(m.GetRegionId()))
	if err != nil {
		return false
	}
	defer closer.Close()
	st := &raftserverpb.RegionLocalState{}
	if proto.Unmarshal(v, st) != nil || st.GetState() != raftserverpb.PeerState_Tombstone {
		return false
	}
	return m.GetRegionEpoch().GetConfVer() <= st.GetRegion().GetRegionEpoch().GetConfVer()
}

// replyTombstone answers a message from a peer that the region here no
// longer lists, at an older conf_ver, with a tombstone message: that peer
// was removed while it could not hear it, and destroys itself. It reports
// whether m was such a message.
func (s *Store) replyTombstone(p *peer, m *raftserverpb.RaftMessage) bool {
	if !p.initialized.Load() {
		return false
	}
	region := p.Region()
	from := m.GetFromPeer()
	if findPeer(region, from.GetId()) != nil || m.GetRegionEpoch().GetConfVer() >= region.GetRegionEpoch().GetConfVer() {
		return false
	}
	if s.trans != nil && !s.isolated.Load() {
		s.trans.Send(from.GetStoreId(), []*raftserverpb.RaftMessage{{
			RegionId: p.regionID, FromPeer: findPeer(region, p.peerID), ToPeer: from,
			RegionEpoch: region.GetRegionEpoch(), IsTombstone: true,
			Message: &raftpb.Message{Type: raftpb.MsgHeartbeat.Enum(), To: proto.Uint64(from.GetId()), From: proto.Uint64(p.peerID)},
		}})
	}
	return true
}
