package kv

import (
	"errors"
	"fmt"
)

// Sentinel errors. Typed errors below wrap these through their Is methods,
// so callers test identity with errors.Is and read details with errors.As.
var (
	// ErrNotExist: Get found no value for the key.
	ErrNotExist = errors.New("kv: key not exist")
	// ErrKeyIsLocked: a lock of another transaction blocks the operation.
	ErrKeyIsLocked = errors.New("kv: key is locked")
	// ErrWriteConflict: a newer write exists; retry the whole transaction.
	ErrWriteConflict = errors.New("kv: write conflict")
	// ErrAlreadyExist: an Insert found the key present.
	ErrAlreadyExist = errors.New("kv: key already exists")
	// ErrTxnNotFound: no lock, commit or rollback of the transaction.
	ErrTxnNotFound = errors.New("kv: transaction not found")
	// ErrTxnLockNotFound: commit found neither the lock nor a commit record:
	// the transaction was rolled back.
	ErrTxnLockNotFound = errors.New("kv: transaction lock not found")
	// ErrCommitTsExpired: the commit ts is below the lock's min_commit_ts.
	ErrCommitTsExpired = errors.New("kv: commit ts expired")
	// ErrCommitTsTooLarge: a calculated commit ts exceeds max_commit_ts.
	ErrCommitTsTooLarge = errors.New("kv: commit ts too large")
	// ErrInvalidTxnTso: commit ts not above start ts.
	ErrInvalidTxnTso = errors.New("kv: invalid transaction timestamps")
	// ErrInvalidKey: empty, oversized or malformed key.
	ErrInvalidKey = errors.New("kv: invalid key")
	// ErrInvalidRange: a range whose start is above its end.
	ErrInvalidRange = errors.New("kv: invalid range")
	// ErrInvalidArgument: a request that is malformed in another way (a
	// prewrite without mutations, a missing primary, an oversized value).
	ErrInvalidArgument = errors.New("kv: invalid argument")
	// ErrNotSupported: the operation is not built yet.
	ErrNotSupported = errors.New("kv: not supported")
	// ErrResultUndetermined: an RPC that decides a commit failed without a
	// reply; the transaction may or may not be committed.
	ErrResultUndetermined = errors.New("kv: transaction result undetermined")
	// ErrRegionUnavailable: region errors persisted past the backoff budget.
	ErrRegionUnavailable = errors.New("kv: region unavailable")
	// ErrTxnRetryable: a retryable storage error not covered above.
	ErrTxnRetryable = errors.New("kv: retryable transaction error")
	// ErrTxnClosed: the transaction was already committed or rolled back.
	ErrTxnClosed = errors.New("kv: transaction closed")
	// ErrTxnTooLarge: the transaction exceeds the size limit.
	ErrTxnTooLarge = errors.New("kv: transaction too large")
	// ErrDeadlock: pessimistic lock wait formed a cycle.
	ErrDeadlock = errors.New("kv: deadlock")
	// ErrLockWaitTimeout: pessimistic lock wait exceeded its budget.
	ErrLockWaitTimeout = errors.New("kv: lock wait timeout")
	// ErrPessimisticLockNotFound: a pessimistic txn's prewrite found its
	// lock gone (rolled back by a resolver, or lost in a crash) and the
	// key written since: the transaction is aborted.
	ErrPessimisticLockNotFound = errors.New("kv: pessimistic lock not found")
)

// LockedError reports a blocking lock.
type LockedError struct{ Lock LockInfo }

func (e *LockedError) Error() string {
	return fmt.Sprintf("key is locked: key=%q primary=%q start_ts=%d ttl=%d type=%c async=%v min_commit_ts=%d",
		e.Lock.Key, e.Lock.Primary, e.Lock.StartTS, e.Lock.TTL, e.Lock.Type, e.Lock.UseAsyncCommit, e.Lock.MinCommitTS)
}

// Is makes errors.Is(err, ErrKeyIsLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrKeyIsLocked }

// WriteConflictReason says why a write conflicted.
type WriteConflictReason int32

// Write conflict reasons (numbering as kvrpcpb.WriteConflictReason).
const (
	ConflictUnknown WriteConflictReason = iota
	ConflictOptimistic
	ConflictPessimisticRetry
	ConflictSelfRolledBack
	ConflictRcCheckTs
	ConflictLazyUniquenessCheck
)

// WriteConflictError reports a write newer than the transaction's start.
type WriteConflictError struct {
	StartTS          uint64
	ConflictStartTS  uint64
	ConflictCommitTS uint64
	Key              []byte
	Primary          []byte
	Reason           WriteConflictReason
}

func (e *WriteConflictError) Error() string {
	return fmt.Sprintf("write conflict: start_ts=%d conflict_start_ts=%d conflict_commit_ts=%d key=%q reason=%d",
		e.StartTS, e.ConflictStartTS, e.ConflictCommitTS, e.Key, e.Reason)
}

// Is makes errors.Is(err, ErrWriteConflict) true.
func (e *WriteConflictError) Is(target error) bool { return target == ErrWriteConflict }

// AlreadyExistError reports the key an Insert found present.
type AlreadyExistError struct{ Key []byte }

func (e *AlreadyExistError) Error() string { return fmt.Sprintf("key already exists: %q", e.Key) }

// Is makes errors.Is(err, ErrAlreadyExist) true.
func (e *AlreadyExistError) Is(target error) bool { return target == ErrAlreadyExist }

// TxnNotFoundError reports a transaction with no trace on its primary.
type TxnNotFoundError struct {
	StartTS uint64
	Primary []byte
}

func (e *TxnNotFoundError) Error() string {
	return fmt.Sprintf("txn not found: start_ts=%d primary=%q", e.StartTS, e.Primary)
}

// Is makes errors.Is(err, ErrTxnNotFound) true.
func (e *TxnNotFoundError) Is(target error) bool { return target == ErrTxnNotFound }

// TxnLockNotFoundError reports a commit that found the txn rolled back.
type TxnLockNotFoundError struct{ Key []byte }

func (e *TxnLockNotFoundError) Error() string {
	return fmt.Sprintf("txn lock not found (rolled back): key=%q", e.Key)
}

// Is makes errors.Is(err, ErrTxnLockNotFound) true.
func (e *TxnLockNotFoundError) Is(target error) bool { return target == ErrTxnLockNotFound }

// CommitTsExpiredError reports a commit ts below the lock's min_commit_ts.
type CommitTsExpiredError struct {
	StartTS           uint64
	AttemptedCommitTS uint64
	Key               []byte
	MinCommitTS       uint64
}

func (e *CommitTsExpiredError) Error() string {
	return fmt.Sprintf("commit ts expired: start_ts=%d attempted=%d min_commit_ts=%d key=%q",
		e.StartTS, e.AttemptedCommitTS, e.MinCommitTS, e.Key)
}

// Is makes errors.Is(err, ErrCommitTsExpired) true.
func (e *CommitTsExpiredError) Is(target error) bool { return target == ErrCommitTsExpired }

// CommitTsTooLargeError reports a calculated commit ts above max_commit_ts.
type CommitTsTooLargeError struct{ CommitTS uint64 }

func (e *CommitTsTooLargeError) Error() string {
	return fmt.Sprintf("commit ts too large: %d", e.CommitTS)
}

// Is makes errors.Is(err, ErrCommitTsTooLarge) true.
func (e *CommitTsTooLargeError) Is(target error) bool { return target == ErrCommitTsTooLarge }

// InvalidTxnTsoError reports commit_ts <= start_ts.
type InvalidTxnTsoError struct{ StartTS, CommitTS uint64 }

func (e *InvalidTxnTsoError) Error() string {
	return fmt.Sprintf("invalid txn tso: start_ts=%d commit_ts=%d", e.StartTS, e.CommitTS)
}

// Is makes errors.Is(err, ErrInvalidTxnTso) true.
func (e *InvalidTxnTsoError) Is(target error) bool { return target == ErrInvalidTxnTso }

// InvalidKeyError reports an empty, oversized or malformed key.
type InvalidKeyError struct {
	Key    []byte
	Reason string
}

func (e *InvalidKeyError) Error() string {
	return fmt.Sprintf("%v %q: %s", ErrInvalidKey, e.Key, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidKey) true.
func (e *InvalidKeyError) Is(target error) bool { return target == ErrInvalidKey }

// InvalidRangeError reports a range with start > end.
type InvalidRangeError struct{ Start, End []byte }

func (e *InvalidRangeError) Error() string {
	return fmt.Sprintf("%v: start %q > end %q", ErrInvalidRange, e.Start, e.End)
}

// Is makes errors.Is(err, ErrInvalidRange) true.
func (e *InvalidRangeError) Is(target error) bool { return target == ErrInvalidRange }

// InvalidArgumentf returns an error wrapping ErrInvalidArgument.
func InvalidArgumentf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}

// DeadlockError reports a pessimistic lock wait that would close a cycle
// of transactions waiting for each other. LockTS and LockKey name the
// lock the request waited for.
type DeadlockError struct {
	LockTS  uint64
	LockKey []byte
	KeyHash uint64
}

func (e *DeadlockError) Error() string {
	return fmt.Sprintf("deadlock: waiting for lock of txn %d on key %q", e.LockTS, e.LockKey)
}

// Is makes errors.Is(err, ErrDeadlock) true.
func (e *DeadlockError) Is(target error) bool { return target == ErrDeadlock }
