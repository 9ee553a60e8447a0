package txn

import (
	"context"
	"math"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvCheckTxnStatus reports, and may decide, the status of the txn whose
// primary is primary_key (reference §2.5). It first raises max_ts to
// max(lock_ts, current_ts, caller_start_ts), ignoring MaxUint64, because it
// may write a protected rollback or push min_commit_ts.
func (s *Storage) KvCheckTxnStatus(ctx context.Context, req *kvrpcpb.CheckTxnStatusRequest) (*kvrpcpb.CheckTxnStatusResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.CheckTxnStatusResponse{}
	primary := req.GetPrimaryKey()
	if err := validateKeys([][]byte{primary}); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	var raise uint64
	for _, ts := range []uint64{req.GetLockTs(), req.GetCurrentTs(), req.GetCallerStartTs()} {
		if ts != math.MaxUint64 {
			raise = max(raise, ts)
		}
	}
	s.cm.UpdateMaxTS(raise)
	p := &mvcc.CheckTxnStatusParams{
		Primary:                  primary,
		LockTS:                   req.GetLockTs(),
		CallerStartTS:            req.GetCallerStartTs(),
		CurrentTS:                req.GetCurrentTs(),
		RollbackIfNotExist:       req.GetRollbackIfNotExist(),
		ForceSyncCommit:          req.GetForceSyncCommit(),
		ResolvingPessimisticLock: req.GetResolvingPessimisticLock(),
	}
	err := s.write(ctx, [][]byte{primary}, req.GetLockTs(), func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		st, err := mvcc.CheckTxnStatus(t, r, p)
		if err != nil {
			resp.Error = keyErr(err)
			return false
		}
		resp.LockTtl = st.LockTTL
		resp.CommitVersion = st.CommitTS
		resp.Action = kvrpcpb.Action(st.Action)
		if st.Lock != nil {
			resp.LockInfo = kvrpcpb.LockInfoFrom(st.Lock)
		}
		return true
	})
	return resp, err
}
