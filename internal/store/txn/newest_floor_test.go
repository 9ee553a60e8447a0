package txn

import (
	"context"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// below reports whether n says every record of key is below ts.
func below(n *newestWrites, key string, ts uint64) bool { return n.Below(prefixOf(key), ts) }

// write applies b to n as an engine write that landed (or failed).
func write(n *newestWrites, b *engine.Batch, written bool) {
	n.beforeWrite(b)
	n.afterWrite(b, written)
}

// establish gives n the floor ts.
func establish(t *testing.T, n *newestWrites, ts uint64) {
	t.Helper()
	if !n.endFloor(n.beginFloor(), ts) {
		t.Fatal("floor not established")
	}
}

func TestNewestFloorBoundsKeysWithoutEntries(t *testing.T) {
	n := newNewestWrites(1 << 20)
	if below(n, "a", 1000) {
		t.Fatal("a floor before any was established")
	}
	establish(t, n, 50)
	if !below(n, "a", 51) || below(n, "a", 50) {
		t.Fatal("floor 50: want every record of a key without an entry below 51, not below 50")
	}

	// A record above the floor makes its key known: it is the newest.
	write(n, commitBatch("b", "x", 60), true)
	if got := newest(n, "b"); got != "x@60" {
		t.Fatalf("after a write above the floor: %s", got)
	}
	if below(n, "b", 60) || !below(n, "b", 61) {
		t.Fatal("b's newest record is at 60")
	}

	// One at or below it (a late rollback, say) tells nothing of which is
	// the newest: the key stays unknown, still bounded by the floor.
	write(n, commitBatch("c", "old", 40), true)
	if got := newest(n, "c"); got != "unknown" {
		t.Fatalf("after a write below the floor: %s", got)
	}
	if !below(n, "c", 51) {
		t.Fatal("c's records are all at most the floor")
	}

	// Pending writes answer nothing.
	pb := commitBatch("a", "p", 70)
	n.beforeWrite(pb)
	if below(n, "a", 1000) {
		t.Fatal("a key under a write answered")
	}
	n.afterWrite(pb, true)

	// A failed write may have landed: the floor rises to its records.
	write(n, commitBatch("d", "y", 80), false)
	if below(n, "e", 80) || !below(n, "e", 81) {
		t.Fatal("after a failed write at 80: want the floor at 80")
	}

	// An entry that goes raises the floor to its record.
	var gc engine.Batch
	gc.Delete(mvcc.WriteKey([]byte("b"), 60))
	establishAt := n.floor
	write(n, &gc, true)
	if got := newest(n, "b"); got != "unknown" || n.floor != max(establishAt, 60) {
		t.Fatalf("after deleting b's newest record: %s, floor %d", got, n.floor)
	}

	// A range rewrite loses the floor until the next establishment.
	n.replacingData()
	if below(n, "a", 1000) {
		t.Fatal("answered during a range rewrite")
	}
	n.replacedData()
	if below(n, "e", 1000) {
		t.Fatal("answered after a range rewrite, before a new floor")
	}
	establish(t, n, 90)
	if !below(n, "e", 91) {
		t.Fatal("a new floor was not taken")
	}
}

func TestNewestFloorEvictionRaisesIt(t *testing.T) {
	n := newNewestWrites(4 * (newestEntryOverhead + 16))
	establish(t, n, 10)
	for i := range 50 {
		write(n, commitBatch(string(rune('A'+i)), "v", uint64(20+i)), true)
	}
	if n.bytes > n.budget {
		t.Fatalf("%d bytes over a budget of %d", n.bytes, n.budget)
	}
	// Every key still bounds its records correctly: a known key by its
	// entry, a forgotten one by the floor, raised past what was evicted.
	for i := range 50 {
		k, ts := string(rune('A'+i)), uint64(20+i)
		if below(n, k, ts) {
			t.Fatalf("%s: claimed below %d, its record's ts", k, ts)
		}
	}
	// The oldest of a sample goes first: the floor stays behind the
	// newest records.
	if n.floor >= 69 {
		t.Fatalf("floor %d: eviction took the newest records", n.floor)
	}
}

func TestNewestFloorEstablishmentRaced(t *testing.T) {
	n := newNewestWrites(1 << 20)

	// A write between beginFloor and the timestamp's arrival: its record
	// may be above the timestamp (asked before it committed); the floor
	// takes it.
	gen := n.beginFloor()
	write(n, commitBatch("a", "x", 80), true)
	if !n.endFloor(gen, 50) || below(n, "b", 80) || !below(n, "b", 81) {
		t.Fatalf("floor %d after a write at 80 during its establishment", n.floor)
	}

	// A range rewrite under way or ended since beginFloor: the floor is
	// not established (the rewrite's end asks again).
	n.replacingData()
	n.replacedData()
	gen = n.beginFloor()
	n.replacingData()
	if n.endFloor(gen, 100) {
		t.Fatal("established during a range rewrite")
	}
	n.replacedData()
	gen = n.beginFloor()
	n.replacingData()
	n.replacedData()
	if n.endFloor(gen, 100) || below(n, "b", 1000) {
		t.Fatal("established across a range rewrite")
	}
}

// TestRunNewestFloor: the loop asks the TSO at once and after every range
// rewrite, and stops with its context.
func TestRunNewestFloor(t *testing.T) {
	s, _ := newTestStorage(t, Options{})
	asked := make(chan chan uint64)
	tso := func(ctx context.Context) (uint64, error) {
		reply := make(chan uint64)
		select {
		case asked <- reply:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		return <-reply, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.RunNewestFloor(ctx, tso)
	}()
	answer := func(ts uint64) {
		t.Helper()
		select {
		case reply := <-asked:
			reply <- ts
		case <-time.After(10 * time.Second):
			t.Fatal("the TSO was not asked")
		}
	}
	// floorIs waits (bounded) until the loop has set the floor to ts.
	floorIs := func(ts uint64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !below(s.newest, "k", ts+1) || below(s.newest, "k", ts) {
			if time.Now().After(deadline) {
				t.Fatalf("floor not %d", ts)
			}
			time.Sleep(time.Millisecond)
		}
	}
	answer(100)
	floorIs(100)
	s.newest.replacingData()
	s.newest.replacedData()
	answer(200)
	floorIs(200)
	cancel()
	<-done
}
