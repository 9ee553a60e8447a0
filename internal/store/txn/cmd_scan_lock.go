package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvScanLock returns up to limit locks with ts <= max_version in
// [start_key, end_key) (reference §2.6). It raises max_ts to max_version
// and fails with KeyIsLocked if a memory lock with ts <= max_version lies
// in the range, since that lock is about to reach the engine.
func (s *Storage) KvScanLock(ctx context.Context, req *kvrpcpb.ScanLockRequest) (*kvrpcpb.ScanLockResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.ScanLockResponse{}
	lo, hi, maxTS := req.GetStartKey(), req.GetEndKey(), req.GetMaxVersion()
	if err := validateRange(lo, hi); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	s.cm.UpdateMaxTS(maxTS)
	if err := s.cm.CheckRangeFunc(lo, hi, func(_ []byte, l *MemLock) error {
		if l.Info.StartTS <= maxTS {
			return &kv.LockedError{Lock: l.Info}
		}
		return nil
	}); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	err := s.read(ctx, func(r *mvcc.Reader) {
		locks, err := r.ScanLocks(lo, hi, maxTS, int(req.GetLimit()))
		if err != nil {
			resp.Error = keyErr(err)
			return
		}
		resp.Locks = make([]*kvrpcpb.LockInfo, len(locks))
		for i := range locks {
			resp.Locks[i] = kvrpcpb.LockInfoFrom(&locks[i])
		}
	})
	return resp, err
}
