package mvcc

import (
	"bytes"

	"github.com/strata-db/strata/internal/kv"
)

// Prewrite prewrites one mutation of the txn p.StartTS (reference §2.2
// steps 2-5) and returns the lock's min_commit_ts for async-commit/1PC
// locks (0 otherwise, and 0 after a fallback to 2PC).
//
// The request-level rules of §2.2 are the caller's: raising max_ts for
// must-not-exist ops, looking for the txn's own commit record when a key
// fails, writing nothing when any key is locked (Txn.Reset), and choosing
// CommitOnePC or FallbackOnePC once every key succeeded.
//
// Async commit and 1PC compute min_commit_ts = max(p.MinCommitTS,
// max(max_ts, start_ts, for_update_ts)+1) inside p.Mem.LockKey, which
// publishes the lock to readers. When it exceeds p.MaxCommitTS the key
// falls back to a plain 2PC lock, and p.UseAsyncCommit and p.TryOnePC are
// cleared so that later keys of the request use 2PC too. 1PC locks are kept
// in t, not written, until CommitOnePC or FallbackOnePC.
func Prewrite(t *Txn, r *Reader, p *PrewriteParams, m Mutation) (minCommitTS uint64, err error) {
	key := m.Key
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	if len(m.Value) > kv.MaxValueSize {
		return 0, kv.InvalidArgumentf("value of %d bytes for key %q exceeds %d", len(m.Value), key, kv.MaxValueSize)
	}
	lockType, err := lockTypeOf(m.Op)
	if err != nil {
		return 0, err
	}
	pessimistic := p.ForUpdateTS != 0
	if m.ReadNewest && pessimistic {
		return 0, kv.InvalidArgumentf("read_newest in a pessimistic prewrite of key %q", key)
	}
	old, err := r.LoadLock(key)
	if err != nil {
		return 0, err
	}
	hadPessimisticLock := false
	if old != nil {
		if old.StartTS != p.StartTS {
			if m.Pessimistic {
				// Our pessimistic lock is gone and another txn holds the key.
				return 0, &PessimisticLockNotFoundError{Key: key, StartTS: p.StartTS}
			}
			info := old.Info(key)
			if pessimistic {
				info.TTL = 0 // the client resolves it at once
			}
			return 0, &kv.LockedError{Lock: info}
		}
		if !old.IsPessimistic() {
			// Duplicate prewrite: idempotent success.
			if old.UseAsyncCommit {
				return old.MinCommitTS, nil
			}
			return 0, nil
		}
		if !pessimistic {
			return 0, &LockTypeNotMatchError{Key: key, StartTS: p.StartTS}
		}
		hadPessimisticLock = true
	}

	if m.Pessimistic && !hadPessimisticLock {
		// The pessimistic lock was lost (rolled back by a resolver that
		// thought us dead): amend it unless the key changed since start_ts.
		if err := checkLostPessimisticLock(r, p, key); err != nil {
			return 0, err
		}
		hadPessimisticLock = true
	}
	mustNotExist := m.Op == OpInsert || m.Op == OpCheckNotExists
	skip := p.SkipConstraintCheck
	if pessimistic {
		skip = hadPessimisticLock || !p.IsRetry
	}
	if mustNotExist || !skip || m.ReadNewest {
		if err := checkNewerVersion(r, p, m, mustNotExist); err != nil {
			return 0, err
		}
	} else if !hadPessimisticLock {
		// Stricter than §2.2 (which skips every check): a skipped check
		// must still never let a rolled-back txn prewrite again (§7.4-5).
		// An own pessimistic lock already rules that out (every rollback
		// deletes the lock, and AcquirePessimisticLock refuses a txn
		// rolled back on the key), and so did the amend check of a lost one.
		if err := checkSelfRolledBack(r, p, key); err != nil {
			return 0, err
		}
	}
	if m.Op == OpCheckNotExists {
		return 0, nil
	}

	l := &Lock{
		Type:        lockType,
		Primary:     p.Primary,
		StartTS:     p.StartTS,
		TTL:         p.LockTTL,
		ForUpdateTS: p.ForUpdateTS,
		TxnSize:     p.TxnSize,
		MinCommitTS: p.MinCommitTS,
	}
	if old != nil {
		l.TTL = max(l.TTL, old.TTL)
		l.MinCommitTS = max(l.MinCommitTS, old.MinCommitTS)
		l.ForUpdateTS = max(l.ForUpdateTS, old.ForUpdateTS)
	}
	if lockType == kv.LockTypePut {
		if len(m.Value) <= MaxShortValueLen {
			l.ShortValue, l.HasValue = m.Value, true
		} else {
			t.putValue(key, p.StartTS, m.Value)
		}
	}
	if p.UseAsyncCommit || p.TryOnePC {
		if p.Mem == nil {
			return 0, kv.InvalidArgumentf("async commit / 1PC prewrite without a memory locker")
		}
		l.UseAsyncCommit = p.UseAsyncCommit
		if p.UseAsyncCommit && bytes.Equal(key, p.Primary) {
			l.Secondaries = p.Secondaries
		}
		tooLarge := false
		p.Mem.LockKey(key, func(maxTS uint64) *Lock {
			mc := max(p.MinCommitTS, max(maxTS, p.StartTS, l.ForUpdateTS)+1)
			if p.MaxCommitTS != 0 && mc > p.MaxCommitTS {
				tooLarge = true
				return nil
			}
			l.MinCommitTS = max(mc, l.MinCommitTS)
			l.UseOnePC = p.TryOnePC
			pub := *l // readers see this copy; l may still change (fallback)
			return &pub
		})
		if tooLarge {
			// CommitTsTooLarge: fall back to 2PC for this and later keys.
			p.UseAsyncCommit, p.TryOnePC = false, false
			l.UseAsyncCommit, l.Secondaries, l.UseOnePC = false, nil, false
		} else {
			minCommitTS = l.MinCommitTS
		}
	}
	if l.UseOnePC {
		t.onePC = append(t.onePC, onePCLock{key: key, lock: l, hadLock: old != nil})
		return minCommitTS, nil
	}
	t.putLock(key, l)
	return minCommitTS, nil
}

func lockTypeOf(op MutationOp) (kv.LockType, error) {
	switch op {
	case OpPut, OpInsert, OpCheckNotExists:
		return kv.LockTypePut, nil
	case OpDel:
		return kv.LockTypeDelete, nil
	case OpLock:
		return kv.LockTypeLock, nil
	default:
		return 0, kv.InvalidArgumentf("unknown mutation op %d", op)
	}
}

// checkNewerVersion is §2.2 step 3 against key's newest write record W;
// an optimistic mutation read at its newest version also fails on a W
// newer than what that read saw.
func checkNewerVersion(r *Reader, p *PrewriteParams, m Mutation, mustNotExist bool) error {
	key := m.Key
	cts, w, err := r.newestWrite(key)
	if err != nil || w == nil {
		return err
	}
	conflict := func(reason kv.WriteConflictReason) error {
		return &kv.WriteConflictError{StartTS: p.StartTS, ConflictStartTS: w.StartTS,
			ConflictCommitTS: cts, Key: key, Primary: p.Primary, Reason: reason}
	}
	if cts == p.StartTS && w.isRollbackRecord() {
		return conflict(kv.ConflictSelfRolledBack)
	}
	if p.ForUpdateTS == 0 {
		if cts > p.StartTS {
			return conflict(kv.ConflictOptimistic)
		}
		if m.ReadNewest && cts > m.NewestSeen {
			// Only a commit record newer than what the read saw fails it
			// (a rollback above it bounds no commit below it).
			ccts := cts
			if w.Type == WriteTypeRollback {
				var err error
				if ccts, _, err = r.newestCommitRecord(key, cts); err != nil {
					return err
				}
			}
			if ccts > m.NewestSeen {
				return conflict(kv.ConflictOptimistic)
			}
		}
	} else if cts > p.ForUpdateTS && w.Type != WriteTypeRollback {
		return &PessimisticLockNotFoundError{Key: key, StartTS: p.StartTS}
	}
	if mustNotExist {
		it, err := r.keyWriteIter(key)
		if err != nil {
			return err
		}
		_, found, err := r.visibleValue(it, key, maxTS, true)
		if err != nil {
			return err
		}
		if found {
			return &kv.AlreadyExistError{Key: key}
		}
	}
	return nil
}

// checkLostPessimisticLock is the amend check of a DoPessimisticCheck key
// without its lock: any write at or above start_ts may have been read or
// overwritten without us, so the prewrite fails.
func checkLostPessimisticLock(r *Reader, p *PrewriteParams, key []byte) error {
	cts, w, err := r.newestWrite(key)
	if err != nil {
		return err
	}
	if w != nil && cts >= p.StartTS {
		return &PessimisticLockNotFoundError{Key: key, StartTS: p.StartTS}
	}
	return nil
}

// checkSelfRolledBack fails when the write record at exactly start_ts is a
// rollback of this txn or carries the overlapped-rollback flag.
func checkSelfRolledBack(r *Reader, p *PrewriteParams, key []byte) error {
	w, err := r.writeAt(key, p.StartTS)
	if err != nil || w == nil {
		return err
	}
	if w.isRollbackRecord() {
		return &kv.WriteConflictError{StartTS: p.StartTS, ConflictStartTS: w.StartTS,
			ConflictCommitTS: p.StartTS, Key: key, Primary: p.Primary, Reason: kv.ConflictSelfRolledBack}
	}
	return nil
}
