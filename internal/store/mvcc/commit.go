package mvcc

import (
	"github.com/strata-db/strata/internal/kv"
)

// Commit commits key of the txn startTS at commitTS (reference §2.3).
// It is idempotent: a key already committed by the txn succeeds. A missing
// lock with a rollback or no record at all is a *kv.TxnLockNotFoundError.
// A Pessimistic lock (never prewritten) is deleted and nothing is written.
func Commit(t *Txn, r *Reader, key []byte, startTS, commitTS uint64) error {
	if err := kv.ValidateKey(key); err != nil {
		return err
	}
	if commitTS <= startTS {
		return &kv.InvalidTxnTsoError{StartTS: startTS, CommitTS: commitTS}
	}
	l, err := r.LoadLock(key)
	if err != nil {
		return err
	}
	if l == nil || l.StartTS != startTS {
		rec, err := r.txnCommitRecord(key, startTS)
		if err != nil {
			return err
		}
		if rec.committed() {
			return nil
		}
		return &kv.TxnLockNotFoundError{Key: key}
	}
	if commitTS < l.MinCommitTS {
		return &kv.CommitTsExpiredError{StartTS: startTS, AttemptedCommitTS: commitTS, Key: key, MinCommitTS: l.MinCommitTS}
	}
	if l.IsPessimistic() {
		t.deleteLock(key)
		return nil
	}
	w := Write{Type: writeTypeFromLock(l.Type), StartTS: startTS, ShortValue: l.ShortValue, HasValue: l.HasValue}
	if containsTS(l.RollbackTS, commitTS) {
		w.HasOverlappedRollback = true
	}
	t.putWrite(key, commitTS, &w)
	t.deleteLock(key)
	return nil
}
