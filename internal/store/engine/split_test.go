package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// testSplit: keys "v:<name>#<1-digit version>" split before '#'; others
// are their own prefix.
func testSplit(k []byte) int {
	if i := strings.IndexByte(string(k), '#'); strings.HasPrefix(string(k), "v:") && i > 0 {
		return i
	}
	return len(k)
}

// testSplitOptions are the options of an engine split by testSplit on fs.
func testSplitOptions(fs vfs.FS) Options {
	return Options{FS: fs, CacheSize: 1 << 20, Split: testSplit, ComparerName: "test.split",
		ImmediateSuccessor: func(dst, p []byte) []byte { return append(append(dst, p...), '#', 0xFF) }}
}

// With a Split, iterators seek by prefix: SeekPrefixGE finds a prefix's
// versions from any level (flushed sstables with prefix bloom filters
// included), never another prefix's, and reports an absent prefix.
func TestSplitPrefixSeek(t *testing.T) {
	ctx := context.Background()
	fs := vfs.NewMem()
	e, err := Open("db", testSplitOptions(fs))
	if err != nil {
		t.Fatal(err)
	}
	var b Batch
	for _, k := range []string{"v:a#1", "v:a#2", "v:ab#1", "v:c#5", "lock"} {
		b.Put([]byte(k), []byte(k))
	}
	if err := e.Write(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if err := e.DB().Flush(); err != nil {
		t.Fatal(err)
	}
	var b2 Batch
	b2.Put([]byte("v:a#3"), []byte("v:a#3")) // a newer version in the memtable
	if err := e.Write(ctx, &b2); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.(PrefixSnapshot).PrefixSeeks() {
		t.Fatal("a snapshot of an engine with a Split does not seek by prefix")
	}
	it, err := snap.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ps := it.(PrefixSeeker)
	var got []string
	for ok := ps.SeekPrefixGE([]byte("v:a#0")); ok; ok = it.Next() {
		got = append(got, string(it.Key()))
	}
	if strings.Join(got, " ") != "v:a#1 v:a#2 v:a#3" {
		t.Fatalf("versions of v:a = %q", got)
	}
	if !it.SeekGE([]byte("v:a#1")) || !it.(PrefixNexter).NextPrefix() || string(it.Key()) != "v:ab#1" {
		t.Fatalf("NextPrefix from v:a#1 is not on v:ab#1 (valid=%v)", it.Valid())
	}
	if ps.SeekPrefixGE([]byte("v:b#0")) {
		t.Fatalf("absent prefix v:b found %q", it.Key())
	}
	if !ps.SeekPrefixGE([]byte("lock")) || string(it.Key()) != "lock" {
		t.Fatal("a key that is its own prefix is not found")
	}
	_ = it.Close()
	_ = snap.Close()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// The database is tied to its comparer name.
	if _, err := Open("db", Options{FS: fs, CacheSize: 1 << 20}); err == nil {
		t.Fatal("opened a split database without its comparer")
	}
	if _, err := Open("db2", Options{FS: fs, Split: testSplit}); err == nil {
		t.Fatal("a Split without a ComparerName was accepted")
	}
	without, err := Open("db3", Options{FS: fs, CacheSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer without.Close()
	s3, _ := without.Snapshot(ctx)
	defer s3.Close()
	if s3.(PrefixSnapshot).PrefixSeeks() {
		t.Fatal("an engine without a Split claims prefix seeks")
	}
}

// A key's older versions keep their values inline in the data blocks
// (inlineOlderVersions): a flushed table holding many versions of its
// keys has no value in a value block.
func TestOlderVersionsInline(t *testing.T) {
	ctx := context.Background()
	e, err := Open("db", testSplitOptions(vfs.NewMem()))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var b Batch
	value := []byte(strings.Repeat("x", 100))
	for k := 0; k < 100; k++ {
		for v := 9; v >= 1; v-- {
			b.Put([]byte(fmt.Sprintf("v:%03d#%d", k, v)), value)
		}
	}
	if err := e.Write(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if err := e.DB().Flush(); err != nil {
		t.Fatal(err)
	}
	levels, err := e.DB().SSTables(pebble.WithProperties())
	if err != nil {
		t.Fatal(err)
	}
	var entries, inBlocks uint64
	for _, level := range levels {
		for _, tbl := range level {
			entries += tbl.Properties.NumEntries
			inBlocks += tbl.Properties.NumValuesInValueBlocks
		}
	}
	if entries != 900 || inBlocks != 0 {
		t.Fatalf("flushed tables hold %d entries (want 900), %d values in value blocks (want 0)", entries, inBlocks)
	}
}
