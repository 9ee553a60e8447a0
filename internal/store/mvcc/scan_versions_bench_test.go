package mvcc

import (
	"context"
	"math/rand"
	"os"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/strata-db/strata/internal/store/engine"
)

// The many-versions dataset: versionKeys user keys, one in ten "hot" with
// 50-200 committed Puts, the others with 1 or 2, as sysbench's
// --rand-type=special leaves them when there is no MVCC GC. Version j of a
// key (j = 0 oldest) is committed at 10*(j+1), so a read at
// versionsOldTS sees the second version of a key and has every newer one
// of a hot key to skip, and a read at versionsNewTS sees the newest.
const (
	versionKeys   = 50_000
	versionsOldTS = 25
	versionsNewTS = 1 << 40
	scanRows      = 100
)

var versionsBench struct {
	once sync.Once
	dir  string
	eng  *engine.Pebble
	hot  []int // indexes of the hot keys
	err  error
}

// versionsEngine loads the dataset once per test binary; TestMain closes
// and removes it (closeVersionsEngine).
func versionsEngine(b *testing.B) *engine.Pebble {
	versionsBench.once.Do(func() {
		vb := &versionsBench
		vb.dir, vb.err = os.MkdirTemp("", "mvcc-versions-bench-")
		if vb.err != nil {
			return
		}
		vb.eng, vb.err = engine.Open(vb.dir, WithKeySplit(engine.Options{Logger: quietLogger{}, CacheSize: 256 << 20}))
		if vb.err != nil {
			return
		}
		db := vb.eng.DB()
		rng := rand.New(rand.NewSource(1))
		batch := db.NewBatch()
		var val []byte
		for i := 0; i < versionKeys; i++ {
			n := 1 + rng.Intn(2)
			if rng.Intn(10) == 0 {
				n = 50 + rng.Intn(151)
				vb.hot = append(vb.hot, i)
			}
			key := benchKey(i)
			for j := 0; j < n; j++ {
				cts := uint64(10 * (j + 1))
				w := Write{Type: WriteTypePut, StartTS: cts - 1, ShortValue: []byte("value-0123456789"), HasValue: true}
				val = w.Encode(val[:0])
				if vb.err = batch.Set(WriteKey(key, cts), val, nil); vb.err != nil {
					return
				}
			}
			if batch.Count() >= 50_000 || i == versionKeys-1 {
				if vb.err = batch.Commit(pebble.NoSync); vb.err != nil {
					return
				}
				batch.Close()
				batch = db.NewBatch()
			}
		}
		batch.Close()
		if vb.err = db.Flush(); vb.err != nil {
			return
		}
		if vb.err = db.Compact(context.Background(), []byte{0}, []byte{0xff}, true); vb.err != nil {
			return
		}
		it, err := db.NewIter(nil)
		if err != nil {
			vb.err = err
			return
		}
		for ok := it.First(); ok; ok = it.Next() {
		}
		vb.err = it.Close()
	})
	if versionsBench.err != nil {
		b.Fatal(versionsBench.err)
	}
	return versionsBench.eng
}

// closeVersionsEngine releases the dataset; TestMain calls it.
func closeVersionsEngine() {
	if versionsBench.eng != nil {
		_ = versionsBench.eng.Close()
		_ = os.RemoveAll(versionsBench.dir)
	}
}

// BenchmarkScanVersions: a 100-row scan (sysbench's range statements)
// starting at a pseudo-random key, on one Reader, forward and reverse,
// reading at the newest ts or at an old ts under which hot keys have
// 48-198 newer versions.
func BenchmarkScanVersions(b *testing.B) {
	for _, c := range []struct {
		name    string
		ts      uint64
		reverse bool
	}{
		{"fwd/newest", versionsNewTS, false},
		{"fwd/old", versionsOldTS, false},
		{"rev/newest", versionsNewTS, true},
		{"rev/old", versionsOldTS, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := versionsEngine(b)
			snap, err := e.Snapshot(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer snap.Close()
			r := NewReader(snap)
			defer r.Close()
			var start, end []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				first := (i * 7919) % (versionKeys - scanRows)
				start = appendBenchKey(start[:0], first)
				end = appendBenchKey(end[:0], first+scanRows)
				pairs, err := r.Scan(start, end, scanRows, c.ts, c.reverse, nil)
				if err != nil || len(pairs) != scanRows {
					b.Fatal(len(pairs), err)
				}
			}
		})
	}
}

// BenchmarkGetVersions: point reads of hot keys at the newest and at an
// old ts.
func BenchmarkGetVersions(b *testing.B) {
	for _, c := range []struct {
		name string
		ts   uint64
	}{
		{"newest", versionsNewTS},
		{"old", versionsOldTS},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := versionsEngine(b)
			snap, err := e.Snapshot(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer snap.Close()
			r := NewReader(snap)
			defer r.Close()
			hot := versionsBench.hot
			var key []byte
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				key = appendBenchKey(key[:0], hot[(i*7919)%len(hot)])
				_, found, err := r.Get(key, c.ts, &ReadOptions{SkipLockCheck: true})
				if err != nil || !found {
					b.Fatal(found, err)
				}
			}
		})
	}
}
