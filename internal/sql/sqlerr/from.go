package sqlerr

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// MsgResultUndetermined is TiDB's message for a commit whose outcome is
// unknown (sent with 1105, as TiDB does).
const MsgResultUndetermined = "execution result undetermined"

// From maps any error to the MySQL error the client receives. A *Error in
// the chain is returned as is; storage and context errors map by identity
// (see the package comment); everything else becomes 1105 with the error's
// text. From(nil) is nil.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var wc *kv.WriteConflictError
	switch {
	case errors.As(err, &wc):
		return writeConflict(wc.StartTS, wc.ConflictStartTS, wc.ConflictCommitTS,
			fmt.Sprintf("%q", wc.Key), conflictReason(wc.Reason))
	case errors.Is(err, kv.ErrWriteConflict):
		return writeConflict(0, 0, 0, "?", conflictReason(kv.ConflictUnknown))
	case errors.Is(err, kv.ErrDeadlock):
		return New(ErrLockDeadlock)
	case errors.Is(err, kv.ErrLockWaitTimeout), errors.Is(err, kv.ErrKeyIsLocked):
		return New(ErrLockWaitTimeout)
	case errors.Is(err, kv.ErrAlreadyExist):
		key := "?"
		var ae *kv.AlreadyExistError
		if errors.As(err, &ae) {
			key = fmt.Sprintf("%q", ae.Key)
		}
		return New(ErrDupEntry, key, "PRIMARY")
	case errors.Is(err, kv.ErrTxnTooLarge):
		return Newf(ErrTxnTooLarge, "Transaction is too large: %v", err)
	case errors.Is(err, kv.ErrResultUndetermined):
		return Newf(ErrUnknown, MsgResultUndetermined)
	case errors.Is(err, kv.ErrRegionUnavailable):
		return New(ErrRegionUnavailable)
	case errors.Is(err, kv.ErrTxnRetryable), errors.Is(err, kv.ErrTxnLockNotFound):
		return New(ErrTxnRetryable, err.Error()+" [try again later]")
	case errors.Is(err, kv.ErrNotSupported):
		return Newf(ErrNotSupportedYet, "This version of Strata doesn't yet support '%s'", err.Error())
	case errors.Is(err, context.Canceled):
		return New(ErrQueryInterrupted)
	case errors.Is(err, context.DeadlineExceeded):
		return New(ErrMaxExecTimeExceeded)
	}
	return Newf(ErrUnknown, "%s", err.Error())
}

// writeConflict is the error of a transaction that lost a write
// conflict: MySQL's 1213 with SQLSTATE 40001 ("serialization failure:
// restart the transaction"), the code every MySQL client and sysbench
// (whose --mysql-ignore-errors default is 1213,1020,1205) retry, carrying
// TiDB's write-conflict text so the details are not lost. TiDB's own
// number, 9007, is not retried by those clients.
func writeConflict(startTS, conflictStartTS, conflictCommitTS uint64, key, reason string) *Error {
	return Newf(ErrLockDeadlock, tidbMessages[ErrWriteConflict], startTS, conflictStartTS, conflictCommitTS, key, reason)
}

func conflictReason(r kv.WriteConflictReason) string {
	switch r {
	case kv.ConflictOptimistic:
		return "Optimistic"
	case kv.ConflictPessimisticRetry:
		return "PessimisticRetry"
	case kv.ConflictSelfRolledBack:
		return "SelfRolledBack"
	case kv.ConflictRcCheckTs:
		return "RcCheckTs"
	case kv.ConflictLazyUniquenessCheck:
		return "LazyUniquenessCheck"
	}
	return "Unknown"
}
