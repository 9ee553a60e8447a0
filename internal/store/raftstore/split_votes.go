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
// split creates (TiKV keeps such votes the same way). A request older
// than ttl (store-clock ns) is of no use (the candidate has moved on)
// and is dropped.
type splitVotes struct {
	ttl   int64
	mu    sync.Mutex
	votes map[uint64]keptVote // by region id
}

type keptVote struct {
	m  *raftserverpb.RaftMessage
	at int64 // store-clock ns
}

// keep records m at now if it asks for a vote.
func (v *splitVotes) keep(m *raftserverpb.RaftMessage, now int64) {
	if t := m.GetMessage().GetType(); t != raftpb.MsgVote && t != raftpb.MsgPreVote {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.votes == nil {
		v.votes = map[uint64]keptVote{}
	}
	if _, ok := v.votes[m.GetRegionId()]; !ok && len(v.votes) >= maxSplitVotes {
		for id, k := range v.votes {
			if now-k.at > v.ttl {
				delete(v.votes, id)
			}
		}
		if len(v.votes) >= maxSplitVotes {
			return
		}
	}
	v.votes[m.GetRegionId()] = keptVote{m, now}
}

// take removes the request kept for region regionID and returns it if
// it was sent to peer peerID no longer than ttl before now.
func (v *splitVotes) take(regionID, peerID uint64, now int64) *raftserverpb.RaftMessage {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, ok := v.votes[regionID]
	delete(v.votes, regionID)
	if !ok || k.m.GetToPeer().GetId() != peerID || now-k.at > v.ttl {
		return nil
	}
	return k.m
}
