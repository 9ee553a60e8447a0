package txn

import (
	"context"
	"errors"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// DefaultWaitForLockTimeout caps how long one KvPessimisticLock waits for
// a lock held by another txn before answering KeyIsLocked (TiKV's
// pessimistic-txn.wait-for-lock-timeout); the client then resolves the
// lock or asks again, within its own lock-wait budget.
const DefaultWaitForLockTimeout = time.Second

// KvPessimisticLock locks the request's keys for a pessimistic txn at
// for_update_ts (reference §2.7). All keys are locked or none: on the
// first key locked by another txn nothing is written and the request
// waits, with the latches released, until that lock is released (then it
// tries again), the wait budget ends (KeyIsLocked with the lock), or the
// wait would close a cycle (Deadlock). Other key errors (WriteConflict:
// retry the statement at a newer for_update_ts; AlreadyExist;
// PessimisticLockRolledBack) abort the request with nothing written.
func (s *Storage) KvPessimisticLock(ctx context.Context, req *kvrpcpb.PessimisticLockRequest) (*kvrpcpb.PessimisticLockResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.PessimisticLockResponse{}
	if err := validatePessimisticLock(req); err != nil {
		resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
		return resp, nil
	}
	muts := req.GetMutations()
	keys := make([][]byte, len(muts))
	for i, m := range muts {
		keys[i] = m.GetKey()
	}
	p := &mvcc.PessimisticLockParams{
		Primary:     req.GetPrimaryLock(),
		StartTS:     req.GetStartVersion(),
		ForUpdateTS: req.GetForUpdateTs(),
		LockTTL:     req.GetLockTtl(),
		MinCommitTS: req.GetMinCommitTs(),
	}
	// Existence checks and returned values are reads at for_update_ts.
	s.cm.UpdateMaxTS(p.ForUpdateTS)
	deadline := time.Now().Add(s.lockWaitBudget(req.GetWaitTimeout()))
	for {
		var locked *kv.LockedError
		err := s.write(ctx, keys, p.StartTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
			resp.Errors, resp.Values, resp.NotFounds = nil, nil, nil
			for _, m := range muts {
				v, found, err := mvcc.AcquirePessimisticLock(t, r, p, m.GetKey(),
					m.GetOp() == kvrpcpb.Op_Insert, req.GetReturnValues())
				if err != nil {
					if !errors.As(err, &locked) {
						resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
					}
					return false
				}
				if req.GetReturnValues() {
					resp.Values = append(resp.Values, v)
					resp.NotFounds = append(resp.NotFounds, !found)
				}
			}
			// A pessimistic lock lost in a crash only aborts its txn: the
			// prewrite finds it missing and refuses a key written since
			// the txn's start (mvcc.Prewrite's amend check). So the lock
			// is not worth an fsync (TiKV keeps it in memory only).
			t.Batch().NoSync = true
			return true
		})
		if err != nil || locked == nil {
			return resp, err
		}
		resp.Values, resp.NotFounds = nil, nil
		if err := s.waitForLock(ctx, locked.Lock, p.StartTS, deadline); err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
			return resp, nil
		}
	}
}

// lockWaitBudget is the request's wait: 0 the server's default, < 0 none,
// > 0 that many ms, never more than the server's cap.
func (s *Storage) lockWaitBudget(ms int64) time.Duration {
	limit := s.opts.WaitForLockTimeout
	switch {
	case ms < 0:
		return 0
	case ms == 0:
		return limit
	}
	return min(time.Duration(ms)*time.Millisecond, limit)
}

// waitForLock parks the request of txn startTS until lock is released or
// the deadline passes. It returns nil to try again, the *kv.LockedError
// when the deadline has passed, or a *kv.DeadlockError.
func (s *Storage) waitForLock(ctx context.Context, lock kv.LockInfo, startTS uint64, deadline time.Time) error {
	left := time.Until(deadline)
	if left <= 0 {
		return &kv.LockedError{Lock: lock}
	}
	lw, err := s.waiters.add(lock.Key, startTS, lock.StartTS)
	if err != nil {
		return err
	}
	defer s.waiters.remove(lw)
	if s.lockReleased(ctx, lock.Key, lock.StartTS) {
		return nil
	}
	timer := time.NewTimer(left)
	defer timer.Stop()
	select {
	case <-lw.ch:
	case <-timer.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// lockReleased reports whether the lock of txn lockTS on key is already
// gone: the check a new waiter makes after registering, so that a release
// between the failed attempt and the registration is not missed (the
// releasing write updates the lock index before it wakes waiters). A key
// locked again by another txn in between counts as released too: the
// waiter tries again and waits for the new holder, so the wait-for graph
// names the real holder.
func (s *Storage) lockReleased(ctx context.Context, key []byte, lockTS uint64) bool {
	if sc := s.mem.scope(ctx); sc != nil {
		if v, ok := sc.lookup(key); ok {
			if l, err := mvcc.DecodeLock(v); err == nil && l.StartTS == lockTS {
				return false
			}
		}
	}
	if s.locks.known() && !s.locks.mayBeLocked(key) {
		return true
	}
	released := false
	_ = s.read(ctx, func(r *mvcc.Reader) {
		l, err := r.LoadLock(key)
		released = err == nil && (l == nil || l.StartTS != lockTS)
	})
	return released
}

// KvPessimisticRollback deletes the txn's pessimistic locks on keys whose
// for_update_ts is at most the request's (reference §2.7); it writes no
// rollback record.
func (s *Storage) KvPessimisticRollback(ctx context.Context, req *kvrpcpb.PessimisticRollbackRequest) (*kvrpcpb.PessimisticRollbackResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.PessimisticRollbackResponse{}
	keys := req.GetKeys()
	err := validateKeys(keys)
	if len(keys) == 0 {
		err = kv.InvalidArgumentf("pessimistic rollback without keys")
	}
	if err != nil {
		resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
		return resp, nil
	}
	startTS, forUpdateTS := req.GetStartVersion(), req.GetForUpdateTs()
	err = s.write(ctx, keys, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		for _, k := range keys {
			if err := mvcc.PessimisticRollback(t, r, k, startTS, forUpdateTS); err != nil {
				resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
				return false
			}
		}
		return true
	})
	return resp, err
}

// validatePessimisticLock checks a whole lock request before anything runs.
func validatePessimisticLock(req *kvrpcpb.PessimisticLockRequest) error {
	if len(req.GetMutations()) == 0 {
		return kv.InvalidArgumentf("pessimistic lock without mutations")
	}
	if err := kv.ValidateKey(req.GetPrimaryLock()); err != nil {
		return err
	}
	if req.GetStartVersion() == 0 || req.GetForUpdateTs() < req.GetStartVersion() {
		return kv.InvalidArgumentf("pessimistic lock with start_version %d, for_update_ts %d",
			req.GetStartVersion(), req.GetForUpdateTs())
	}
	for _, m := range req.GetMutations() {
		if err := kv.ValidateKey(m.GetKey()); err != nil {
			return err
		}
		if op := m.GetOp(); op != kvrpcpb.Op_PessimisticLock && op != kvrpcpb.Op_Insert {
			return kv.InvalidArgumentf("pessimistic lock with mutation op %v", op)
		}
	}
	return nil
}
