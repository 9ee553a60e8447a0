package raftstore

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// A lone voter can die with its last write's entry in the raft log, that
// write applied and acknowledged, but neither the hard state's commit
// index nor kvdb's apply of it on disk (both are written without fsync).
// On restart raft replays only up to the recorded commit; the entry
// commits again with the new term's first entry. A linearizable read
// must wait for that: etcd raft answers a lone voter's ReadIndex with its
// commit index at once, before the new term's entry commits.
func TestRestartedLoneVoterReadsItsLastWrite(t *testing.T) {
	cfg := fastConfig()
	cfg.RaftLogGCThreshold = 1 << 20 // no compaction entries after the writes
	c := newTestCluster(t, 1, cfg)
	k := []byte("k")
	for round := range 10 {
		l := c.leader(1)
		old, want := fmt.Sprint("old", round), fmt.Sprint("new", round)
		if err := c.put(k, []byte(old)); err != nil {
			t.Fatal(err)
		}
		p := l.s.peer(1)
		oldIdx, oldTerm := p.appliedIdx.Load(), p.appliedTerm.Load()
		if err := c.put(k, []byte(want)); err != nil {
			t.Fatal(err)
		}
		if got := p.appliedIdx.Load(); got != oldIdx+1 {
			t.Fatalf("round %d: the second write applied at %d, want %d", round, got, oldIdx+1)
		}
		c.stop(1)
		ts := c.open(1)
		forgetLastApply(t, ts, k, old, oldIdx, oldTerm)
		c.stores[0] = ts
		c.start(ts)

		// Read the moment the store leads again (spinning: a poll's sleep
		// could miss the window the test is about).
		for deadline := time.Now().Add(20 * time.Second); !ts.s.IsLeader(1); runtime.Gosched() {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the restarted store does not lead", round)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		rctx, err := ts.s.Route(ctx, regionContext(ts.s, 1), false)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		snap, err := ts.s.Snapshot(rctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		v, err := snap.Get(mvcc.WriteKey(k, 1))
		snap.Close()
		if err != nil || string(v) != want {
			t.Fatalf("round %d: read after restart = %q, %v; want the acknowledged %q", round, v, err, want)
		}
	}
}

// forgetLastApply rewinds a stopped store to what a crash could leave:
// the hard state's commit and kvdb's apply state at index (where key was
// old), the log's last entry still there.
func forgetLastApply(t *testing.T, ts *testStore, key []byte, old string, index, term uint64) {
	t.Helper()
	rs, err := loadRaftState(ts.raftdb, 1)
	if err != nil || rs == nil {
		t.Fatalf("raft state: %v, %v", rs, err)
	}
	if rs.GetLastIndex() != index+1 {
		t.Fatalf("raft log ends at %d, want %d", rs.GetLastIndex(), index+1)
	}
	hs := proto.Clone(rs.GetHardState()).(*raftpb.HardState)
	hs.Commit = proto.Uint64(index)
	rs.HardState = hs
	b, _ := proto.Marshal(rs)
	if err := ts.raftdb.Set(raftStateKey(1), b, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	kb := ts.kv.DB().NewBatch()
	defer kb.Close()
	as := &raftserverpb.RaftApplyState{}
	v, closer, err := ts.kv.DB().Get(applyStateKey(1))
	if err != nil {
		t.Fatal(err)
	}
	err = proto.Unmarshal(v, as)
	closer.Close()
	if err != nil {
		t.Fatal(err)
	}
	as.AppliedIndex, as.AppliedTerm = index, term
	b, _ = proto.Marshal(as)
	_ = kb.Set(applyStateKey(1), b, nil)
	_ = kb.Set(mvcc.WriteKey(key, 1), []byte(old), nil)
	if err := kb.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
}
