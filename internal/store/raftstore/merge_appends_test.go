package raftstore

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"testing"

	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

func appendMsg(to, term, index, logTerm, commit uint64, ents ...*raftpb.Entry) *raftpb.Message {
	return &raftpb.Message{
		Type: raftpb.MsgApp.Enum(), To: proto.Uint64(to), Term: proto.Uint64(term),
		Index: proto.Uint64(index), LogTerm: proto.Uint64(logTerm), Commit: proto.Uint64(commit),
		Entries: ents,
	}
}

func entry(term, index uint64, size int) *raftpb.Entry {
	return &raftpb.Entry{Term: proto.Uint64(term), Index: proto.Uint64(index), Data: make([]byte, size)}
}

func entryIndexes(m *raftpb.Message) []uint64 {
	var ix []uint64
	for _, e := range m.GetEntries() {
		ix = append(ix, e.GetIndex())
	}
	return ix
}

func leaderPeer() *peer {
	p := &peer{s: &Store{}}
	p.isLeader.Store(true)
	return p
}

// Consecutive appends to one follower become one, with every entry in
// order and the last commit index; appends to other followers interleaved
// with them merge on their own; raft's entry slices are not written.
func TestMergeAppendsFoldsARun(t *testing.T) {
	p := leaderPeer()
	e6, e7, e8 := entry(2, 6, 10), entry(2, 7, 10), entry(2, 8, 10)
	sentinel := entry(2, 99, 1)
	shared := []*raftpb.Entry{e6, sentinel} // raft's array behind the first append
	msgs := []*raftpb.Message{
		appendMsg(2, 2, 5, 2, 4, shared[:1]...),
		appendMsg(3, 2, 5, 2, 4, shared[:1]...),
		appendMsg(2, 2, 6, 2, 5, e7),
		appendMsg(3, 2, 6, 2, 5, e7),
		appendMsg(2, 2, 7, 2, 6, e8),
		appendMsg(2, 2, 8, 2, 7), // commit only
	}
	out := p.mergeAppends(msgs)
	if len(out) != 2 {
		t.Fatalf("got %d messages, want 2 (one per follower)", len(out))
	}
	for i, want := range []struct {
		to, commit uint64
		ents       []uint64
	}{{2, 7, []uint64{6, 7, 8}}, {3, 5, []uint64{6, 7}}} {
		m := out[i]
		if m.GetTo() != want.to || m.GetIndex() != 5 || m.GetLogTerm() != 2 || m.GetCommit() != want.commit ||
			!slices.Equal(entryIndexes(m), want.ents) {
			t.Errorf("message %d: to %d index %d logTerm %d commit %d entries %v; want to %d index 5 logTerm 2 commit %d entries %v",
				i, m.GetTo(), m.GetIndex(), m.GetLogTerm(), m.GetCommit(), entryIndexes(m), want.to, want.commit, want.ents)
		}
	}
	if shared[1] != sentinel {
		t.Fatal("merging wrote into raft's entry array")
	}
	if got := p.s.metrics.appendsMerged.Load(); got != 4 {
		t.Fatalf("appends merged = %d, want 4", got)
	}
}

// Appends that do not continue each other, or are split by another
// message to the same follower, or would grow past maxMergedAppend, are
// left alone; so is everything a follower sends.
func TestMergeAppendsLeavesOthers(t *testing.T) {
	hb := &raftpb.Message{Type: raftpb.MsgHeartbeat.Enum(), To: proto.Uint64(2), Term: proto.Uint64(2)}
	for _, tc := range []struct {
		name string
		msgs []*raftpb.Message
	}{
		{"gap", []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, 1)), appendMsg(2, 2, 7, 2, 4, entry(2, 8, 1))}},
		{"log term", []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, 1)), appendMsg(2, 2, 6, 1, 4, entry(2, 7, 1))}},
		{"term", []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, 1)), appendMsg(2, 3, 6, 2, 4, entry(3, 7, 1))}},
		{"message between", []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, 1)), hb, appendMsg(2, 2, 6, 2, 4, entry(2, 7, 1))}},
		{"size", []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, maxMergedAppend/2+1)), appendMsg(2, 2, 6, 2, 4, entry(2, 7, maxMergedAppend/2))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := leaderPeer()
			want := slices.Clone(tc.msgs)
			if out := p.mergeAppends(slices.Clone(tc.msgs)); !slices.Equal(out, want) || len(out[0].GetEntries()) != 1 {
				t.Fatalf("got %d messages, want the %d unchanged", len(out), len(want))
			}
		})
	}
	t.Run("follower", func(t *testing.T) {
		p := leaderPeer()
		p.isLeader.Store(false)
		msgs := []*raftpb.Message{appendMsg(2, 2, 5, 2, 4, entry(2, 6, 1)), appendMsg(2, 2, 6, 2, 4, entry(2, 7, 1))}
		if out := p.mergeAppends(slices.Clone(msgs)); len(out) != 2 {
			t.Fatalf("a follower's messages: got %d, want 2", len(out))
		}
	})
}

// Proposals that reach the leader in one round leave as one append per
// follower, and every store applies every one of them.
func TestProposalsOfARoundShareAnAppend(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	l := c.leader(1)
	if err := c.put(key(0), []byte("first")); err != nil {
		t.Fatal(err)
	}
	before := l.s.Stats()

	// Hold the region's loop while the proposals queue up.
	p := l.s.peer(1)
	entered, release := make(chan struct{}), make(chan struct{})
	p.post(msgCall{fn: func() { close(entered); <-release }})
	<-entered
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = c.put(key(1+i), []byte("v")) })
	}
	c.waitFor(fmt.Sprintf("%d proposals queued", n), func() bool {
		p.mbox.mu.Lock()
		defer p.mbox.mu.Unlock()
		return len(p.mbox.items) >= n
	})
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	for id := uint64(1); id <= 3; id++ {
		for i := range n {
			c.waitFor(fmt.Sprintf("store %d applied write %d", id, i), func() bool {
				return bytes.Equal(c.localGet(id, key(1+i)), []byte("v"))
			})
		}
	}
	after := l.s.Stats()
	// The follower that acknowledged the first write replicates: its n
	// appends of the round went as one.
	if merged := after.AppendsMerged - before.AppendsMerged; merged < n-1 {
		t.Fatalf("%d proposals in one round: %d appends merged, want at least %d", n, merged, n-1)
	}
	t.Logf("%d proposals in one round: %d appends merged, %d messages sent", n,
		after.AppendsMerged-before.AppendsMerged, after.RaftMessagesSent-before.RaftMessagesSent)
}
