package raftstore

import (
	"testing"

	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

func voteMsg(region, toPeer uint64, typ raftpb.MessageType) *raftserverpb.RaftMessage {
	return &raftserverpb.RaftMessage{
		RegionId: region, ToPeer: &kvrpcpb.Peer{Id: toPeer},
		Message: &raftpb.Message{Type: typ.Enum(), Term: proto.Uint64(7)},
	}
}

// Only vote requests are kept, the latest per region, for the peer they
// were sent to, once, for ttl, and no more than maxSplitVotes regions at
// a time (expired ones give way).
func TestSplitVotes(t *testing.T) {
	const ttl = 100
	v := splitVotes{ttl: ttl}
	v.keep(voteMsg(10, 101, raftpb.MsgApp), 0)
	if v.take(10, 101, 0) != nil {
		t.Fatal("an append was kept")
	}
	v.keep(voteMsg(10, 101, raftpb.MsgPreVote), 0)
	v.keep(voteMsg(10, 101, raftpb.MsgVote), 0)
	if m := v.take(10, 101, ttl); m == nil || m.GetMessage().GetType() != raftpb.MsgVote {
		t.Fatalf("take = %v, want the latest request (MsgVote)", m)
	}
	if v.take(10, 101, 0) != nil {
		t.Fatal("a request was handed over twice")
	}
	v.keep(voteMsg(11, 102, raftpb.MsgVote), 0)
	if v.take(11, 999, 0) != nil || v.take(11, 102, 0) != nil {
		t.Fatal("a request for another peer was handed over, or kept after a take")
	}
	v.keep(voteMsg(12, 103, raftpb.MsgVote), 0)
	if v.take(12, 103, ttl+1) != nil {
		t.Fatal("an expired request was handed over")
	}
	for i := range uint64(maxSplitVotes + 10) {
		v.keep(voteMsg(1000+i, 1, raftpb.MsgVote), 0)
	}
	if n := len(v.votes); n != maxSplitVotes {
		t.Fatalf("%d regions kept, want at most %d", n, maxSplitVotes)
	}
	v.keep(voteMsg(5000, 1, raftpb.MsgVote), ttl+1) // the old ones expired
	if v.take(5000, 1, ttl+1) == nil {
		t.Fatal("a full table of expired requests refused a new one")
	}
}
