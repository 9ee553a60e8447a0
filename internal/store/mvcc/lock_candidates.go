package mvcc

import (
	"errors"

	"github.com/strata-db/strata/internal/store/engine"
)

// candidateLockIter iterates the locks of a scan's range that exist in a
// snapshot among a known, sorted list of candidate user keys (the txn
// layer's lock index, taken before the snapshot: see
// ReadOptions.LockCandidates). It stands in for an engine iterator over
// the lock space, which must step over the tombstone of every lock ever
// released in the range: on hot rows, far more than the live locks.
// Candidates are looked up as the scan reaches them, so a scan that stops
// at its limit pays only for the candidates it passed. It implements the
// engine.Iterator methods the scanner uses.
type candidateLockIter struct {
	snap  engine.Snapshot
	cands [][]byte // user keys
	pos   int      // index into cands of the current lock
	key   []byte   // engine lock key at pos
	val   []byte
	err   error
}

var _ engine.Iterator = (*candidateLockIter)(nil)

func newCandidateLockIter(snap engine.Snapshot, candidates [][]byte) *candidateLockIter {
	return &candidateLockIter{snap: snap, cands: candidates, pos: -1}
}

// settle moves from candidate i in direction dir (+1 or -1) to the first
// one that has a lock in the snapshot.
func (it *candidateLockIter) settle(i, dir int) bool {
	for ; i >= 0 && i < len(it.cands) && it.err == nil; i += dir {
		ek := LockKey(it.cands[i])
		v, err := it.snap.Get(ek)
		if errors.Is(err, engine.ErrNotFound) {
			continue
		}
		if err != nil {
			it.err = err
			break
		}
		it.pos, it.key, it.val = i, ek, v
		return true
	}
	it.pos = -1
	if dir > 0 {
		it.pos = len(it.cands)
	}
	return false
}

func (it *candidateLockIter) First() bool { return it.settle(0, 1) }
func (it *candidateLockIter) Last() bool  { return it.settle(len(it.cands)-1, -1) }
func (it *candidateLockIter) Next() bool  { return it.settle(it.pos+1, 1) }
func (it *candidateLockIter) Prev() bool  { return it.settle(it.pos-1, -1) }
func (it *candidateLockIter) Valid() bool {
	return it.err == nil && it.pos >= 0 && it.pos < len(it.cands)
}
func (it *candidateLockIter) Key() []byte   { return it.key }
func (it *candidateLockIter) Value() []byte { return it.val }
func (it *candidateLockIter) Error() error  { return it.err }
func (it *candidateLockIter) Close() error  { return nil }

// SeekGE positions at the first lock at or after engine key key.
func (it *candidateLockIter) SeekGE(key []byte) bool {
	i := 0
	for i < len(it.cands) && string(LockKey(it.cands[i])) < string(key) {
		i++
	}
	return it.settle(i, 1)
}

// SeekLT positions at the last lock before engine key key.
func (it *candidateLockIter) SeekLT(key []byte) bool {
	i := len(it.cands) - 1
	for i >= 0 && string(LockKey(it.cands[i])) >= string(key) {
		i--
	}
	return it.settle(i, -1)
}
