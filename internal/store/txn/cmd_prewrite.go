package txn

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvPrewrite prewrites the request's mutations (reference §2.2, §3, §4).
// Request-level rules: a key whose failure may be a late retry of a
// committed txn is checked for the txn's own commit record, and if there is
// one the whole prewrite succeeds with min_commit_ts = commit_ts, writing
// nothing; every locked key is reported and nothing is written; any other
// error aborts the request with nothing written. With try_one_pc and no
// fallback the locks become commit records at max(min_commit_ts).
func (s *Storage) KvPrewrite(ctx context.Context, req *kvrpcpb.PrewriteRequest) (*kvrpcpb.PrewriteResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.PrewriteResponse{}
	if err := validatePrewrite(req); err != nil {
		resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
		return resp, nil
	}
	muts := req.GetMutations()
	keys := make([][]byte, len(muts))
	for i, m := range muts {
		keys[i] = m.GetKey()
		if op := m.GetOp(); op == kvrpcpb.Op_Insert || op == kvrpcpb.Op_CheckNotExists {
			// A must-not-exist check is a read at start_ts (tikv#11315).
			s.cm.UpdateMaxTS(req.GetStartVersion())
		}
	}
	err := s.write(ctx, keys, req.GetStartVersion(), func(t *mvcc.Txn, r *mvcc.Reader, g *KeyGuard) bool {
		return s.prewrite(t, r, g, req, resp)
	})
	return resp, err
}

// prewrite runs the per-key actions and fills resp; it reports whether t
// is to be written.
func (s *Storage) prewrite(t *mvcc.Txn, r *mvcc.Reader, g *KeyGuard, req *kvrpcpb.PrewriteRequest, resp *kvrpcpb.PrewriteResponse) bool {
	p := &mvcc.PrewriteParams{
		Primary:             req.GetPrimaryLock(),
		StartTS:             req.GetStartVersion(),
		LockTTL:             req.GetLockTtl(),
		TxnSize:             req.GetTxnSize(),
		ForUpdateTS:         req.GetForUpdateTs(),
		MinCommitTS:         req.GetMinCommitTs(),
		MaxCommitTS:         req.GetMaxCommitTs(),
		UseAsyncCommit:      req.GetUseAsyncCommit(),
		Secondaries:         req.GetSecondaries(),
		TryOnePC:            req.GetTryOnePc(),
		SkipConstraintCheck: req.GetSkipConstraintCheck(),
		IsRetry:             req.GetContext().GetIsRetryRequest(),
		Mem:                 memLocker{g},
	}
	var (
		locked      []*kvrpcpb.KeyError
		minCommitTS uint64
	)
	pessimistic := req.GetIsPessimisticLock()
	for i, m := range req.GetMutations() {
		mut := mvcc.Mutation{Op: mutationOp(m.GetOp()), Key: m.GetKey(), Value: m.GetValue(),
			Pessimistic: i < len(pessimistic) && pessimistic[i],
			ReadNewest:  m.GetReadNewest(), NewestSeen: m.GetNewestSeen()}
		ts, err := mvcc.Prewrite(t, r, p, mut)
		if err == nil {
			minCommitTS = max(minCommitTS, ts)
			continue
		}
		if mayBeCommitted(err, p.StartTS) {
			commitTS, w, ferr := r.FindCommitRecord(m.GetKey(), p.StartTS)
			if ferr == nil && w != nil && w.Type != mvcc.WriteTypeRollback {
				// A late retry of a committed txn: success, write nothing.
				resp.Errors = nil
				resp.MinCommitTs = commitTS
				if req.GetTryOnePc() {
					resp.OnePcCommitTs = commitTS
				}
				return false
			}
		}
		if isLocked(err) {
			locked = append(locked, keyErr(err))
			continue
		}
		resp.Errors = []*kvrpcpb.KeyError{keyErr(err)}
		return false
	}
	if len(locked) > 0 {
		resp.Errors = locked
		return false
	}
	switch {
	case p.TryOnePC:
		if minCommitTS == 0 { // only check-not-exists keys: nothing to commit
			minCommitTS = max(s.cm.MaxTS(), p.StartTS, p.ForUpdateTS) + 1
		}
		t.CommitOnePC(minCommitTS)
		resp.OnePcCommitTs = minCommitTS
		resp.MinCommitTs = minCommitTS
	case req.GetTryOnePc():
		t.FallbackOnePC()
	case p.UseAsyncCommit:
		resp.MinCommitTs = minCommitTS
	}
	return true
}

// mayBeCommitted reports the prewrite errors that a late retry of an
// already committed txn would meet (reference §2.2, tidb#34066).
func mayBeCommitted(err error, startTS uint64) bool {
	var wc *kv.WriteConflictError
	switch {
	case errors.As(err, &wc):
		return wc.ConflictCommitTS > startTS
	case isLocked(err), errors.Is(err, kv.ErrCommitTsTooLarge):
		return true
	}
	var lost *mvcc.PessimisticLockNotFoundError
	return errors.As(err, &lost)
}

// mutationOp maps a validated wire op to the mvcc op.
func mutationOp(op kvrpcpb.Op) mvcc.MutationOp {
	switch op {
	case kvrpcpb.Op_Del:
		return mvcc.OpDel
	case kvrpcpb.Op_Lock:
		return mvcc.OpLock
	case kvrpcpb.Op_Insert:
		return mvcc.OpInsert
	case kvrpcpb.Op_CheckNotExists:
		return mvcc.OpCheckNotExists
	default:
		return mvcc.OpPut
	}
}
