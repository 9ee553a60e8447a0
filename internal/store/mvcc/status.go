package mvcc

import "github.com/strata-db/strata/internal/kv"

// Action says what CheckTxnStatus did (numbering as kvrpcpb.Action).
type Action int32

// CheckTxnStatus actions.
const (
	ActionNoAction Action = iota
	ActionTTLExpireRollback
	ActionLockNotExistRollback
	ActionMinCommitTSPushed
	ActionTTLExpirePessimisticRollback
	ActionLockNotExistDoNothing
)

// TxnStatus is the result of CheckTxnStatus: LockTTL > 0 means the txn is
// alive (Lock is set); CommitTS > 0 means committed; both 0: rolled back.
type TxnStatus struct {
	LockTTL  uint64
	CommitTS uint64
	Action   Action
	Lock     *kv.LockInfo
}

// CheckTxnStatusParams are the parameters of CheckTxnStatus (§2.5).
type CheckTxnStatusParams struct {
	Primary                  []byte
	LockTS                   uint64
	CallerStartTS            uint64
	CurrentTS                uint64
	RollbackIfNotExist       bool
	ForceSyncCommit          bool
	ResolvingPessimisticLock bool
}

// SecondaryLockStatus is the result of CheckSecondaryLock on one key:
// Lock set means still locked by the txn; CommitTS > 0 committed;
// RolledBack true rolled back.
type SecondaryLockStatus struct {
	Lock       *Lock
	CommitTS   uint64
	RolledBack bool
}
