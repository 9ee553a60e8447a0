package raftstore

import (
	"context"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// A command routed to one region sees only that region's keys, in every
// key space, and cannot write outside it.
func TestRegionSnapshotBounds(t *testing.T) {
	eng, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	var b engine.Batch
	for _, k := range []string{"a", "m", "z"} {
		b.Put(mvcc.LockKey([]byte(k)), []byte("lock"))
		b.Put(mvcc.WriteKey([]byte(k), 5), []byte("write"))
		b.Put(mvcc.DataKey([]byte(k), 4), []byte("data"))
	}
	if err := eng.Write(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	region := &kvrpcpb.Region{Id: 7, StartKey: []byte("b"), EndKey: []byte("n")}
	raw, err := eng.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ranges := mvcc.EngineRanges(region.GetStartKey(), region.GetEndKey())
	snap := newRegionSnapshot(raw, ranges)
	defer snap.Close()
	for _, space := range []struct {
		name   string
		lo, hi []byte
	}{
		{"lock", []byte{'l'}, []byte{'m'}},
		{"write", []byte{'w'}, []byte{'x'}},
		{"data", []byte{'d'}, []byte{'e'}},
		{"lock, no upper bound", mvcc.LockKey(nil), nil},
	} {
		it, err := snap.NewIter(space.lo, space.hi)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for ok := it.First(); ok; ok = it.Next() {
			k, _ := mvcc.UserKeyOf(it.Key())
			keys = append(keys, string(k))
		}
		it.Close()
		if len(keys) != 1 || keys[0] != "m" {
			t.Errorf("%s space: region [b, n) sees %q, want [m]", space.name, keys)
		}
	}
	ps, ok := snap.(engine.PartialSnapshot)
	if !ok {
		t.Fatal("a region snapshot does not say what it covers")
	}
	for k, want := range map[string]bool{"a": false, "b": true, "m": true, "n": false, "z": false} {
		if got := ps.Covers(mvcc.WritePrefix(nil, []byte(k))); got != want {
			t.Errorf("Covers(write prefix of %q) = %v, want %v", k, got, want)
		}
	}
	var out engine.Batch
	out.Put(mvcc.LockKey([]byte("m")), nil)
	if err := checkKeysInRegion(&out, region, ranges); err != nil {
		t.Fatalf("a key inside the region: %v", err)
	}
	out.Put(mvcc.WriteKey([]byte("z"), 9), nil)
	if re := AsRegionError(checkKeysInRegion(&out, region, ranges)); re.GetKeyNotInRegion() == nil {
		t.Fatalf("a key outside the region: %v", re)
	}
}
