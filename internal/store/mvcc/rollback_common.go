package mvcc

import (
	"bytes"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// commitRecord is what the write space says about a txn on one key.
type commitRecord struct {
	commitTS uint64
	// own is the txn's own commit or rollback record (an overlapped
	// rollback is reported as a Rollback at start_ts); nil when none.
	own *Write
	// overlapped is another txn's commit record sitting at exactly the
	// txn's start_ts (only when own == nil), with its gc_fence computed.
	overlapped *Write
}

func (c *commitRecord) committed() bool  { return c.own != nil && c.own.Type != WriteTypeRollback }
func (c *commitRecord) rolledBack() bool { return c.own != nil && c.own.Type == WriteTypeRollback }

// txnCommitRecord scans key's write records from the newest down to startTS
// for the txn's own record (reference §2.3 "no own lock").
func (r *Reader) txnCommitRecord(key []byte, startTS uint64) (commitRecord, error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return commitRecord{}, err
	}
	var res commitRecord
	for ok := it.First(); ok; ok = it.Next() {
		cts := versionTS(it.Key())
		if cts < startTS {
			break
		}
		w, err := DecodeWrite(it.Value())
		if err != nil {
			return commitRecord{}, err
		}
		if w.StartTS == startTS {
			return commitRecord{commitTS: cts, own: cloneWrite(w)}, nil
		}
		if cts == startTS {
			if w.HasOverlappedRollback {
				return commitRecord{commitTS: cts, own: &Write{Type: WriteTypeRollback, StartTS: startTS}}, nil
			}
			res.overlapped = cloneWrite(w)
		}
	}
	if err := it.Error(); err != nil {
		return commitRecord{}, err
	}
	if res.overlapped != nil {
		fence, err := r.newerPutDeleteAbove(key, startTS)
		if err != nil {
			return commitRecord{}, err
		}
		res.overlapped.GCFence = fence
	}
	return res, nil
}

// writeRollback writes the rollback of txn startTS on key (reference §1.3,
// §2.4): a Rollback record at startTS, or, when another txn's commit record
// sits there, the overlapped flag on that record if the rollback is
// protected, and nothing if it is not.
func writeRollback(t *Txn, key []byte, startTS uint64, protected bool, overlapped *Write) {
	if overlapped != nil {
		if !protected {
			return
		}
		w := *overlapped
		w.HasOverlappedRollback = true
		t.putWrite(key, startTS, &w)
		return
	}
	w := Write{Type: WriteTypeRollback, StartTS: startTS}
	if protected {
		w.ShortValue, w.HasValue = protectedRollbackValue, true
	}
	t.putWrite(key, startTS, &w)
}

// collapsePrevRollback deletes key's newest record at or below startTS if
// it is an unprotected Rollback.
func collapsePrevRollback(t *Txn, r *Reader, key []byte, startTS uint64) error {
	cts, w, err := r.newestWriteAtOrBelow(key, startTS)
	if err != nil {
		return err
	}
	if w != nil && w.Type == WriteTypeRollback && !w.IsProtectedRollback() {
		t.deleteWrite(key, cts)
	}
	return nil
}

// rollbackLock rolls back the txn's own lock l on key (reference §2.4):
// delete the long value, write the rollback (protected iff key is the
// primary), collapse the previous unprotected rollback if asked, delete the
// lock.
func rollbackLock(t *Txn, r *Reader, key []byte, l *Lock, collapse bool) error {
	rec, err := r.txnCommitRecord(key, l.StartTS)
	if err != nil {
		return err
	}
	if rec.committed() {
		return &CorruptionError{Msg: fmt.Sprintf("rollback of key %q of txn %d committed at %d", key, l.StartTS, rec.commitTS)}
	}
	if rec.rolledBack() {
		t.deleteLock(key)
		return nil
	}
	if l.Type == kv.LockTypePut && !l.HasValue {
		t.deleteValue(key, l.StartTS)
	}
	protected := bytes.Equal(key, l.Primary)
	writeRollback(t, key, l.StartTS, protected, rec.overlapped)
	if collapse {
		if err := collapsePrevRollback(t, r, key, l.StartTS); err != nil {
			return err
		}
	}
	t.deleteLock(key)
	return nil
}

// markRollbackOnMismatchingLock records a protected rollback of startTS in
// another txn's async-commit lock on key, so that committing that lock at
// commit_ts == startTS keeps the rollback (as the overlapped flag).
func markRollbackOnMismatchingLock(t *Txn, key []byte, l *Lock, startTS uint64, protected bool) {
	if !protected || !l.UseAsyncCommit || l.MinCommitTS > startTS {
		return
	}
	c := *l
	c.RollbackTS = append(append([]uint64(nil), l.RollbackTS...), startTS)
	t.putLock(key, &c)
}

// txnState is the outcome of missingLock.
type txnState int

const (
	stateLockNotExist txnState = iota // a rollback was written (or nothing, if resolving pessimistic)
	stateCommitted
	stateRolledBack
)

// missingLock handles a txn whose lock is absent on key (another txn's
// lock, other may be nil): committed, rolled back, or a rollback is
// written (protected iff protect; unprotected ones collapse the previous
// one) and other's async-commit lock is marked.
func missingLock(t *Txn, r *Reader, key []byte, startTS uint64, other *Lock, protect bool) (txnState, uint64, error) {
	rec, err := r.txnCommitRecord(key, startTS)
	if err != nil {
		return 0, 0, err
	}
	if rec.committed() {
		return stateCommitted, rec.commitTS, nil
	}
	if rec.rolledBack() {
		return stateRolledBack, 0, nil
	}
	if !protect {
		if err := collapsePrevRollback(t, r, key, startTS); err != nil {
			return 0, 0, err
		}
	}
	if other != nil && rec.overlapped == nil {
		markRollbackOnMismatchingLock(t, key, other, startTS, protect)
	}
	writeRollback(t, key, startTS, protect, rec.overlapped)
	return stateLockNotExist, 0, nil
}

// isExpired reports whether l's TTL has passed at currentTS, comparing
// physical milliseconds (ts >> 18).
func isExpired(l *Lock, currentTS uint64) bool {
	return (l.StartTS>>18)+l.TTL < currentTS>>18
}
