package raftstore

import (
	"math"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"
)

// TestPeerStorageCache: appends, an overwrite of a conflicting tail and a
// compaction keep Entries and Term right, and a slice Entries returned
// before the overwrite still holds the entries it had (the cache grows in
// place, so Entries must never hand out the cache's own array).
func TestPeerStorageCache(t *testing.T) {
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ps := &peerStorage{regionID: 7, raftdb: db, hardState: &raftpb.HardState{}, confState: &raftpb.ConfState{},
		truncated: truncState{Index: 5, Term: 5}, lastIndex: 5, lastTerm: 5}
	ents := func(lo, hi, term uint64) []*raftpb.Entry {
		var out []*raftpb.Entry
		for i := lo; i < hi; i++ {
			out = append(out, &raftpb.Entry{Index: proto.Uint64(i), Term: proto.Uint64(term), Data: []byte{byte(i), byte(term)}})
		}
		return out
	}
	appendAll := func(es []*raftpb.Entry) {
		t.Helper()
		wb := db.NewBatch()
		if err := ps.append(wb, es); err != nil {
			t.Fatal(err)
		}
		if err := wb.Commit(pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	check := func(lo, hi uint64, term func(i uint64) uint64) {
		t.Helper()
		got, err := ps.Entries(lo, hi, math.MaxUint64)
		if err != nil || len(got) != int(hi-lo) {
			t.Fatalf("Entries(%d, %d): %d entries, %v", lo, hi, len(got), err)
		}
		for k, e := range got {
			i := lo + uint64(k)
			if e.GetIndex() != i || e.GetTerm() != term(i) {
				t.Fatalf("entry %d: index %d term %d, want term %d", i, e.GetIndex(), e.GetTerm(), term(i))
			}
			if tm, err := ps.Term(i); err != nil || tm != term(i) {
				t.Fatalf("Term(%d) = %d, %v; want %d", i, tm, err, term(i))
			}
		}
	}
	for lo := uint64(6); lo < 206; lo += 10 {
		appendAll(ents(lo, lo+10, 6))
	}
	check(6, 206, func(uint64) uint64 { return 6 })
	before, err := ps.Entries(100, 206, math.MaxUint64)
	if err != nil {
		t.Fatal(err)
	}
	// A new leader's log replaces the tail from 150 on, and is shorter.
	appendAll(ents(150, 180, 7))
	if ps.lastIndex != 179 {
		t.Fatalf("last index %d after the overwrite, want 179", ps.lastIndex)
	}
	newTerm := func(i uint64) uint64 {
		if i >= 150 {
			return 7
		}
		return 6
	}
	check(6, 180, newTerm)
	for k, e := range before {
		if e.GetIndex() != 100+uint64(k) || e.GetTerm() != 6 {
			t.Fatalf("an earlier Entries result changed: entry %d is now index %d term %d", 100+k, e.GetIndex(), e.GetTerm())
		}
	}
	// Past the cache's bound (maxCachedEntries), then compacted: the
	// entries still read back, from the cache or from raftdb.
	for lo := uint64(180); lo < 180+2*maxCachedEntries; lo += 100 {
		appendAll(ents(lo, lo+100, 7))
	}
	last := ps.lastIndex
	check(6, last+1, newTerm)
	wb := db.NewBatch()
	if err := ps.compactTo(wb, 1000, 7); err != nil {
		t.Fatal(err)
	}
	if err := wb.Commit(pebble.Sync); err != nil {
		t.Fatal(err)
	}
	check(1001, last+1, newTerm)
	if _, err := ps.Entries(1000, 1002, math.MaxUint64); err == nil {
		t.Fatal("Entries below the compaction point: no error")
	}
}
