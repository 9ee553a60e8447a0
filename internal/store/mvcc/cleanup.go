package mvcc

import (
	"github.com/strata-db/strata/internal/kv"
)

// Cleanup rolls back key of the txn startTS unless it is committed
// (reference §2.4). With currentTS != 0 an own lock that has not expired
// yields a *kv.LockedError. A committed txn yields committedTS > 0 and no
// error. The rollback of an own lock is protected iff key is the primary;
// a rollback written where the lock is missing is protected iff protect,
// and unprotected ones collapse the previous unprotected rollback. The
// caller (txn layer) raises max_ts to startTS before taking the snapshot.
func Cleanup(t *Txn, r *Reader, key []byte, startTS, currentTS uint64, protect bool) (committedTS uint64, err error) {
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	l, err := r.LoadLock(key)
	if err != nil {
		return 0, err
	}
	if l != nil && l.StartTS == startTS {
		if currentTS != 0 && !isExpired(l, currentTS) {
			return 0, &kv.LockedError{Lock: l.Info(key)}
		}
		return 0, rollbackLock(t, r, key, l, !protect)
	}
	state, cts, err := missingLock(t, r, key, startTS, l, protect)
	if err != nil {
		return 0, err
	}
	if state == stateCommitted {
		return cts, nil
	}
	return 0, nil
}
