package txn

import (
	"context"
	"sync"

	"github.com/google/btree"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// lockIndex is an in-memory set of the user keys that have a lock in the
// engine, so that a point read of an unlocked key (nearly all of them)
// skips the lock-space lookup, a fifth of a point select's cost.
//
// Invariant: a key is in the set from the end of the engine write that
// puts its lock until the end of the engine write that deletes it. Both updates
// happen while the writing command holds the key's latch and its memory
// locks, before it answers.
//
// Why a reader may trust the set when it checks it BEFORE opening its
// snapshot (KvGet: raise max_ts, check memory locks, check the set, open
// the snapshot):
//   - a lock deleted (committed or rolled back) after the check is still
//     in the set at the check, so the reader loads it from its snapshot
//     as before;
//   - a lock written before the snapshot but added to the set after the
//     check belongs to a prewrite that has not answered yet: a 2PC commit
//     ts is taken after that answer, so above the reader's ts; an
//     async-commit/1PC prewrite holds its memory lock across the write
//     and the set update, so the reader either met that memory lock or
//     raised max_ts before the prewrite computed min_commit_ts. Either
//     way the lock cannot hide a version the reader should see.
//
// Write commands trust the set too (mvcc.Reader.SetLockFilter): they hold
// the latches of every key whose lock they load, and the write that last
// changed such a key's lock updated the set before its latches went, so
// under the latches the set is exact for those keys.
//
// When the set cannot be loaded at start the index is off and every read
// loads locks from the engine.
type lockIndex struct {
	mu     sync.RWMutex
	keys   map[string]struct{}   // membership, for point reads
	sorted *btree.BTreeG[string] // the same keys in order, for scans
	ready  bool
}

func newSortedKeys() *btree.BTreeG[string] {
	return btree.NewG(32, func(a, b string) bool { return a < b })
}

// load fills the set from the engine's lock space.
func (li *lockIndex) load(ctx context.Context, eng engine.Engine) {
	lo, hi := mvcc.LockSpaceBounds()
	found, err := scanLockKeys(ctx, eng, lo, hi)
	if err != nil {
		return
	}
	keys, sorted := map[string]struct{}{}, newSortedKeys()
	for _, k := range found {
		keys[k] = struct{}{}
		sorted.ReplaceOrInsert(k)
	}
	li.mu.Lock()
	li.keys, li.sorted, li.ready = keys, sorted, true
	li.mu.Unlock()
}

// scanLockKeys returns the user keys of the locks in the engine's lock
// space between lo and hi.
func scanLockKeys(ctx context.Context, eng engine.Engine, lo, hi []byte) ([]string, error) {
	snap, err := eng.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	it, err := snap.NewIter(lo, hi)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		if k, ok := mvcc.DecodeLockKey(it.Key()); ok {
			out = append(out, string(k))
		}
	}
	return out, it.Error()
}

// known reports whether the set is loaded (mayBeLocked is exact).
func (li *lockIndex) known() bool {
	li.mu.RLock()
	defer li.mu.RUnlock()
	return li.ready
}

// mayBeLocked reports whether key may have a lock in the engine.
func (li *lockIndex) mayBeLocked(key []byte) bool {
	li.mu.RLock()
	defer li.mu.RUnlock()
	if !li.ready {
		return true
	}
	_, ok := li.keys[string(key)]
	return ok
}

// keysIn returns the keys of [start, end) (empty end: unbounded) that
// may have a lock, in order, and whether the set is known (when it is not,
// the caller must look at the engine's lock space itself).
func (li *lockIndex) keysIn(start, end []byte) ([][]byte, bool) {
	li.mu.RLock()
	defer li.mu.RUnlock()
	if !li.ready {
		return nil, false
	}
	var out [][]byte
	visit := func(k string) bool {
		out = append(out, []byte(k))
		return true
	}
	if len(end) == 0 {
		li.sorted.AscendGreaterOrEqual(string(start), visit)
	} else {
		li.sorted.AscendRange(string(start), string(end), visit)
	}
	return out, true
}

// add lists keys whose lock may reach the engine by a write not made
// through this Storage (a lock hand-off): listing a key with no lock only
// costs a lookup, and the write that deletes its lock unlists it.
func (li *lockIndex) add(keys []string) {
	if len(keys) == 0 {
		return
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	if !li.ready {
		return
	}
	for _, k := range keys {
		if _, ok := li.keys[k]; !ok {
			li.keys[k] = struct{}{}
			li.sorted.ReplaceOrInsert(k)
		}
	}
}

// applied records the lock puts and deletes of a batch just written; when
// the write failed (written false) only the puts, as it may have landed.
func (li *lockIndex) applied(b *engine.Batch, written bool) {
	ops := b.Ops()
	first := -1
	for i, op := range ops {
		if _, ok := mvcc.DecodeLockKey(op.Key); ok {
			first = i
			break
		}
	}
	if first < 0 {
		return // no lock in the batch (a 1PC commit, say): no lock taken
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	if !li.ready {
		return
	}
	for _, op := range ops[first:] {
		k, ok := mvcc.DecodeLockKey(op.Key)
		if !ok {
			continue
		}
		if op.Kind == engine.OpDelete {
			if written {
				delete(li.keys, string(k))
				li.sorted.Delete(string(k))
			}
		} else if _, ok := li.keys[string(k)]; !ok {
			li.keys[string(k)] = struct{}{}
			li.sorted.ReplaceOrInsert(string(k))
		}
	}
}
