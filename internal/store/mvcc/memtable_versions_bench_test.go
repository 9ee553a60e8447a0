package mvcc

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/strata-db/strata/internal/store/engine"
)

// The hot-band dataset: hotBandKeys user keys with one compacted version
// each, then hotBandUpdates single-key commits as sysbench's
// --rand-type=special makes them (75% on the 1% of keys in the middle),
// left where the engine put them: in memtables, or flushed to L0 and
// compacted when the memtable is small.
const (
	hotBandKeys    = 100_000
	hotBandUpdates = 100_000
	hotBandValue   = 180               // a sysbench row, inlined in its write record
	hotBandFirst   = hotBandKeys / 2   // the first hot key
	hotBandWidth   = hotBandKeys / 100 // the number of hot keys
)

// hotBandEngine opens an engine with the given memtable size in b's temp
// dir and loads the dataset.
func hotBandEngine(b *testing.B, memTable int64) *engine.Pebble {
	e, err := engine.Open(b.TempDir(), WithKeySplit(engine.Options{Logger: quietLogger{}, CacheSize: 256 << 20, MemTableSize: memTable}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = e.Close() })
	db := e.DB()
	val := make([]byte, hotBandValue)
	put := func(batch *pebble.Batch, i int, cts uint64) {
		w := Write{Type: WriteTypePut, StartTS: cts - 1, ShortValue: val, HasValue: true}
		if err := batch.Set(WriteKey(benchKey(i), cts), w.Encode(nil), nil); err != nil {
			b.Fatal(err)
		}
	}
	batch := db.NewBatch()
	for i := 0; i < hotBandKeys; i++ {
		put(batch, i, 10)
	}
	if err := batch.Commit(pebble.NoSync); err != nil {
		b.Fatal(err)
	}
	if err := db.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := db.Compact(context.Background(), []byte{0}, []byte{0xff}, true); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for u := 0; u < hotBandUpdates; u++ {
		i := rng.Intn(hotBandKeys)
		if rng.Intn(4) != 0 {
			i = hotBandFirst + rng.Intn(hotBandWidth)
		}
		batch := db.NewBatch()
		put(batch, i, uint64(20+u))
		if err := batch.Commit(pebble.NoSync); err != nil {
			b.Fatal(err)
		}
	}
	// Let the flushes and compactions the load started finish, so that
	// they do not run during the timed loop.
	for m := db.Metrics(); m.Compact.NumInProgress > 0 || m.Flush.NumInProgress > 0; m = db.Metrics() {
		time.Sleep(10 * time.Millisecond) // polling interval
	}
	return e
}

// BenchmarkHotBand: a 100-row scan starting in the hot band and a point
// read of a hot key, at the newest ts, by kvdb memtable size. A hot key
// has tens of versions: in a large memtable, leaving them costs a
// skiplist seek per key (arenaskl's NextPrefix steps five times, then
// seeks from the top), while a table's NextPrefix stays in its block.
func BenchmarkHotBand(b *testing.B) {
	for _, mt := range []int64{4 << 20, 8 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("memtable=%dMiB", mt>>20), func(b *testing.B) {
			e := hotBandEngine(b, mt)
			snap, err := e.Snapshot(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer snap.Close()
			b.Run("scan", func(b *testing.B) {
				r := NewReader(snap)
				defer r.Close()
				var start, end []byte
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					first := hotBandFirst + (i*7919)%hotBandWidth
					start = appendBenchKey(start[:0], first)
					end = appendBenchKey(end[:0], first+scanRows)
					pairs, err := r.Scan(start, end, scanRows, versionsNewTS, false, nil)
					if err != nil || len(pairs) != scanRows {
						b.Fatal(len(pairs), err)
					}
				}
			})
			b.Run("get", func(b *testing.B) {
				r := NewReader(snap)
				defer r.Close()
				var key []byte
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					key = appendBenchKey(key[:0], hotBandFirst+(i*7919)%hotBandWidth)
					if _, found, err := r.Get(key, versionsNewTS, &ReadOptions{SkipLockCheck: true}); err != nil || !found {
						b.Fatal(found, err)
					}
				}
			})
		})
	}
}
