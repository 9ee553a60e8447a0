package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvCheckSecondaryLocks checks an async-commit txn's keys in order
// (reference §2.6): it collects the txn's prewrite locks, and stops at the
// first key that is committed (answering its commit_ts) or not locked
// (leaving a protected rollback there and answering rolled back). Locks are
// returned only if every key is locked. It raises max_ts to start_version
// first.
func (s *Storage) KvCheckSecondaryLocks(ctx context.Context, req *kvrpcpb.CheckSecondaryLocksRequest) (*kvrpcpb.CheckSecondaryLocksResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.CheckSecondaryLocksResponse{}
	startTS, keys := req.GetStartVersion(), req.GetKeys()
	if err := validateKeys(keys); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	s.cm.UpdateMaxTS(startTS)
	err := s.write(ctx, keys, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		var locks []*kvrpcpb.LockInfo
		for _, k := range keys {
			st, err := mvcc.CheckSecondaryLock(t, r, k, startTS)
			if err != nil {
				resp.Error = keyErr(err)
				return false
			}
			if st.Lock != nil {
				info := st.Lock.Info(k)
				locks = append(locks, kvrpcpb.LockInfoFrom(&info))
				continue
			}
			// Committed or rolled back: the answer, and stop.
			resp.CommitTs = st.CommitTS
			return true
		}
		resp.Locks = locks
		return true
	})
	return resp, err
}
