package mvcc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
)

// modelVersion is one committed version of a key in the model.
type modelVersion struct {
	commitTS uint64
	value    []byte // nil: deleted
}

// pendingTxn is a prewritten, undecided transaction.
type pendingTxn struct {
	startTS uint64
	keys    [][]byte
	values  [][]byte // nil: delete
}

// randomChecker drives random transactions through the MVCC actions and
// compares every read with a simple model of committed versions.
type randomChecker struct {
	t       *testing.T
	rng     *rand.Rand
	eng     *engine.Pebble
	ts      uint64
	model   map[string][]modelVersion // newest last
	pending []*pendingTxn
	keys    []string
}

func TestRandomAgainstModel(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			e, err := engine.Open("db", WithKeySplit(engine.Options{FS: vfs.NewMem(), CacheSize: 1 << 20, Logger: quietLogger{}}))
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			c := &randomChecker{t: t, rng: rand.New(rand.NewSource(seed)), eng: e, ts: 1,
				model: map[string][]modelVersion{}}
			for i := 0; i < 8; i++ {
				c.keys = append(c.keys, fmt.Sprintf("k%d", i))
			}
			c.keys = append(c.keys, "k1long") // shares a prefix with k1
			for step := 0; step < 600; step++ {
				switch n := c.rng.Intn(10); {
				case n < 3:
					c.begin(c.rng.Intn(4) == 0)
				case n < 5:
					c.finish()
				case n < 6:
					c.resolveByStatus()
				default:
					c.read()
				}
			}
			c.checkInvariants()
		})
	}
}

func (c *randomChecker) next() uint64 { c.ts++; return c.ts }

// exec runs f on a fresh snapshot and applies its batch.
func (c *randomChecker) exec(f func(t *Txn, r *Reader) error) error {
	ctx := context.Background()
	snap, err := c.eng.Snapshot(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	defer snap.Close()
	r := NewReader(snap)
	defer r.Close()
	t := NewTxn(0)
	if err := f(t, r); err != nil {
		return err
	}
	if err := c.eng.Write(ctx, t.Batch()); err != nil {
		c.t.Fatal(err)
	}
	return nil
}

func (c *randomChecker) value() []byte {
	switch c.rng.Intn(4) {
	case 0:
		return nil
	case 1:
		return bytes.Repeat([]byte{byte('a' + c.rng.Intn(26))}, 256+c.rng.Intn(100))
	default:
		return []byte(fmt.Sprint("v", c.rng.Intn(1000)))
	}
}

// begin prewrites a new txn (1PC when onePC); on a lock or conflict the
// txn is abandoned (rolled back).
func (c *randomChecker) begin(onePC bool) {
	start := c.next()
	perm := c.rng.Perm(len(c.keys))[:1+c.rng.Intn(3)]
	p := &pendingTxn{startTS: start}
	for _, i := range perm {
		p.keys = append(p.keys, []byte(c.keys[i]))
		p.values = append(p.values, c.value())
	}
	mem := &fakeMem{maxTS: c.ts}
	var commitTS uint64
	failed := false
	err := c.exec(func(t *Txn, r *Reader) error {
		params := &PrewriteParams{Primary: p.keys[0], StartTS: start, LockTTL: 100, TryOnePC: onePC, Mem: mem}
		var maxMin uint64
		for i, k := range p.keys {
			m := Mutation{Op: OpPut, Key: k, Value: p.values[i]}
			if p.values[i] == nil {
				m.Op = OpDel
			}
			// Prewrite twice: a retry must be idempotent.
			var mc uint64
			var err error
			for rep := 0; rep < 1+c.rng.Intn(2) && err == nil; rep++ {
				mc, err = Prewrite(t, r, params, m)
			}
			if err != nil {
				failed = true
				if !errors.Is(err, kv.ErrKeyIsLocked) && !errors.Is(err, kv.ErrWriteConflict) {
					c.t.Fatalf("prewrite %s@%d: %v", k, start, err)
				}
				t.Reset()
				return nil
			}
			maxMin = max(maxMin, mc)
		}
		if onePC && params.TryOnePC {
			commitTS = maxMin
			t.CommitOnePC(commitTS)
		}
		return nil
	})
	if err != nil {
		c.t.Fatal(err)
	}
	if failed {
		return
	}
	if commitTS != 0 {
		c.ts = max(c.ts, commitTS)
		c.apply(p, commitTS)
		return
	}
	c.pending = append(c.pending, p)
}

func (c *randomChecker) apply(p *pendingTxn, commitTS uint64) {
	for i, k := range p.keys {
		c.model[string(k)] = append(c.model[string(k)], modelVersion{commitTS: commitTS, value: p.values[i]})
	}
}

func (c *randomChecker) takePending() *pendingTxn {
	if len(c.pending) == 0 {
		return nil
	}
	i := c.rng.Intn(len(c.pending))
	p := c.pending[i]
	c.pending = append(c.pending[:i], c.pending[i+1:]...)
	return p
}

// finish commits (primary first, every request possibly twice) or rolls
// back a pending txn.
func (c *randomChecker) finish() {
	p := c.takePending()
	if p == nil {
		return
	}
	if c.rng.Intn(3) == 0 {
		for rep := 0; rep < 2; rep++ {
			for _, k := range p.keys {
				if err := c.exec(func(t *Txn, r *Reader) error { return Rollback(t, r, k, p.startTS) }); err != nil {
					c.t.Fatalf("rollback %s@%d: %v", k, p.startTS, err)
				}
			}
		}
		return
	}
	commitTS := c.next()
	for rep := 0; rep < 2; rep++ {
		for _, k := range p.keys {
			if err := c.exec(func(t *Txn, r *Reader) error { return Commit(t, r, k, p.startTS, commitTS) }); err != nil {
				c.t.Fatalf("commit %s@%d->%d: %v", k, p.startTS, commitTS, err)
			}
		}
	}
	c.apply(p, commitTS)
}

// resolveByStatus expires a pending txn through its primary and resolves
// its secondaries as a lock resolver would.
func (c *randomChecker) resolveByStatus() {
	p := c.takePending()
	if p == nil {
		return
	}
	var st TxnStatus
	err := c.exec(func(t *Txn, r *Reader) error {
		var err error
		st, err = CheckTxnStatus(t, r, &CheckTxnStatusParams{Primary: p.keys[0], LockTS: p.startTS,
			CallerStartTS: c.ts, CurrentTS: maxTS, RollbackIfNotExist: true})
		return err
	})
	if err != nil || st.Action != ActionTTLExpireRollback {
		c.t.Fatalf("check_txn_status %s@%d: %+v %v", p.keys[0], p.startTS, st, err)
	}
	for _, k := range p.keys[1:] {
		if err := c.exec(func(t *Txn, r *Reader) error { return ResolveLock(t, r, k, p.startTS, 0) }); err != nil {
			c.t.Fatalf("resolve %s@%d: %v", k, p.startTS, err)
		}
	}
	// A late prewrite of the primary must fail now.
	err = c.exec(func(t *Txn, r *Reader) error {
		_, err := Prewrite(t, r, &PrewriteParams{Primary: p.keys[0], StartTS: p.startTS, LockTTL: 100},
			Mutation{Op: OpPut, Key: p.keys[0], Value: []byte("late")})
		return err
	})
	if !errors.Is(err, kv.ErrWriteConflict) {
		c.t.Fatalf("late prewrite of rolled-back %s@%d: %v", p.keys[0], p.startTS, err)
	}
}

func (c *randomChecker) modelGet(key string, ts uint64) ([]byte, bool) {
	vs := c.model[key]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].commitTS <= ts {
			return vs[i].value, vs[i].value != nil
		}
	}
	return nil, false
}

func (c *randomChecker) lockedBy(key string, ts uint64) bool {
	for _, p := range c.pending {
		for _, k := range p.keys {
			// A read at the lock's own start_ts is its own txn's: not blocked.
			if string(k) == key && p.startTS < ts {
				return true
			}
		}
	}
	return false
}

// read compares Get and Scan (both directions) at a random ts with the model.
func (c *randomChecker) read() {
	ts := c.ts
	if c.rng.Intn(3) == 0 {
		ts = uint64(c.rng.Int63n(int64(c.ts))) + 1
	}
	_ = c.exec(func(t *Txn, r *Reader) error {
		var expect []Pair
		for _, k := range c.keys {
			v, found, err := r.Get([]byte(k), ts, nil)
			mv, mfound := c.modelGet(k, ts)
			switch {
			case err != nil:
				if !errors.Is(err, kv.ErrKeyIsLocked) || !c.lockedBy(k, ts) {
					c.t.Fatalf("get %s@%d: %v", k, ts, err)
				}
				expect = append(expect, Pair{Key: []byte(k), Err: err})
			case c.lockedBy(k, ts) && c.lockBlocks(k):
				c.t.Fatalf("get %s@%d: not blocked by a pending lock", k, ts)
			case found != mfound || !bytes.Equal(v, mv):
				c.t.Fatalf("get %s@%d = %q,%v; model %q,%v", k, ts, v, found, mv, mfound)
			case found:
				expect = append(expect, Pair{Key: []byte(k), Value: v})
			}
		}
		sort.Slice(expect, func(i, j int) bool { return bytes.Compare(expect[i].Key, expect[j].Key) < 0 })
		for _, reverse := range []bool{false, true} {
			got, err := r.Scan(nil, nil, 0, ts, reverse, nil)
			if err != nil {
				c.t.Fatal(err)
			}
			if reverse {
				for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
					got[i], got[j] = got[j], got[i]
				}
			}
			if len(got) != len(expect) {
				c.t.Fatalf("scan@%d reverse=%v: %d pairs, want %d", ts, reverse, len(got), len(expect))
			}
			for i := range got {
				if !bytes.Equal(got[i].Key, expect[i].Key) || !bytes.Equal(got[i].Value, expect[i].Value) || (got[i].Err == nil) != (expect[i].Err == nil) {
					c.t.Fatalf("scan@%d reverse=%v: pair %d = %q %q %v, want %q %q %v", ts, reverse, i,
						got[i].Key, got[i].Value, got[i].Err, expect[i].Key, expect[i].Value, expect[i].Err)
				}
			}
		}
		return nil
	})
}

// lockBlocks: pending locks are Put/Delete 2PC locks, so they block.
func (c *randomChecker) lockBlocks(string) bool { return true }

// checkInvariants walks the write space: at most one commit record per txn
// and key, never a commit and a rollback of the same txn, and commit_ts >
// start_ts.
func (c *randomChecker) checkInvariants() {
	snap, _ := c.eng.Snapshot(context.Background())
	defer snap.Close()
	it, _ := snap.NewIter([]byte{prefixWrite}, []byte{prefixWrite + 1})
	defer it.Close()
	type txnKey struct {
		key     string
		startTS uint64
	}
	commits := map[txnKey]int{}
	rollbacks := map[txnKey]bool{}
	for ok := it.First(); ok; ok = it.Next() {
		_, k, cts, err := DecodeVersionedKey(it.Key())
		if err != nil {
			c.t.Fatal(err)
		}
		w, err := DecodeWrite(it.Value())
		if err != nil {
			c.t.Fatal(err)
		}
		tk := txnKey{string(k), w.StartTS}
		if w.Type == WriteTypeRollback {
			rollbacks[tk] = true
			continue
		}
		if cts <= w.StartTS {
			c.t.Fatalf("commit record %s@%d with start_ts %d", k, cts, w.StartTS)
		}
		commits[tk]++
	}
	for tk, n := range commits {
		if n > 1 || rollbacks[tk] {
			c.t.Fatalf("txn %d on %s: %d commit records, rollback=%v", tk.startTS, tk.key, n, rollbacks[tk])
		}
	}
}
