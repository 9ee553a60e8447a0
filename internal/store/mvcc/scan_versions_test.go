package mvcc

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
)

// versionsModel is the expected reading of a write space built record by
// record: per key its write records, newest first, and its lock.
type versionsModel struct {
	keys     []string // sorted
	versions map[string][]modelRecord
	locks    map[string]*Lock
	long     map[string][]byte // DataKey -> long value
}

type modelRecord struct {
	commitTS uint64
	w        Write
}

// get is the value of key at ts by the rules of reference §2.1, written
// out plainly: a blocking lock, else the newest Put or Delete at or below
// ts, a Put hidden by a gc_fence at or below ts.
func (m *versionsModel) get(key string, ts uint64, o *ReadOptions) (value []byte, found bool, locked bool) {
	if l := m.locks[key]; l != nil && !o.IsolationRC && l.StartTS < ts {
		if !containsTS(o.CommittedLocks, l.StartTS) {
			return nil, false, true
		}
		return l.ShortValue, true, false
	}
	for _, r := range m.versions[key] {
		if r.commitTS > ts {
			continue
		}
		switch r.w.Type {
		case WriteTypeDelete:
			return nil, false, false
		case WriteTypePut:
			if r.w.GCFence != 0 && r.w.GCFence <= ts {
				return nil, false, false
			}
			if r.w.HasValue {
				return r.w.ShortValue, true, false
			}
			return m.long[string(DataKey([]byte(key), r.w.StartTS))], true, false
		}
	}
	return nil, false, false
}

// scan is Scan by the model: keys in range in scan order, locked keys
// included as errors, up to limit.
func (m *versionsModel) scan(start, end []byte, limit int, ts uint64, reverse bool, o *ReadOptions) []Pair {
	var out []Pair
	add := func(k string) bool {
		if bytes.Compare([]byte(k), start) < 0 || (len(end) > 0 && bytes.Compare([]byte(k), end) >= 0) {
			return true
		}
		v, found, locked := m.get(k, ts, o)
		switch {
		case locked:
			out = append(out, Pair{Key: []byte(k), Err: &kv.LockedError{}})
		case found:
			if o.KeyOnly {
				v = nil
			}
			out = append(out, Pair{Key: []byte(k), Value: v})
		}
		return limit <= 0 || len(out) < limit
	}
	if reverse {
		for i := len(m.keys) - 1; i >= 0 && add(m.keys[i]); i-- {
		}
	} else {
		for i := 0; i < len(m.keys) && add(m.keys[i]); i++ {
		}
	}
	return out
}

// versionCount draws how many write records a key gets: none (a lock or
// nothing), a few, about seekBound, or many more.
func versionCount(rng *rand.Rand) int {
	switch rng.Intn(5) {
	case 0:
		return rng.Intn(3)
	case 1, 2:
		return seekBound - 2 + rng.Intn(5)
	case 3:
		return 2*seekBound + rng.Intn(2*seekBound)
	default:
		return 30 + rng.Intn(50)
	}
}

// buildVersions writes a random write space, half of it flushed to an
// sstable so iterators merge levels, and returns its model.
func buildVersions(t *testing.T, rng *rand.Rand, e *engine.Pebble) (*versionsModel, uint64) {
	keys := map[string]bool{}
	// Keys whose encodings share prefixes and group boundaries.
	for _, k := range []string{"a", "a\x00", "a\x00\x00", "abcdefg", "abcdefgh", "abcdefgh\x00", "abcdefghi", "k1", "k1long", "k2", "\xff\xff"} {
		keys[k] = true
	}
	for len(keys) < 40 {
		keys[fmt.Sprintf("k%d", rng.Intn(100))] = true
	}
	m := &versionsModel{versions: map[string][]modelRecord{}, locks: map[string]*Lock{}, long: map[string][]byte{}}
	for k := range keys {
		m.keys = append(m.keys, k)
	}
	sort.Strings(m.keys)
	var maxCommit uint64
	db := e.DB()
	for half := 0; half < 2; half++ {
		b := db.NewBatch()
		for _, k := range m.keys {
			n := versionCount(rng)
			ts := uint64(10 + rng.Intn(5))
			if half == 1 {
				if vs := m.versions[k]; len(vs) > 0 {
					ts = vs[0].commitTS + 1 + uint64(rng.Intn(3))
				}
			}
			// Some keys get long runs of Lock and Rollback records.
			putPct := 60
			if rng.Intn(4) == 0 {
				putPct = 5
			}
			for j := 0; j < n; j++ {
				ts += 1 + uint64(rng.Intn(4))
				w := Write{StartTS: ts - 1}
				switch x := rng.Intn(100); {
				case x < putPct:
					w.Type = WriteTypePut
					if rng.Intn(5) == 0 {
						v := bytes.Repeat([]byte{byte('A' + rng.Intn(26))}, 256+rng.Intn(50))
						m.long[string(DataKey([]byte(k), w.StartTS))] = v
						if err := b.Set(DataKey([]byte(k), w.StartTS), v, nil); err != nil {
							t.Fatal(err)
						}
					} else {
						w.ShortValue, w.HasValue = []byte(fmt.Sprintf("%s@%d", k, ts)), true
					}
					if rng.Intn(20) == 0 {
						w.GCFence = ts + uint64(rng.Intn(20))
					}
				case x < putPct+10:
					w.Type = WriteTypeDelete
				case x < putPct+10+(90-putPct)*2/3:
					w.Type = WriteTypeLock
				default:
					w.Type, w.StartTS = WriteTypeRollback, ts
				}
				if err := b.Set(WriteKey([]byte(k), ts), w.Encode(nil), nil); err != nil {
					t.Fatal(err)
				}
				m.versions[k] = append([]modelRecord{{commitTS: ts, w: w}}, m.versions[k]...)
				maxCommit = max(maxCommit, ts)
			}
		}
		if err := b.Commit(nil); err != nil {
			t.Fatal(err)
		}
		if half == 0 {
			if err := db.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Locks on a few keys, at start_ts spread over the versions.
	b := db.NewBatch()
	for _, k := range m.keys {
		if rng.Intn(6) != 0 {
			continue
		}
		l := &Lock{Type: kv.LockTypePut, Primary: []byte("primary"), StartTS: uint64(rng.Int63n(int64(maxCommit))) + 1,
			TTL: 100, ShortValue: []byte("locked-" + k), HasValue: true}
		m.locks[k] = l
		if err := b.Set(LockKey([]byte(k)), l.Encode(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Commit(nil); err != nil {
		t.Fatal(err)
	}
	return m, maxCommit
}

// TestScanManyVersions compares Get and Scan in both directions with the
// model, on keys with fewer, about as many and many more versions than
// seekBound (Puts short and long, Deletes, Lock and Rollback records,
// gc_fences), at read timestamps from below the oldest version to above
// the newest, so scans step, seek, and stop on every kind of record.
func TestScanManyVersions(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			e, err := engine.Open("db", WithKeySplit(engine.Options{FS: vfs.NewMem(), CacheSize: 1 << 20, Logger: quietLogger{}}))
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			m, maxCommit := buildVersions(t, rng, e)
			snap, err := e.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer snap.Close()
			r := NewReader(snap) // one Reader throughout: its iterator is reused
			defer r.Close()
			var lockTS []uint64
			for _, l := range m.locks {
				lockTS = append(lockTS, l.StartTS)
			}
			bound := func() []byte {
				switch rng.Intn(4) {
				case 0:
					return nil
				case 1:
					return []byte(fmt.Sprintf("k%d", rng.Intn(100)))
				default:
					return []byte(m.keys[rng.Intn(len(m.keys))])
				}
			}
			for i := 0; i < 400; i++ {
				var ts uint64
				switch rng.Intn(4) {
				case 0:
					ts = uint64(rng.Int63n(int64(maxCommit) + 10))
				case 1:
					ts = maxCommit + 100
				case 2:
					ts = uint64(rng.Intn(40)) // below or among the oldest versions
				default:
					k := m.keys[rng.Intn(len(m.keys))]
					if vs := m.versions[k]; len(vs) > 0 {
						ts = vs[rng.Intn(len(vs))].commitTS - uint64(rng.Intn(2)) // on a version, or just below it
					}
				}
				o := &ReadOptions{}
				switch rng.Intn(4) {
				case 0:
					o.KeyOnly = true
				case 1:
					o.CommittedLocks = lockTS
				case 2:
					o.IsolationRC = true
				}
				if rng.Intn(3) == 0 {
					k := m.keys[rng.Intn(len(m.keys))]
					v, found, err := r.Get([]byte(k), ts, o)
					mv, mfound, mlocked := m.get(k, ts, o)
					if mlocked != (err != nil) || (err == nil && (found != mfound || !bytes.Equal(v, mv))) {
						t.Fatalf("get %q@%d %+v = %q,%v,%v; model %q,%v,locked=%v", k, ts, o, v, found, err, mv, mfound, mlocked)
					}
					continue
				}
				start, end := bound(), bound()
				if len(end) > 0 && bytes.Compare(start, end) > 0 {
					start, end = end, start
				}
				// Mostly a limit above the key count, so a scan that goes
				// back over keys shows as a diff rather than a hang.
				limit := 1 + rng.Intn(len(m.keys)+1)
				if rng.Intn(5) == 0 {
					limit = 0
				}
				reverse := rng.Intn(2) == 0
				if rng.Intn(2) == 0 {
					// The txn layer's way: the locked keys of the range as
					// its lock index lists them (a superset: some unlocked
					// keys too), instead of the lock space.
					o.LockCandidatesKnown = true
					var cands []string
					for _, k := range m.keys {
						inRange := k >= string(start) && (len(end) == 0 || k < string(end))
						if inRange && (m.locks[k] != nil || rng.Intn(8) == 0) {
							cands = append(cands, k)
						}
					}
					sort.Strings(cands)
					for _, k := range cands {
						o.LockCandidates = append(o.LockCandidates, []byte(k))
					}
				}
				got, err := r.Scan(start, end, limit, ts, reverse, o)
				if err != nil {
					t.Fatalf("scan [%q,%q) limit %d @%d reverse=%v: %v", start, end, limit, ts, reverse, err)
				}
				want := m.scan(start, end, limit, ts, reverse, o)
				if d := diffPairs(got, want); d != "" {
					t.Fatalf("scan [%q,%q) limit %d @%d reverse=%v %+v: %s", start, end, limit, ts, reverse, o, d)
				}
			}
		})
	}
}

// diffPairs describes the first difference between scan results, or "".
func diffPairs(got, want []Pair) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		if i >= len(got) {
			return fmt.Sprintf("pair %d missing, want %q=%q err=%v", i, want[i].Key, want[i].Value, want[i].Err != nil)
		}
		if i >= len(want) {
			return fmt.Sprintf("extra pair %d %q=%q err=%v", i, got[i].Key, got[i].Value, got[i].Err)
		}
		g, w := got[i], want[i]
		if !bytes.Equal(g.Key, w.Key) || !bytes.Equal(g.Value, w.Value) || (g.Err == nil) != (w.Err == nil) {
			return fmt.Sprintf("pair %d = %q=%q err=%v, want %q=%q err=%v", i, g.Key, g.Value, g.Err, w.Key, w.Value, w.Err != nil)
		}
	}
	return ""
}

// TestScanReverseNoPutBelowTS: a key whose versions at or below the read
// ts are more Lock and Rollback records than seekBound, and no Put: the
// reverse scan's seek to key@ts finds no value and must not leave the
// iterator on the following key.
func TestScanReverseNoPutBelowTS(t *testing.T) {
	e, err := engine.Open("db", WithKeySplit(engine.Options{FS: vfs.NewMem(), CacheSize: 1 << 20, Logger: quietLogger{}}))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	b := e.DB().NewBatch()
	set := func(key string, ts uint64, w Write) {
		if err := b.Set(WriteKey([]byte(key), ts), w.Encode(nil), nil); err != nil {
			t.Fatal(err)
		}
	}
	put := func(v string) Write { return Write{Type: WriteTypePut, ShortValue: []byte(v), HasValue: true} }
	set("a", 10, put("a10"))
	set("c", 10, put("c10"))
	for ts := uint64(10); ts < 10+2*seekBound+2; ts++ {
		typ := WriteTypeLock
		if ts%2 == 0 {
			typ = WriteTypeRollback
		}
		set("b", ts, Write{Type: typ, StartTS: ts - 1})
	}
	set("b", 100, put("b100")) // newer than the reads below
	if err := b.Commit(nil); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	r := NewReader(snap)
	defer r.Close()
	for _, ts := range []uint64{50, 99} {
		for _, end := range []string{"", "c", "b\x00"} {
			got, err := r.Scan(nil, []byte(end), 10, ts, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want []Pair
			if end != "c" && end != "b\x00" {
				want = append(want, Pair{Key: []byte("c"), Value: []byte("c10")})
			}
			want = append(want, Pair{Key: []byte("a"), Value: []byte("a10")})
			if d := diffPairs(got, want); d != "" {
				t.Errorf("reverse scan below %q @%d: %s", end, ts, d)
			}
		}
	}
}
