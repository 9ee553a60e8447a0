package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvTxnHeartBeat raises the TTL of the txn's primary lock to
// max(ttl, advise_lock_ttl) and answers the lock's TTL; a missing lock is
// TxnNotFound (reference §2.6).
func (s *Storage) KvTxnHeartBeat(ctx context.Context, req *kvrpcpb.TxnHeartBeatRequest) (*kvrpcpb.TxnHeartBeatResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.TxnHeartBeatResponse{}
	primary, startTS := req.GetPrimaryLock(), req.GetStartVersion()
	if err := validateKeys([][]byte{primary}); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	err := s.write(ctx, [][]byte{primary}, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		ttl, err := mvcc.TxnHeartBeat(t, r, primary, startTS, req.GetAdviseLockTtl())
		if err != nil {
			resp.Error = keyErr(err)
			return false
		}
		resp.LockTtl = ttl
		return true
	})
	return resp, err
}
