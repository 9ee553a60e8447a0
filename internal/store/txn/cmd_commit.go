package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvCommit commits the txn's locks on keys at commit_version (reference
// §2.3). Any key's error fails the whole request and nothing is written.
func (s *Storage) KvCommit(ctx context.Context, req *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.CommitResponse{}
	startTS, commitTS, keys := req.GetStartVersion(), req.GetCommitVersion(), req.GetKeys()
	if err := validateKeys(keys); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	if err := validateCommitTS(startTS, commitTS); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	err := s.write(ctx, keys, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		for _, k := range keys {
			if err := mvcc.Commit(t, r, k, startTS, commitTS); err != nil {
				resp.Error = keyErr(err)
				return false
			}
		}
		resp.CommitVersion = commitTS
		return true
	})
	return resp, err
}
