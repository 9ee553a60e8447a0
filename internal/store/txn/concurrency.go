package txn

import (
	"bytes"
	"math"
	"sync"
	"sync/atomic"

	"github.com/RaduBerinde/btreemap"
	"github.com/strata-db/strata/internal/kv"
)

// MemLock is a lock held in memory by an async-commit or 1PC prewrite
// between computing its min_commit_ts and the engine write being applied.
type MemLock struct {
	Info     kv.LockInfo // Key is the locked key
	UseOnePC bool        // 1PC locks never get the MaxUint64 primary exemption
}

// ConcurrencyManager is a store's max_ts and in-memory lock table
// (reference §2.0). Readers raise max_ts to their read ts, then check the
// table; async-commit/1PC prewrites lock a key in the table, then read
// max_ts and publish their lock, in one critical section per key, so a
// reader either sees the lock or has already pushed max_ts above its ts.
type ConcurrencyManager struct {
	maxTS atomic.Uint64

	mu    sync.Mutex                             // guards table and keyHandle.refs
	table *btreemap.BTreeMap[[]byte, *keyHandle] // by user key
}

// keyHandle is one key's entry in the lock table. owner is held by the
// KeyGuard that locked the key, from LockKey until Release; mu guards lock.
type keyHandle struct {
	key   []byte
	refs  int // guarded by ConcurrencyManager.mu: guards holding or waiting
	owner sync.Mutex
	mu    sync.Mutex
	lock  *MemLock // guarded by mu; nil until published
}

// NewConcurrencyManager returns a manager whose max_ts starts at maxTS.
func NewConcurrencyManager(maxTS uint64) *ConcurrencyManager {
	cm := &ConcurrencyManager{table: btreemap.New[[]byte, *keyHandle](8, bytes.Compare)}
	cm.maxTS.Store(maxTS)
	return cm
}

// MaxTS returns the largest timestamp the store has seen.
func (cm *ConcurrencyManager) MaxTS() uint64 { return cm.maxTS.Load() }

// UpdateMaxTS raises max_ts to ts. MaxUint64 is a sentinel ("read the
// latest", "force expiry") and is ignored.
func (cm *ConcurrencyManager) UpdateMaxTS(ts uint64) {
	if ts == math.MaxUint64 {
		return
	}
	for {
		cur := cm.maxTS.Load()
		if ts <= cur || cm.maxTS.CompareAndSwap(cur, ts) {
			return
		}
	}
}

// NewKeyGuard returns an empty guard for one command's memory locks.
func (cm *ConcurrencyManager) NewKeyGuard() *KeyGuard { return &KeyGuard{cm: cm} }

// Blocks reports whether l blocks a snapshot read of key at readTS, by the
// §2.1 rule: l.ts <= readTS, type Put or Delete, min_commit_ts <= readTS,
// l.ts not in resolved, and no MaxUint64 read of a 2PC primary.
func Blocks(l *kv.LockInfo, onePC bool, key []byte, readTS uint64, resolved []uint64) bool {
	// The reader's own lock (start_ts == read ts) never blocks it.
	if l.StartTS >= readTS || l.MinCommitTS > readTS {
		return false
	}
	if l.Type != kv.LockTypePut && l.Type != kv.LockTypeDelete {
		return false
	}
	if readTS == math.MaxUint64 && bytes.Equal(key, l.Primary) && !l.UseAsyncCommit && !onePC {
		return false
	}
	for _, ts := range resolved {
		if ts == l.StartTS {
			return false
		}
	}
	return true
}

// CheckKey returns a *kv.LockedError if a memory lock on key blocks a read
// at readTS. The caller raises max_ts first.
func (cm *ConcurrencyManager) CheckKey(key []byte, readTS uint64, resolved []uint64) error {
	cm.mu.Lock()
	_, h, ok := cm.table.Get(key)
	cm.mu.Unlock()
	if !ok {
		return nil
	}
	return h.check(readTS, resolved)
}

// CheckRange returns a *kv.LockedError for the first memory lock in
// [start, end) that blocks a read at readTS (empty end: unbounded).
func (cm *ConcurrencyManager) CheckRange(start, end []byte, readTS uint64, resolved []uint64) error {
	return cm.CheckRangeFunc(start, end, func(key []byte, l *MemLock) error {
		if Blocks(&l.Info, l.UseOnePC, key, readTS, resolved) {
			return &kv.LockedError{Lock: l.Info}
		}
		return nil
	})
}

// CheckRangeFunc calls check, in key order, for every published memory
// lock in [start, end) (empty end: unbounded) and returns its first error.
// check runs with the key's handle locked: it must not call back into cm.
func (cm *ConcurrencyManager) CheckRangeFunc(start, end []byte, check func(key []byte, l *MemLock) error) error {
	var hs []*keyHandle
	cm.mu.Lock()
	if cm.table.Len() > 0 {
		hi := btreemap.Max[[]byte]()
		if len(end) > 0 {
			hi = btreemap.LT(end)
		}
		for _, h := range cm.table.Ascend(btreemap.GE(start), hi) {
			hs = append(hs, h)
		}
	}
	cm.mu.Unlock()
	for _, h := range hs {
		if err := h.checkFunc(check); err != nil {
			return err
		}
	}
	return nil
}

// Len returns the number of keys in the lock table.
func (cm *ConcurrencyManager) Len() int {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	return cm.table.Len()
}

func (h *keyHandle) check(readTS uint64, resolved []uint64) error {
	return h.checkFunc(func(key []byte, l *MemLock) error {
		if Blocks(&l.Info, l.UseOnePC, key, readTS, resolved) {
			return &kv.LockedError{Lock: l.Info}
		}
		return nil
	})
}

func (h *keyHandle) checkFunc(check func(key []byte, l *MemLock) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lock == nil {
		return nil
	}
	return check(h.key, h.lock)
}

// KeyGuard holds the memory locks of one command until Release. It is used
// by one goroutine at a time.
type KeyGuard struct {
	cm   *ConcurrencyManager
	held map[string]*keyHandle
}

// LockKey takes key's slot in the lock table (waiting for another guard
// holding it), then, in one critical section, calls fill with the current
// max_ts and publishes the lock it returns (nil publishes nothing). A key
// this guard already holds is filled again.
func (g *KeyGuard) LockKey(key []byte, fill func(maxTS uint64) *MemLock) {
	h := g.held[string(key)]
	if h == nil {
		cm := g.cm
		cm.mu.Lock()
		_, h, _ = cm.table.Get(key)
		if h == nil {
			k := bytes.Clone(key)
			h = &keyHandle{key: k}
			cm.table.ReplaceOrInsert(k, h)
		}
		h.refs++
		cm.mu.Unlock()
		h.owner.Lock()
		if g.held == nil {
			g.held = map[string]*keyHandle{}
		}
		g.held[string(key)] = h
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lock = fill(g.cm.MaxTS())
	if h.lock != nil {
		h.lock.Info.Key = h.key
	}
}

// Len returns the number of keys the guard holds.
func (g *KeyGuard) Len() int { return len(g.held) }

// Release removes the guard's locks from the table and frees the keys.
// Call it after the engine write is applied (or abandoned).
func (g *KeyGuard) Release() {
	if g == nil {
		return
	}
	cm := g.cm
	for _, h := range g.held {
		h.mu.Lock()
		h.lock = nil
		h.mu.Unlock()
		h.owner.Unlock()
		cm.mu.Lock()
		if h.refs--; h.refs == 0 {
			cm.table.Delete(h.key)
		}
		cm.mu.Unlock()
	}
	g.held = nil
}
