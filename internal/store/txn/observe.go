package txn

import (
	"context"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// Applied records the lock puts and deletes of a batch that reached the
// engine without passing through this Storage: a raft follower's apply.
// With it the lock index stays exact on every replica, so a follower
// that becomes leader can trust it at once. Applying a batch the leader
// wrote through Storage again is harmless (set operations). It also ends
// what BeforeApply began for the newest-write record, so it must follow
// a BeforeApply of the same batch.
func (s *Storage) Applied(b *engine.Batch) {
	s.locks.applied(b, true)
	s.newestAfter(b, true)
}

// BeforeApply is called before a raft apply writes b, on every replica:
// the newest-write record counts b's keys as pending until Applied.
func (s *Storage) BeforeApply(b *engine.Batch) { s.newestBefore(b) }

// DataReplacing is called before a raft snapshot's install or a peer's
// destroy rewrites a key range outside the batches, DataReplaced after it
// (written or not): the newest-write record knows nothing in between and
// forgets everything at the end.
func (s *Storage) DataReplacing() {
	if s.newest != nil {
		s.newest.replacingData()
	}
}

// DataReplaced ends DataReplacing.
func (s *Storage) DataReplaced() {
	if s.newest != nil {
		s.newest.replacedData()
	}
}

// RangeReset reloads the lock index for the user keys in [start, end)
// (empty end: unbounded) after a raft snapshot replaced them.
func (s *Storage) RangeReset(start, end []byte) {
	s.locks.reload(context.Background(), s.eng, start, end)
}

// reload replaces the index's keys in [start, end) by the locks the
// engine holds there now.
func (li *lockIndex) reload(ctx context.Context, eng engine.Engine, start, end []byte) {
	lo := mvcc.LockKey(start)
	_, hi := mvcc.LockSpaceBounds()
	if len(end) > 0 {
		hi = mvcc.LockKey(end)
	}
	found, err := scanLockKeys(ctx, eng, lo, hi)
	if err != nil {
		li.disable()
		return
	}
	li.mu.Lock()
	defer li.mu.Unlock()
	if !li.ready {
		return
	}
	var stale []string
	visit := func(k string) bool { stale = append(stale, k); return true }
	if len(end) == 0 {
		li.sorted.AscendGreaterOrEqual(string(start), visit)
	} else {
		li.sorted.AscendRange(string(start), string(end), visit)
	}
	for _, k := range stale {
		delete(li.keys, k)
		li.sorted.Delete(k)
	}
	for _, k := range found {
		li.keys[k] = struct{}{}
		li.sorted.ReplaceOrInsert(k)
	}
}

// disable turns the index off: every read then looks at the engine.
func (li *lockIndex) disable() {
	li.mu.Lock()
	li.ready = false
	li.mu.Unlock()
}
