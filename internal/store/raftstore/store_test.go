package raftstore

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
)

func key(i int) []byte { return []byte(fmt.Sprintf("key%05d", i)) }

// Writes through the leader apply on every replica; reads through the
// leader see them.
func TestReplicate(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	c.leader(1)
	for i := range 50 {
		if err := c.put(key(i), []byte(fmt.Sprint("v", i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 50 {
		v, err := c.get(key(i))
		if err != nil || string(v) != fmt.Sprint("v", i) {
			t.Fatalf("get %d = %q, %v", i, v, err)
		}
	}
	for id := uint64(1); id <= 3; id++ {
		c.waitFor(fmt.Sprintf("store %d applied", id), func() bool {
			return bytes.Equal(c.localGet(id, key(49)), []byte("v49"))
		})
	}
}

// Killing the leader elects another; acknowledged writes survive; the
// old leader restarts and catches up.
func TestLeaderFailover(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	old := c.leader(1)
	for i := range 20 {
		if err := c.put(key(i), []byte("a")); err != nil {
			t.Fatal(err)
		}
	}
	c.stop(old.id)
	nl := c.leader(1)
	if nl.id == old.id {
		t.Fatal("stopped store still leads")
	}
	for i := 20; i < 40; i++ {
		if err := c.put(key(i), []byte("b")); err != nil {
			t.Fatal(err)
		}
	}
	c.restart(old.id)
	c.waitFor("restarted store catches up", func() bool {
		return bytes.Equal(c.localGet(old.id, key(39)), []byte("b"))
	})
	for i := range 40 {
		want := "a"
		if i >= 20 {
			want = "b"
		}
		if v := c.localGet(old.id, key(i)); string(v) != want {
			t.Fatalf("restarted store: key %d = %q, want %q", i, v, want)
		}
	}
}

// Writes that may be lost (pessimistic locks: engine.Batch.NoSync) skip
// the raft log's fsync only where this store is the region's one voter.
func TestNoSyncOnlyAlone(t *testing.T) {
	for _, replicas := range []int{1, 3} {
		c := newTestCluster(t, replicas, fastConfig())
		l := c.leader(1)
		if err := c.put(key(0), []byte("synced")); err != nil {
			t.Fatal(err)
		}
		ctx, err := l.s.Route(context.Background(), regionContext(l.s, 1), false)
		if err != nil {
			t.Fatal(err)
		}
		before := l.s.Stats()
		for i := 1; i <= 20; i++ {
			b := writeBatch(key(i), "lock")
			b.NoSync = true
			if err := l.s.Write(ctx, b); err != nil {
				t.Fatal(err)
			}
		}
		after := l.s.Stats()
		syncs := after.RaftLogSyncs - before.RaftLogSyncs
		if replicas == 1 && syncs != 0 {
			t.Errorf("1 replica: %d fsyncs for NoSync writes, want 0", syncs)
		}
		if replicas == 3 && syncs == 0 {
			t.Errorf("3 replicas: NoSync writes were not synced")
		}
		c.stopAll()
	}
}

// A write routed under one leader term is refused once the term moved on,
// even when the same store leads again: what the command decided under
// the old leadership (an in-memory pessimistic lock) must not land later.
func TestWriteRefusedAfterTermChange(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	l := c.leader(1)
	ctx, err := l.s.Route(context.Background(), regionContext(l.s, 1), false)
	if err != nil {
		t.Fatal(err)
	}
	_, term0, _, _, ok := l.s.LeaderTerm(ctx)
	if !ok || term0 == 0 {
		t.Fatalf("LeaderTerm of a routed request: term %d ok %v", term0, ok)
	}
	other := c.next(l)
	c.transferLeader(l, other)
	c.transferLeader(other, l)
	if term := l.s.peer(1).term.Load(); term <= term0 {
		t.Fatalf("the first store leads again in term %d, routed in %d", term, term0)
	}
	err = l.s.Write(ctx, writeBatch(key(1), "stale"))
	if AsRegionError(err) == nil {
		t.Fatalf("write routed in term %d, applied in term %d: %v, want a region error", term0, l.s.peer(1).term.Load(), err)
	}
	if err := c.put(key(2), []byte("fresh")); err != nil {
		t.Fatalf("a freshly routed write: %v", err)
	}
	if v, err := c.get(key(1)); err != nil || v != nil {
		t.Fatalf("key 1 = %q, %v; the refused write must not apply", v, err)
	}
}

// testHandoff is a LockHandoff from functions: locks gives the
// hand-off (nil: nothing), pending answers HandoffPending (nil: false),
// ended hears HandoffEnded (nil: nothing).
type testHandoff struct {
	locks   func(regionID, term uint64, split bool) *engine.Batch
	pending func() bool
	ended   func(regionID, term uint64)
}

func (h testHandoff) HandoffLocks(regionID, term uint64, split bool) *engine.Batch {
	if h.locks == nil {
		return &engine.Batch{}
	}
	return h.locks(regionID, term, split)
}

func (h testHandoff) HandoffPending(uint64, uint64) bool { return h.pending != nil && h.pending() }

func (h testHandoff) HandoffEnded(regionID, term uint64) {
	if h.ended != nil {
		h.ended(regionID, term)
	}
}

// A leader asked to transfer leadership first proposes what its
// LockHandoff returns (the in-memory pessimistic locks): the new leader
// has it without anyone writing it again.
func TestTransferLeaderHandsOffLocks(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	var asked atomic.Int64
	c.handoff = testHandoff{locks: func(regionID, term uint64, split bool) *engine.Batch {
		if split {
			t.Error("a transfer's hand-off was asked as a split's")
		}
		asked.Add(1)
		return writeBatch(key(7), fmt.Sprintf("lock of region %d term %d", regionID, term))
	}}
	for id := uint64(1); id <= 3; id++ {
		c.stop(id)
		c.restart(id)
	}
	l := c.leader(1)
	term := l.s.peer(1).term.Load()
	to := c.next(l)
	c.transferLeader(l, to)
	want := fmt.Sprintf("lock of region 1 term %d", term)
	c.waitFor("the handed-over write applied on the new leader", func() bool {
		return string(c.localGet(to.id, key(7))) == want
	})
	if asked.Load() == 0 {
		t.Fatal("the hand-off was never asked")
	}
}

// A leader transfer waits while a write whose lock the hand-off left out
// is on its way (raft would drop that write during the transfer), and
// goes on once it is not.
func TestTransferLeaderWaitsForPendingHandoff(t *testing.T) {
	cfg := fastConfig()
	cfg.HandoffWait = time.Minute
	c := newTestCluster(t, 3, cfg)
	var pending atomic.Bool
	var asked atomic.Int64
	pending.Store(true)
	c.handoff = testHandoff{pending: func() bool {
		asked.Add(1)
		return pending.Load()
	}}
	for id := uint64(1); id <= 3; id++ {
		c.stop(id)
		c.restart(id)
	}
	from := c.leader(1)
	to := c.next(from)
	peerID := peerOn(from, to)
	// Asked until the transferee replicates (a leader refuses before).
	c.waitFor("the transfer to wait for the pending write", func() bool {
		if asked.Load() >= 3 {
			return true
		}
		from.s.TransferLeader(1, peerID)
		return false
	})
	if !from.s.IsLeader(1) || to.s.IsLeader(1) {
		t.Fatal("leadership moved while a write was pending")
	}
	pending.Store(false)
	c.waitFor("the transferee to lead", func() bool { return to.s.IsLeader(1) })
}

// Writes in flight when a leader transfers leadership are answered by
// their apply (their entries are in the transferee's log, which commits
// them) or as StaleCommand, never UndeterminedResult: a planned transfer
// must not turn into errors a client cannot retry.
func TestTransferLeaderAnswersInFlightWrites(t *testing.T) {
	cfg := fastConfig()
	cfg.ElectionTicks = 50 // a deposed leader waits 2 s for its writes' fate: far more than they need
	c := newTestCluster(t, 3, cfg)
	c.leader(1)
	ctx, cancel := context.WithCancel(context.Background())
	var undetermined, acked atomic.Int64
	done := make(chan struct{})
	const writers = 8
	for w := range writers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; ctx.Err() == nil; i++ {
				ls := c.leaderOf(1)
				if ls == nil {
					runtime.Gosched()
					continue
				}
				rctx, err := ls.s.Route(ctx, regionContext(ls.s, 1), false)
				if err == nil {
					err = ls.s.Write(rctx, writeBatch(key(w), fmt.Sprint(i)))
				}
				if re := AsRegionError(err); re != nil && re.GetUndeterminedResult() != nil {
					undetermined.Add(1)
				} else if err == nil {
					acked.Add(1)
				}
			}
		}()
	}
	for range 6 {
		l := c.leader(1)
		before := acked.Load()
		c.waitFor("writes under this leader", func() bool { return acked.Load() > before+20 })
		c.transferLeader(l, c.next(l))
	}
	cancel()
	for range writers {
		<-done
	}
	if n := undetermined.Load(); n > 0 {
		t.Fatalf("%d writes answered UndeterminedResult across planned transfers (%d acknowledged)", n, acked.Load())
	}
	t.Logf("%d writes acknowledged across 6 transfers", acked.Load())
}

// A leader refuses to hand leadership to a follower far behind (raft
// would drop every proposal until that follower caught up and won, up to
// an election timeout), and keeps taking writes; a follower replicating
// close behind takes over.
func TestTransferLeaderRefusesLaggingFollower(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	l := c.leader(1)
	lagging := c.next(l)
	cut := lagging.id
	c.trans.SetFilter(func(from, to uint64, _ *raftserverpb.RaftMessage) bool { return from != cut && to != cut })
	for i := range 2 * maxTransferLag {
		if err := c.put(key(i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	var lagPeer uint64
	for _, pr := range l.s.peer(1).Region().GetPeers() {
		if pr.GetStoreId() == cut {
			lagPeer = pr.GetId()
		}
	}
	l.s.TransferLeader(1, lagPeer)
	// The mailbox is FIFO: this write is proposed after the refused transfer.
	ctx, err := l.s.Route(context.Background(), regionContext(l.s, 1), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.s.Write(ctx, writeBatch(key(0), "after")); err != nil {
		t.Fatalf("a write right after a transfer to a lagging follower: %v", err)
	}
	c.trans.SetFilter(nil)
	c.transferLeader(l, lagging)
}

// A leader does not send an append that would only tell an up-to-date
// follower the new commit index; the followers still apply every write
// (the commit index comes with the next append or heartbeat).
func TestCommitOnlyAppendsDropped(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	l := c.leader(1)
	before := l.s.Stats()
	for i := range 20 {
		if err := c.put(key(i), []byte("v")); err != nil {
			t.Fatal(err)
		}
	}
	for id := uint64(1); id <= 3; id++ {
		c.waitFor(fmt.Sprintf("store %d applied the last write", id), func() bool {
			return bytes.Equal(c.localGet(id, key(19)), []byte("v"))
		})
	}
	after := l.s.Stats()
	if after.CommitOnlyDropped == before.CommitOnlyDropped {
		t.Fatalf("20 sequential writes: no commit-only append dropped (%d messages sent)", after.RaftMessagesSent-before.RaftMessagesSent)
	}
	t.Logf("20 writes: %d messages sent, %d commit-only appends dropped",
		after.RaftMessagesSent-before.RaftMessagesSent, after.CommitOnlyDropped-before.CommitOnlyDropped)
}
