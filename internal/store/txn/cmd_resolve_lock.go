package txn

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// KvResolveLock commits (commit_version > start_version) or rolls back
// (commit_version == 0) the txn's locks (reference §2.6). With keys only
// those keys are touched ("lite" resolution); without keys every lock of
// the txn in the store is found by scanning the lock space, and resolved
// in batches of Options.ResolveLockBatch keys, one engine write each.
func (s *Storage) KvResolveLock(ctx context.Context, req *kvrpcpb.ResolveLockRequest) (*kvrpcpb.ResolveLockResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.ResolveLockResponse{}
	startTS, commitTS, keys := req.GetStartVersion(), req.GetCommitVersion(), req.GetKeys()
	if err := validateKeys(keys); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	if commitTS != 0 {
		if err := validateCommitTS(startTS, commitTS); err != nil {
			resp.Error = keyErr(err)
			return resp, nil
		}
	}
	if len(keys) > 0 {
		err := s.resolveKeys(ctx, keys, startTS, commitTS, resp)
		return resp, err
	}
	var from []byte
	for {
		var batch [][]byte
		var scanErr error
		if err := s.read(ctx, func(r *mvcc.Reader) {
			batch, scanErr = r.ScanTxnLocks(from, nil, startTS, s.opts.ResolveLockBatch)
		}); err != nil {
			return resp, err
		}
		if scanErr != nil {
			resp.Error = keyErr(scanErr)
			return resp, nil
		}
		if len(batch) == 0 {
			return resp, s.resolveMemLocks(ctx, startTS, commitTS, resp)
		}
		if err := s.resolveKeys(ctx, batch, startTS, commitTS, resp); err != nil || resp.Error != nil {
			return resp, err
		}
		if len(batch) < s.opts.ResolveLockBatch {
			return resp, s.resolveMemLocks(ctx, startTS, commitTS, resp)
		}
		from = kv.Key(batch[len(batch)-1]).Next()
	}
}

// resolveMemLocks resolves the txn's in-memory pessimistic locks of the
// region the request runs on, which the lock-space scan does not see.
func (s *Storage) resolveMemLocks(ctx context.Context, startTS, commitTS uint64, resp *kvrpcpb.ResolveLockResponse) error {
	sc := s.mem.scope(ctx)
	if sc == nil {
		return nil
	}
	keys := sc.txnKeys(startTS)
	if len(keys) == 0 {
		return nil
	}
	return s.resolveKeys(ctx, keys, startTS, commitTS, resp)
}

// resolveKeys resolves the txn on keys as one command: latches, one
// snapshot, one engine write; any key's error writes nothing.
func (s *Storage) resolveKeys(ctx context.Context, keys [][]byte, startTS, commitTS uint64, resp *kvrpcpb.ResolveLockResponse) error {
	return s.write(ctx, keys, startTS, func(t *mvcc.Txn, r *mvcc.Reader, _ *KeyGuard) bool {
		for _, k := range keys {
			if err := mvcc.ResolveLock(t, r, k, startTS, commitTS); err != nil {
				resp.Error = keyErr(err)
				return false
			}
		}
		return true
	})
}
