package mvcc

import (
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// CommittedError reports a rollback (BatchRollback, ResolveLock with
// commit_ts 0) of a transaction that is already committed on the key.
type CommittedError struct {
	Key      []byte
	StartTS  uint64
	CommitTS uint64
}

func (e *CommittedError) Error() string {
	return fmt.Sprintf("mvcc: txn already committed: key=%q start_ts=%d commit_ts=%d", e.Key, e.StartTS, e.CommitTS)
}

// LockTypeNotMatchError reports an optimistic prewrite that found its own
// pessimistic lock.
type LockTypeNotMatchError struct {
	Key     []byte
	StartTS uint64
}

func (e *LockTypeNotMatchError) Error() string {
	return fmt.Sprintf("mvcc: lock type not match: key=%q start_ts=%d", e.Key, e.StartTS)
}

// PrimaryMismatchError reports CheckTxnStatus on a key whose lock of the
// txn names another primary.
type PrimaryMismatchError struct{ Lock kv.LockInfo }

func (e *PrimaryMismatchError) Error() string {
	return fmt.Sprintf("mvcc: primary mismatch: key=%q lock primary=%q start_ts=%d", e.Lock.Key, e.Lock.Primary, e.Lock.StartTS)
}

// CorruptionError reports a broken storage invariant (reference §7), e.g.
// rolling back a key whose txn is committed. TiKV panics here; we refuse.
type CorruptionError struct{ Msg string }

func (e *CorruptionError) Error() string { return "mvcc: invariant broken: " + e.Msg }

// PessimisticLockNotFoundError reports a pessimistic prewrite of a key
// that was not locked and has a newer write than for_update_ts.
type PessimisticLockNotFoundError struct {
	Key     []byte
	StartTS uint64
}

func (e *PessimisticLockNotFoundError) Error() string {
	return fmt.Sprintf("%v: key=%q start_ts=%d", kv.ErrPessimisticLockNotFound, e.Key, e.StartTS)
}

// Is makes errors.Is(err, kv.ErrPessimisticLockNotFound) true.
func (e *PessimisticLockNotFoundError) Is(target error) bool {
	return target == kv.ErrPessimisticLockNotFound
}
