package txn

import (
	"hash/fnv"
	"sync"
	"sync/atomic"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// lockWaiters parks pessimistic lock requests that met another txn's lock
// until that lock is released (reference §2.7, "waiting"), and detects
// deadlocks in the graph of which txn waits for which.
//
// A waiter is woken by the engine write that deletes any lock of its key
// (commit, rollback, resolve, pessimistic rollback): wake runs after the
// lock index forgot the key, and a new waiter re-checks the index after
// registering, so a release that races with the registration is never
// missed (see Storage.lockReleased). Woken requests simply try again.
//
// The graph holds an edge waiter -> holder while a request waits. A new
// wait that would reach its own txn from the holder closes a cycle and
// fails with a kv.DeadlockError instead of waiting. This detector sees one
// store's waits only: a cycle across stores ends by the wait timeout
// (a cluster-wide detector is the distribution work's).
type lockWaiters struct {
	n       atomic.Int64 // registered waiters; wake is free when 0
	mu      sync.Mutex
	byKey   map[string][]*lockWaiter
	waitFor map[uint64]map[uint64]int // waiter start_ts -> holder start_ts -> waits
}

type lockWaiter struct {
	key     string
	startTS uint64
	lockTS  uint64
	ch      chan struct{} // closed by wake
	woken   bool
}

// add registers a wait of txn startTS for the lock of txn lockTS on key,
// or fails with a *kv.DeadlockError when that wait closes a cycle.
func (w *lockWaiters) add(key []byte, startTS, lockTS uint64) (*lockWaiter, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reaches(lockTS, startTS) {
		h := fnv.New64a()
		h.Write(key)
		return nil, &kv.DeadlockError{LockTS: lockTS, LockKey: append([]byte(nil), key...), KeyHash: h.Sum64()}
	}
	if w.byKey == nil {
		w.byKey = make(map[string][]*lockWaiter)
		w.waitFor = make(map[uint64]map[uint64]int)
	}
	lw := &lockWaiter{key: string(key), startTS: startTS, lockTS: lockTS, ch: make(chan struct{})}
	w.byKey[lw.key] = append(w.byKey[lw.key], lw)
	holders := w.waitFor[startTS]
	if holders == nil {
		holders = make(map[uint64]int)
		w.waitFor[startTS] = holders
	}
	holders[lockTS]++
	w.n.Add(1)
	return lw, nil
}

// reaches reports whether txn to is reachable from txn from along wait
// edges. w.mu is held.
func (w *lockWaiters) reaches(from, to uint64) bool {
	if from == to {
		return true
	}
	seen := map[uint64]bool{from: true}
	stack := []uint64{from}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for next := range w.waitFor[cur] {
			if next == to {
				return true
			}
			if !seen[next] {
				seen[next] = true
				stack = append(stack, next)
			}
		}
	}
	return false
}

// remove unregisters lw (woken or not).
func (w *lockWaiters) remove(lw *lockWaiter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	list := w.byKey[lw.key]
	for i, x := range list {
		if x == lw {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(w.byKey, lw.key)
	} else {
		w.byKey[lw.key] = list
	}
	if holders := w.waitFor[lw.startTS]; holders != nil {
		if holders[lw.lockTS]--; holders[lw.lockTS] <= 0 {
			delete(holders, lw.lockTS)
		}
		if len(holders) == 0 {
			delete(w.waitFor, lw.startTS)
		}
	}
	w.n.Add(-1)
}

// wakeKey wakes every waiter of key.
func (w *lockWaiters) wakeKey(key string) {
	for _, lw := range w.byKey[key] {
		if !lw.woken {
			lw.woken = true
			close(lw.ch)
		}
	}
}

// wake wakes the waiters of every lock a written batch deleted.
func (w *lockWaiters) wake(b *engine.Batch) {
	if w.n.Load() == 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, op := range b.Ops() {
		if op.Kind != engine.OpDelete {
			continue
		}
		if k, ok := mvcc.DecodeLockKey(op.Key); ok {
			w.wakeKey(string(k))
		}
	}
}

// LockWaiters returns how many pessimistic lock requests wait for another
// txn's lock now (TiKV's lock manager waiters).
func (s *Storage) LockWaiters() int64 { return s.waiters.n.Load() }
