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
// were sent to, once, and no more than maxSplitVotes regions at a time.
func TestSplitVotes(t *testing.T) {
	var v splitVotes
	v.keep(voteMsg(10, 101, raftpb.MsgApp))
	if v.take(10, 101) != nil {
		t.Fatal("an append was kept")
	}
	v.keep(voteMsg(10, 101, raftpb.MsgPreVote))
	v.keep(voteMsg(10, 101, raftpb.MsgVote))
	if m := v.take(10, 101); m == nil || m.GetMessage().GetType() != raftpb.MsgVote {
		t.Fatalf("take = %v, want the latest request (MsgVote)", m)
	}
	if v.take(10, 101) != nil {
		t.Fatal("a request was handed over twice")
	}
	v.keep(voteMsg(11, 102, raftpb.MsgVote))
	if v.take(11, 999) != nil || v.take(11, 102) != nil {
		t.Fatal("a request for another peer was handed over, or kept after a take")
	}
	for i := range uint64(maxSplitVotes + 10) {
		v.keep(voteMsg(1000+i, 1, raftpb.MsgVote))
	}
	if n := len(v.votes); n != maxSplitVotes {
		t.Fatalf("%d regions kept, want at most %d", n, maxSplitVotes)
	}
}
