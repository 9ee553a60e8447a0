package engine

import (
	"context"
	"testing"
)

// TestSnapshotAnchor checks that a read's snapshot is never the earliest
// one when it closes (so its Close does not run Pebble's compaction
// picker), and that rotating the anchor moves the earliest snapshot on.
func TestSnapshotAnchor(t *testing.T) {
	ctx := context.Background()
	e := openMem(t, false)
	e.anchor.stopRotation() // the test rotates it
	snapshots := func() (int, uint64) {
		m := e.DB().Metrics()
		return m.Snapshots.Count, uint64(m.Snapshots.EarliestSeqNum)
	}
	n, first := snapshots()
	if n != 1 {
		t.Fatalf("open snapshots after Open = %d, want 1 (the anchor)", n)
	}
	var b Batch
	b.Put([]byte("k"), []byte("v"))
	if err := e.Write(ctx, &b); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, earliest := snapshots(); n != 2 || earliest != first {
		t.Fatalf("with a read open: %d snapshots, earliest %d; want 2, %d", n, earliest, first)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	if n, earliest := snapshots(); n != 1 || earliest != first {
		t.Fatalf("after the read: %d snapshots, earliest %d; want 1, %d (the anchor)", n, earliest, first)
	}
	e.anchor.rotate()
	if n, earliest := snapshots(); n != 1 || earliest <= first {
		t.Fatalf("after rotate: %d snapshots, earliest %d; want 1, after %d", n, earliest, first)
	}
	e.anchor.close()
	if n, _ := snapshots(); n != 0 {
		t.Fatalf("after close: %d snapshots, want 0", n)
	}
	e.anchor.close() // again: nothing happens; Cleanup's Close does it a third time
}
