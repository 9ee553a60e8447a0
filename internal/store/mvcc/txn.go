package mvcc

import (
	"github.com/strata-db/strata/internal/store/engine"
)

// Txn accumulates the modifications of one command (one MVCC action or a
// sequence of them over the keys of a request). It is not safe for
// concurrent use. Its Batch is handed to engine.Write by the caller.
type Txn struct {
	startTS uint64
	batch   engine.Batch
	// onePC holds the locks Prewrite computed with UseOnePC, in order; they
	// are not in batch until CommitOnePC or FallbackOnePC.
	onePC []onePCLock
}

type onePCLock struct {
	key  []byte
	lock *Lock
	// hadLock: an own pessimistic lock exists in the engine and must be
	// deleted on CommitOnePC.
	hadLock bool
}

// NewTxn returns an empty Txn for a command of the transaction startTS.
func NewTxn(startTS uint64) *Txn { return &Txn{startTS: startTS} }

// StartTS returns the transaction's start ts.
func (t *Txn) StartTS() uint64 { return t.startTS }

// Batch returns all modifications in order.
func (t *Txn) Batch() *engine.Batch { return &t.batch }

// Empty reports whether the Txn has no modifications (1PC locks pending in
// memory count as modifications).
func (t *Txn) Empty() bool { return t.batch.Empty() && len(t.onePC) == 0 }

// Reset drops every modification, including pending 1PC locks (a request
// that must write nothing, e.g. when a key was locked).
func (t *Txn) Reset() {
	t.batch.Reset()
	t.onePC = t.onePC[:0]
}

// OnePCPending returns how many 1PC locks wait for CommitOnePC or
// FallbackOnePC.
func (t *Txn) OnePCPending() int { return len(t.onePC) }

// CommitOnePC turns the 1PC locks held by Prewrite into write records at
// commitTS and deletes any existing (pessimistic) locks on those keys.
func (t *Txn) CommitOnePC(commitTS uint64) {
	for _, p := range t.onePC {
		w := Write{Type: writeTypeFromLock(p.lock.Type), StartTS: p.lock.StartTS,
			ShortValue: p.lock.ShortValue, HasValue: p.lock.HasValue}
		t.putWrite(p.key, commitTS, &w)
		if p.hadLock {
			t.deleteLock(p.key)
		}
	}
	t.onePC = t.onePC[:0]
}

// FallbackOnePC writes the 1PC locks as ordinary 2PC locks, keeping their
// min_commit_ts.
func (t *Txn) FallbackOnePC() {
	for _, p := range t.onePC {
		p.lock.UseOnePC = false
		t.putLock(p.key, p.lock)
	}
	t.onePC = t.onePC[:0]
}

func (t *Txn) putLock(key []byte, l *Lock) {
	t.batch.Put(LockKey(key), l.Encode(nil))
}

func (t *Txn) deleteLock(key []byte) {
	t.batch.Delete(LockKey(key))
}

func (t *Txn) putWrite(key []byte, commitTS uint64, w *Write) {
	t.batch.Put(WriteKey(key, commitTS), w.Encode(nil))
}

func (t *Txn) deleteWrite(key []byte, commitTS uint64) {
	t.batch.Delete(WriteKey(key, commitTS))
}

func (t *Txn) putValue(key []byte, startTS uint64, value []byte) {
	t.batch.Put(DataKey(key, startTS), value)
}

func (t *Txn) deleteValue(key []byte, startTS uint64) {
	t.batch.Delete(DataKey(key, startTS))
}
