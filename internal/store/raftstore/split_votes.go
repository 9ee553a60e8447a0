package raftstore

import (
	"sync"

	"go.etcd.io/raft/v3/raftpb"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// maxSplitVotes bounds the votes kept for regions not yet split here.
const maxSplitVotes = 1024

// splitVotes keeps the latest (pre)vote request for a region this store
// has not split off yet. The parent's leader applies a split first and
// its new peer campaigns at once; a follower that has not applied the
// split has no peer to answer, and raft asks again only an election
// timeout later. The follower hands the kept request to the new peer its
// split creates (TiKV keeps such votes the same way).
type splitVotes struct {
	mu    sync.Mutex
	votes map[uint64]*raftserverpb.RaftMessage // by region id
}

// keep records m if it asks for a vote.
func (v *splitVotes) keep(m *raftserverpb.RaftMessage) {
	if t := m.GetMessage().GetType(); t != raftpb.MsgVote && t != raftpb.MsgPreVote {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.votes == nil {
		v.votes = map[uint64]*raftserverpb.RaftMessage{}
	}
	if _, ok := v.votes[m.GetRegionId()]; !ok && len(v.votes) >= maxSplitVotes {
		return
	}
	v.votes[m.GetRegionId()] = m
}

// take removes and returns the request kept for peer peerID of region
// regionID, or nil.
func (v *splitVotes) take(regionID, peerID uint64) *raftserverpb.RaftMessage {
	v.mu.Lock()
	defer v.mu.Unlock()
	m := v.votes[regionID]
	delete(v.votes, regionID)
	if m == nil || m.GetToPeer().GetId() != peerID {
		return nil
	}
	return m
}
