package mvcc

import (
	"github.com/strata-db/strata/internal/kv"
)

// CheckSecondaryLock checks one key of the async-commit txn startTS
// (reference §2.6). The caller raises max_ts to startTS first and stops at
// the first key that is not locked.
//
//   - Own prewrite lock: Lock is set, nothing changes.
//   - Own Pessimistic lock: it is deleted and a protected rollback written.
//   - No own lock: the commit record answers (CommitTS or RolledBack); with
//     no record a protected rollback is written (collapsing the previous
//     unprotected one and marking another txn's async-commit lock).
func CheckSecondaryLock(t *Txn, r *Reader, key []byte, startTS uint64) (SecondaryLockStatus, error) {
	if err := kv.ValidateKey(key); err != nil {
		return SecondaryLockStatus{}, err
	}
	l, err := r.LoadLock(key)
	if err != nil {
		return SecondaryLockStatus{}, err
	}
	var other *Lock
	if l != nil && l.StartTS == startTS {
		if !l.IsPessimistic() {
			return SecondaryLockStatus{Lock: l}, nil
		}
		t.deleteLock(key)
	} else {
		other = l
	}
	rec, err := r.txnCommitRecord(key, startTS)
	if err != nil {
		return SecondaryLockStatus{}, err
	}
	switch {
	case rec.committed():
		return SecondaryLockStatus{CommitTS: rec.commitTS}, nil
	case rec.rolledBack():
		return SecondaryLockStatus{RolledBack: true}, nil
	}
	if other != nil && rec.overlapped == nil {
		markRollbackOnMismatchingLock(t, key, other, startTS, true)
	}
	writeRollback(t, key, startTS, true, rec.overlapped)
	if rec.overlapped == nil {
		if err := collapsePrevRollback(t, r, key, startTS); err != nil {
			return SecondaryLockStatus{}, err
		}
	}
	return SecondaryLockStatus{RolledBack: true}, nil
}
