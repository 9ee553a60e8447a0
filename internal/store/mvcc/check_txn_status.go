package mvcc

import (
	"bytes"

	"github.com/strata-db/strata/internal/kv"
)

const maxTS = ^uint64(0)

// CheckTxnStatus checks the txn p.LockTS through its primary key (reference
// §2.5). The caller (txn layer) raises max_ts to max(LockTS, CurrentTS,
// CallerStartTS) (ignoring MaxUint64) before taking the snapshot.
//
//   - An async-commit lock is reported alive and never changed unless
//     ForceSyncCommit.
//   - An expired lock is rolled back (protected: it is the primary);
//     when resolving a pessimistic lock, a Pessimistic primary is just
//     removed.
//   - A live lock's min_commit_ts is pushed past CallerStartTS when
//     0 < min_commit_ts <= CallerStartTS != MaxUint64.
//   - No lock: committed, rolled back, or (RollbackIfNotExist) a protected
//     rollback is written; otherwise *kv.TxnNotFoundError.
func CheckTxnStatus(t *Txn, r *Reader, p *CheckTxnStatusParams) (TxnStatus, error) {
	key := p.Primary
	if err := kv.ValidateKey(key); err != nil {
		return TxnStatus{}, err
	}
	l, err := r.LoadLock(key)
	if err != nil {
		return TxnStatus{}, err
	}
	if l != nil && l.StartTS == p.LockTS {
		if !bytes.Equal(l.Primary, key) {
			if !l.IsPessimistic() || p.ResolvingPessimisticLock {
				return TxnStatus{}, &PrimaryMismatchError{Lock: l.Info(key)}
			}
			// A stray pessimistic lock on a non-primary: drop it and
			// answer from the write records.
			t.deleteLock(key)
			return checkMissing(t, r, p, nil)
		}
		return checkLockExists(t, r, p, l)
	}
	return checkMissing(t, r, p, l)
}

func checkLockExists(t *Txn, r *Reader, p *CheckTxnStatusParams, l *Lock) (TxnStatus, error) {
	key := p.Primary
	if l.UseAsyncCommit && !p.ForceSyncCommit {
		info := l.Info(key)
		return TxnStatus{LockTTL: l.TTL, Action: ActionNoAction, Lock: &info}, nil
	}
	if isExpired(l, p.CurrentTS) {
		if p.ResolvingPessimisticLock && l.IsPessimistic() {
			t.deleteLock(key)
			return TxnStatus{Action: ActionTTLExpirePessimisticRollback}, nil
		}
		if err := rollbackLock(t, r, key, l, true); err != nil {
			return TxnStatus{}, err
		}
		return TxnStatus{Action: ActionTTLExpireRollback}, nil
	}
	if l.MinCommitTS != 0 && p.CallerStartTS != maxTS && p.CallerStartTS >= l.MinCommitTS {
		l.MinCommitTS = max(p.CallerStartTS+1, p.CurrentTS)
		t.putLock(key, l)
	}
	pushed := (p.CallerStartTS != 0 && l.MinCommitTS > p.CallerStartTS) || p.CallerStartTS == maxTS
	info := l.Info(key)
	st := TxnStatus{LockTTL: l.TTL, Action: ActionNoAction, Lock: &info}
	if pushed {
		st.Action = ActionMinCommitTSPushed
	}
	return st, nil
}

func checkMissing(t *Txn, r *Reader, p *CheckTxnStatusParams, other *Lock) (TxnStatus, error) {
	key := p.Primary
	rec, err := r.txnCommitRecord(key, p.LockTS)
	if err != nil {
		return TxnStatus{}, err
	}
	switch {
	case rec.committed():
		return TxnStatus{CommitTS: rec.commitTS, Action: ActionNoAction}, nil
	case rec.rolledBack():
		return TxnStatus{Action: ActionNoAction}, nil
	case !p.RollbackIfNotExist:
		return TxnStatus{}, &kv.TxnNotFoundError{StartTS: p.LockTS, Primary: key}
	case p.ResolvingPessimisticLock:
		return TxnStatus{Action: ActionLockNotExistDoNothing}, nil
	}
	if _, _, err := missingLock(t, r, key, p.LockTS, other, true); err != nil {
		return TxnStatus{}, err
	}
	return TxnStatus{Action: ActionLockNotExistRollback}, nil
}
