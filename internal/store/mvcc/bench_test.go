package mvcc

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/strata-db/strata/internal/store/engine"
)

// The benchmark engine: 1M committed keys on disk, Sync on, loaded once per
// test binary with NoSync batches straight into Pebble.
const benchKeys = 1_000_000

var bench struct {
	once sync.Once
	dir  string
	eng  *engine.Pebble
	err  error
	ts   uint64 // next timestamp; benchmarks run sequentially
}

func benchKey(i int) []byte { return appendBenchKey(nil, i) }

// appendBenchKey appends "user%08d" without fmt (keeps the benchmark loop
// free of formatting costs).
func appendBenchKey(dst []byte, i int) []byte {
	dst = append(dst, "user"...)
	var d [8]byte
	for j := 7; j >= 0; j-- {
		d[j] = byte('0' + i%10)
		i /= 10
	}
	return append(dst, d[:]...)
}

func benchEngine(b *testing.B) *engine.Pebble {
	bench.once.Do(func() {
		bench.dir, bench.err = os.MkdirTemp("", "mvcc-bench-")
		if bench.err != nil {
			return
		}
		bench.eng, bench.err = engine.Open(bench.dir, WithKeySplit(engine.Options{Sync: true, Logger: quietLogger{}, CacheSize: 256 << 20}))
		if bench.err != nil {
			return
		}
		db := bench.eng.DB()
		w := Write{Type: WriteTypePut, StartTS: 5, ShortValue: []byte("value-0123456789"), HasValue: true}
		val := w.Encode(nil)
		batch := db.NewBatch()
		for i := 0; i < benchKeys; i++ {
			if err := batch.Set(WriteKey(benchKey(i), 10), val, nil); err != nil {
				bench.err = err
				return
			}
			if batch.Count() == 50_000 || i == benchKeys-1 {
				if bench.err = batch.Commit(pebble.NoSync); bench.err != nil {
					return
				}
				batch.Close()
				batch = db.NewBatch()
			}
		}
		batch.Close()
		if bench.err = db.Flush(); bench.err != nil {
			return
		}
		// Settle the LSM and warm the block cache, so the benchmarks
		// measure the read path rather than background compactions.
		if bench.err = db.Compact(context.Background(), []byte{0}, []byte{0xff}, true); bench.err != nil {
			return
		}
		it, err := db.NewIter(nil)
		if err != nil {
			bench.err = err
			return
		}
		for ok := it.First(); ok; ok = it.Next() {
		}
		bench.err = it.Close()
		bench.ts = 100
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.eng
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.eng != nil {
		_ = bench.eng.Close()
		_ = os.RemoveAll(bench.dir)
	}
	closeVersionsEngine()
	os.Exit(code)
}

// BenchmarkGet: point get of a present key on one Reader (the reader's
// iterator is reused across Gets).
func BenchmarkGet(b *testing.B) {
	e := benchEngine(b)
	snap, _ := e.Snapshot(context.Background())
	defer snap.Close()
	r := NewReader(snap)
	defer r.Close()
	var key []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		key = appendBenchKey(key[:0], (i*7919)%benchKeys)
		_, found, err := r.Get(key, 50, nil)
		if err != nil || !found {
			b.Fatal(found, err)
		}
	}
}

// BenchmarkGetSnapshotPerOp: snapshot + reader + get per operation, as a
// point-select request does.
func BenchmarkGetSnapshotPerOp(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	keys := make([][]byte, 1024)
	for i := range keys {
		keys[i] = benchKey((i * 7919) % benchKeys)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		snap, _ := e.Snapshot(ctx)
		r := NewReader(snap)
		_, found, err := r.Get(keys[i%len(keys)], 50, nil)
		r.Close()
		snap.Close()
		if err != nil || !found {
			b.Fatal(found, err)
		}
	}
}

type nopMem struct{ maxTS uint64 }

func (m nopMem) LockKey(key []byte, fill func(maxTS uint64) *Lock) { fill(m.maxTS) }

func runAction(b *testing.B, e engine.Engine, startTS uint64, f func(t *Txn, r *Reader) error) {
	ctx := context.Background()
	snap, err := e.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	r := NewReader(snap)
	t := NewTxn(startTS)
	err = f(t, r)
	r.Close()
	snap.Close()
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Write(ctx, t.Batch()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPrewriteCommit: a 1-key 2PC transaction: prewrite and commit,
// each its own synced engine write.
func BenchmarkPrewriteCommit(b *testing.B) {
	e := benchEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		key := benchKey((i * 7919) % benchKeys)
		start := bench.ts
		bench.ts += 2
		runAction(b, e, start, func(t *Txn, r *Reader) error {
			_, err := Prewrite(t, r, &PrewriteParams{Primary: key, StartTS: start, LockTTL: 3000},
				Mutation{Op: OpPut, Key: key, Value: []byte("new-value-012345")})
			return err
		})
		runAction(b, e, start, func(t *Txn, r *Reader) error {
			return Commit(t, r, key, start, start+1)
		})
	}
}

// BenchmarkOnePC: a 1-key 1PC transaction: one synced engine write.
func BenchmarkOnePC(b *testing.B) {
	e := benchEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		key := benchKey((i * 7919) % benchKeys)
		start := bench.ts
		bench.ts += 2
		runAction(b, e, start, func(t *Txn, r *Reader) error {
			mc, err := Prewrite(t, r, &PrewriteParams{Primary: key, StartTS: start, LockTTL: 3000, TryOnePC: true, Mem: nopMem{start}},
				Mutation{Op: OpPut, Key: key, Value: []byte("new-value-012345")})
			t.CommitOnePC(mc)
			return err
		})
	}
}
