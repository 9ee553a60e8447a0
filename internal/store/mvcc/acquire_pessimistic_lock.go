package mvcc

import (
	"bytes"

	"github.com/strata-db/strata/internal/kv"
)

// PessimisticLockParams are the request-level parameters of
// AcquirePessimisticLock, shared by the request's keys.
type PessimisticLockParams struct {
	Primary     []byte
	StartTS     uint64
	ForUpdateTS uint64
	LockTTL     uint64
	MinCommitTS uint64
}

// PessimisticLockRolledBackError reports a pessimistic lock request of a
// txn that was already rolled back on the key.
type PessimisticLockRolledBackError struct {
	Key     []byte
	StartTS uint64
}

func (e *PessimisticLockRolledBackError) Error() string {
	return "mvcc: pessimistic lock rolled back: key=" + string(e.Key)
}

// AcquirePessimisticLock locks key for the pessimistic txn p.StartTS at
// p.ForUpdateTS (reference §2.7). It fails with *kv.LockedError when
// another txn holds a lock, with a WriteConflict (PessimisticRetry) when a
// write was committed after for_update_ts, with AlreadyExist when
// shouldNotExist and the key has a value at for_update_ts, and with
// PessimisticLockRolledBack when the txn was rolled back on the key. An
// own pessimistic lock makes the call idempotent (re-locked only to raise
// for_update_ts). With returnValue the value visible at the effective
// for_update_ts is returned.
func AcquirePessimisticLock(t *Txn, r *Reader, p *PessimisticLockParams, key []byte, shouldNotExist, returnValue bool) (value []byte, found bool, err error) {
	if err := kv.ValidateKey(key); err != nil {
		return nil, false, err
	}
	old, err := r.LoadLock(key)
	if err != nil {
		return nil, false, err
	}
	forUpdateTS := p.ForUpdateTS
	if old != nil {
		if old.StartTS != p.StartTS {
			return nil, false, &kv.LockedError{Lock: old.Info(bytes.Clone(key))}
		}
		if !old.IsPessimistic() {
			return nil, false, &LockTypeNotMatchError{Key: key, StartTS: p.StartTS}
		}
		forUpdateTS = max(forUpdateTS, old.ForUpdateTS)
	} else if err := checkPessimisticConflict(r, p, key); err != nil {
		return nil, false, err
	}
	if shouldNotExist || returnValue {
		value, found, err = r.valueAt(key, forUpdateTS)
		if err != nil {
			return nil, false, err
		}
		if shouldNotExist && found {
			return nil, false, &kv.AlreadyExistError{Key: bytes.Clone(key)}
		}
	}
	if old != nil && old.ForUpdateTS >= p.ForUpdateTS {
		return value, found, nil // already locked at least as new
	}
	l := &Lock{
		Type:        kv.LockTypePessimistic,
		Primary:     p.Primary,
		StartTS:     p.StartTS,
		TTL:         p.LockTTL,
		ForUpdateTS: forUpdateTS,
		MinCommitTS: p.MinCommitTS,
	}
	if old != nil {
		l.TTL = max(l.TTL, old.TTL)
		l.MinCommitTS = max(l.MinCommitTS, old.MinCommitTS)
	}
	t.putLock(key, l)
	return value, found, nil
}

// checkPessimisticConflict applies §2.7's checks of an unlocked key
// against its newest write W: W committed after for_update_ts is a write
// conflict the client answers by retrying the statement at a newer
// for_update_ts; a rollback of this txn fails the lock.
func checkPessimisticConflict(r *Reader, p *PessimisticLockParams, key []byte) error {
	cts, w, err := r.newestWrite(key)
	if err != nil || w == nil {
		return err
	}
	if cts > p.ForUpdateTS {
		return &kv.WriteConflictError{StartTS: p.StartTS, ConflictStartTS: w.StartTS, ConflictCommitTS: cts,
			Key: bytes.Clone(key), Primary: p.Primary, Reason: kv.ConflictPessimisticRetry}
	}
	if cts == p.StartTS && w.isRollbackRecord() {
		return &PessimisticLockRolledBackError{Key: bytes.Clone(key), StartTS: p.StartTS}
	}
	if cts > p.StartTS {
		own, err := r.writeAt(key, p.StartTS)
		if err != nil {
			return err
		}
		if own != nil && own.isRollbackRecord() {
			return &PessimisticLockRolledBackError{Key: bytes.Clone(key), StartTS: p.StartTS}
		}
	}
	return nil
}

// PessimisticRollback deletes key's lock if it is a Pessimistic lock of
// the txn startTS with for_update_ts <= forUpdateTS (reference §2.7). It
// writes no rollback record.
func PessimisticRollback(t *Txn, r *Reader, key []byte, startTS, forUpdateTS uint64) error {
	if err := kv.ValidateKey(key); err != nil {
		return err
	}
	l, err := r.LoadLock(key)
	if err != nil || l == nil {
		return err
	}
	if l.IsPessimistic() && l.StartTS == startTS && l.ForUpdateTS <= forUpdateTS {
		t.deleteLock(key)
	}
	return nil
}
