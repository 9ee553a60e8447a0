package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvBatchRollback rolls back the txn on keys, unprotected except on its
// primary (reference §2.4). Any key's error fails the whole request and
// nothing is written.
func (s *Storage) KvBatchRollback(ctx context.Context, req *kvrpcpb.BatchRollbackRequest) (*kvrpcpb.BatchRollbackResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.BatchRollbackResponse{}
	startTS, keys := req.GetStartVersion(), req.GetKeys()
	if err := validateKeys(keys); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	err := s.write(ctx, keys, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		for _, k := range keys {
			if err := mvcc.Rollback(t, r, k, startTS); err != nil {
				resp.Error = keyErr(err)
				return false
			}
		}
		return true
	})
	return resp, err
}

// KvCleanup rolls back the txn on one key with a protected rollback,
// checking the lock's TTL when current_ts is not 0 (reference §2.4). It
// raises max_ts to start_version first, so no calculated commit_ts lands
// on the rollback. A committed txn answers commit_version and no error.
func (s *Storage) KvCleanup(ctx context.Context, req *kvrpcpb.CleanupRequest) (*kvrpcpb.CleanupResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.CleanupResponse{}
	key, startTS := req.GetKey(), req.GetStartVersion()
	if err := validateKeys([][]byte{key}); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	s.cm.UpdateMaxTS(startTS)
	err := s.write(ctx, [][]byte{key}, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		committed, err := mvcc.Cleanup(t, r, key, startTS, req.GetCurrentTs(), true)
		switch {
		case committed != 0:
			resp.CommitVersion = committed
			return false
		case err != nil:
			resp.Error = keyErr(err)
			return false
		}
		return true
	})
	return resp, err
}
