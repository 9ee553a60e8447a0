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
// It implements the engine.Iterator methods the scanner uses.
type candidateLockIter struct {
	keys [][]byte // engine lock keys with a lock in the snapshot, in order
	vals [][]byte
	pos  int
	err  error
}

var _ engine.Iterator = (*candidateLockIter)(nil)

// newCandidateLockIter looks each candidate up in snap once.
func newCandidateLockIter(snap engine.Snapshot, candidates [][]byte) *candidateLockIter {
	it := &candidateLockIter{pos: -1}
	for _, k := range candidates {
		ek := LockKey(k)
		v, err := snap.Get(ek)
		if errors.Is(err, engine.ErrNotFound) {
			continue
		}
		if err != nil {
			it.err = err
			break
		}
		it.keys = append(it.keys, ek)
		it.vals = append(it.vals, v)
	}
	return it
}

func (it *candidateLockIter) at(i int) bool {
	it.pos = i
	return it.Valid()
}

func (it *candidateLockIter) First() bool { return it.at(0) }
func (it *candidateLockIter) Last() bool  { return it.at(len(it.keys) - 1) }
func (it *candidateLockIter) Next() bool  { return it.at(it.pos + 1) }
func (it *candidateLockIter) Prev() bool  { return it.at(it.pos - 1) }
func (it *candidateLockIter) Valid() bool {
	return it.err == nil && it.pos >= 0 && it.pos < len(it.keys)
}
func (it *candidateLockIter) Key() []byte   { return it.keys[it.pos] }
func (it *candidateLockIter) Value() []byte { return it.vals[it.pos] }
func (it *candidateLockIter) Error() error  { return it.err }
func (it *candidateLockIter) Close() error  { return nil }

// SeekGE positions at the first lock key >= key.
func (it *candidateLockIter) SeekGE(key []byte) bool {
	i := 0
	for i < len(it.keys) && string(it.keys[i]) < string(key) {
		i++
	}
	return it.at(i)
}

// SeekLT positions at the last lock key < key.
func (it *candidateLockIter) SeekLT(key []byte) bool {
	i := len(it.keys) - 1
	for i >= 0 && string(it.keys[i]) >= string(key) {
		i--
	}
	return it.at(i)
}
