package kvrpcpb

// Hand-written: conversions between the wire errors of this package and the
// errors with identity of internal/kv. Storage turns kv errors into KeyError
// with KeyErrorFrom; the client turns them back with (*KeyError).Err, so
// errors.Is(err, kv.ErrWriteConflict) holds on both sides of the wire.

import (
	"errors"

	"github.com/strata-db/strata/internal/kv"
)

// LockInfoFrom converts a kv.LockInfo to its wire form.
func LockInfoFrom(l *kv.LockInfo) *LockInfo {
	return &LockInfo{
		PrimaryLock:     l.Primary,
		LockVersion:     l.StartTS,
		Key:             l.Key,
		LockTtl:         l.TTL,
		TxnSize:         l.TxnSize,
		LockType:        OpFromLockType(l.Type),
		LockForUpdateTs: l.ForUpdateTS,
		UseAsyncCommit:  l.UseAsyncCommit,
		MinCommitTs:     l.MinCommitTS,
		Secondaries:     l.Secondaries,
	}
}

// KV converts a wire LockInfo to kv.LockInfo.
func (l *LockInfo) KV() kv.LockInfo {
	return kv.LockInfo{
		Key:            l.GetKey(),
		Primary:        l.GetPrimaryLock(),
		StartTS:        l.GetLockVersion(),
		TTL:            l.GetLockTtl(),
		TxnSize:        l.GetTxnSize(),
		Type:           l.GetLockType().LockType(),
		ForUpdateTS:    l.GetLockForUpdateTs(),
		UseAsyncCommit: l.GetUseAsyncCommit(),
		MinCommitTS:    l.GetMinCommitTs(),
		Secondaries:    l.GetSecondaries(),
	}
}

// OpFromLockType maps a lock type to the Op that LockInfo carries.
func OpFromLockType(t kv.LockType) Op {
	switch t {
	case kv.LockTypeDelete:
		return Op_Del
	case kv.LockTypeLock:
		return Op_Lock
	case kv.LockTypePessimistic:
		return Op_PessimisticLock
	default:
		return Op_Put
	}
}

// LockType maps a LockInfo's Op back to a lock type.
func (o Op) LockType() kv.LockType {
	switch o {
	case Op_Del:
		return kv.LockTypeDelete
	case Op_Lock:
		return kv.LockTypeLock
	case Op_PessimisticLock:
		return kv.LockTypePessimistic
	default:
		return kv.LockTypePut
	}
}

// KeyErrorFrom converts an error from storage into its wire form. nil maps
// to nil; errors without a typed field travel as abort with their text.
func KeyErrorFrom(err error) *KeyError {
	if err == nil {
		return nil
	}
	var (
		locked   *kv.LockedError
		conflict *kv.WriteConflictError
		exist    *kv.AlreadyExistError
		notFound *kv.TxnNotFoundError
		expired  *kv.CommitTsExpiredError
		tooLarge *kv.CommitTsTooLargeError
		lockNF   *kv.TxnLockNotFoundError
		badTso   *kv.InvalidTxnTsoError
		deadlock *kv.DeadlockError
	)
	switch {
	case errors.As(err, &locked):
		return &KeyError{Locked: LockInfoFrom(&locked.Lock)}
	case errors.As(err, &conflict):
		return &KeyError{Conflict: &WriteConflict{
			StartTs: conflict.StartTS, ConflictTs: conflict.ConflictStartTS,
			ConflictCommitTs: conflict.ConflictCommitTS, Key: conflict.Key,
			Primary: conflict.Primary, Reason: WriteConflictReason(conflict.Reason),
		}}
	case errors.As(err, &exist):
		return &KeyError{AlreadyExist: &AlreadyExist{Key: exist.Key}}
	case errors.As(err, &notFound):
		return &KeyError{TxnNotFound: &TxnNotFound{StartTs: notFound.StartTS, PrimaryKey: notFound.Primary}}
	case errors.As(err, &expired):
		return &KeyError{CommitTsExpired: &CommitTsExpired{
			StartTs: expired.StartTS, AttemptedCommitTs: expired.AttemptedCommitTS,
			Key: expired.Key, MinCommitTs: expired.MinCommitTS,
		}}
	case errors.As(err, &tooLarge):
		return &KeyError{CommitTsTooLarge: &CommitTsTooLarge{CommitTs: tooLarge.CommitTS}}
	case errors.As(err, &lockNF):
		return &KeyError{TxnLockNotFound: &TxnLockNotFound{Key: lockNF.Key}}
	case errors.As(err, &badTso):
		return &KeyError{InvalidTxnTso: &InvalidTxnTso{StartTs: badTso.StartTS, CommitTs: badTso.CommitTS}}
	case errors.As(err, &deadlock):
		return &KeyError{Deadlock: &Deadlock{LockTs: deadlock.LockTS, LockKey: deadlock.LockKey, DeadlockKeyHash: deadlock.KeyHash}}
	case errors.Is(err, kv.ErrTxnRetryable):
		return &KeyError{Retryable: err.Error()}
	default:
		return &KeyError{Abort: err.Error()}
	}
}

// Err converts a wire KeyError back into an error with identity. Abort
// messages keep their identity when they name one of kv's sentinels
// (invalid key, invalid range, invalid argument, not supported).
func (e *KeyError) Err() error {
	if e == nil {
		return nil
	}
	switch {
	case e.Locked != nil:
		return &kv.LockedError{Lock: e.Locked.KV()}
	case e.Conflict != nil:
		c := e.Conflict
		return &kv.WriteConflictError{StartTS: c.StartTs, ConflictStartTS: c.ConflictTs,
			ConflictCommitTS: c.ConflictCommitTs, Key: c.Key, Primary: c.Primary,
			Reason: kv.WriteConflictReason(c.Reason)}
	case e.AlreadyExist != nil:
		return &kv.AlreadyExistError{Key: e.AlreadyExist.Key}
	case e.TxnNotFound != nil:
		return &kv.TxnNotFoundError{StartTS: e.TxnNotFound.StartTs, Primary: e.TxnNotFound.PrimaryKey}
	case e.CommitTsExpired != nil:
		c := e.CommitTsExpired
		return &kv.CommitTsExpiredError{StartTS: c.StartTs, AttemptedCommitTS: c.AttemptedCommitTs,
			Key: c.Key, MinCommitTS: c.MinCommitTs}
	case e.CommitTsTooLarge != nil:
		return &kv.CommitTsTooLargeError{CommitTS: e.CommitTsTooLarge.CommitTs}
	case e.TxnLockNotFound != nil:
		return &kv.TxnLockNotFoundError{Key: e.TxnLockNotFound.Key}
	case e.InvalidTxnTso != nil:
		return &kv.InvalidTxnTsoError{StartTS: e.InvalidTxnTso.StartTs, CommitTS: e.InvalidTxnTso.CommitTs}
	case e.Deadlock != nil:
		d := e.Deadlock
		return &kv.DeadlockError{LockTS: d.LockTs, LockKey: d.LockKey, KeyHash: d.DeadlockKeyHash}
	case e.Retryable != "":
		return &remoteError{msg: e.Retryable, sentinel: kv.ErrTxnRetryable}
	default:
		return &remoteError{msg: e.Abort, sentinel: sentinelOf(e.Abort)}
	}
}

// remoteError is an error received as text, with the sentinel it names.
type remoteError struct {
	msg      string
	sentinel error
}

func (e *remoteError) Error() string        { return e.msg }
func (e *remoteError) Is(target error) bool { return e.sentinel != nil && target == e.sentinel }

// sentinelOf recovers the identity of an abort message from the sentinel
// text it starts with.
func sentinelOf(msg string) error {
	for _, s := range []error{kv.ErrInvalidKey, kv.ErrInvalidRange, kv.ErrInvalidArgument, kv.ErrNotSupported, kv.ErrTxnTooLarge, kv.ErrPessimisticLockNotFound} {
		if len(msg) >= len(s.Error()) && msg[:len(s.Error())] == s.Error() {
			return s
		}
	}
	return nil
}
