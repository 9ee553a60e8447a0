package raftstore

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

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
	var other *testStore
	for _, ts := range c.stores {
		if ts.id != l.id {
			other = ts
			break
		}
	}
	for _, pr := range l.s.peer(1).Region().GetPeers() {
		if pr.GetStoreId() == other.id {
			l.s.TransferLeader(1, pr.GetId())
		}
	}
	c.waitFor("the other store leads", func() bool { return other.s.IsLeader(1) })
	for _, pr := range other.s.peer(1).Region().GetPeers() {
		if pr.GetStoreId() == l.id {
			other.s.TransferLeader(1, pr.GetId())
		}
	}
	c.waitFor("the first store leads again", func() bool { return l.s.IsLeader(1) && l.s.peer(1).term.Load() > term0 })
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

// handoffFunc is a LockHandoff from a function.
type handoffFunc func(regionID, term uint64) *engine.Batch

func (f handoffFunc) HandoffLocks(regionID, term uint64) *engine.Batch { return f(regionID, term) }

// A leader asked to transfer leadership first proposes what its
// LockHandoff returns (the in-memory pessimistic locks): the new leader
// has it without anyone writing it again.
func TestTransferLeaderHandsOffLocks(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	var asked atomic.Int64
	c.handoff = handoffFunc(func(regionID, term uint64) *engine.Batch {
		asked.Add(1)
		return writeBatch(key(7), fmt.Sprintf("lock of region %d term %d", regionID, term))
	})
	for id := uint64(1); id <= 3; id++ {
		c.stop(id)
		c.restart(id)
	}
	l := c.leader(1)
	term := l.s.peer(1).term.Load()
	var to *testStore
	for _, ts := range c.stores {
		if ts.id != l.id {
			to = ts
			break
		}
	}
	for _, pr := range l.s.peer(1).Region().GetPeers() {
		if pr.GetStoreId() == to.id {
			l.s.TransferLeader(1, pr.GetId())
		}
	}
	c.waitFor("the transferee leads", func() bool { return to.s.IsLeader(1) })
	want := fmt.Sprintf("lock of region 1 term %d", term)
	c.waitFor("the handed-over write applied on the new leader", func() bool {
		return string(c.localGet(to.id, key(7))) == want
	})
	if asked.Load() == 0 {
		t.Fatal("the hand-off was never asked")
	}
}
