package txnclient

import (
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// recoverAsyncCommit decides an async-commit transaction whose primary
// lock expired (reference §3, reader-side recovery): CheckSecondaryLocks
// on every key; all still locked means committed at max(min_commit_ts),
// any key committed gives the commit ts, any key rolled back means rolled
// back. A lock that fell back to 2PC sends us back to CheckTxnStatus with
// force_sync_commit. Then every key is resolved.
func (r *LockResolver) recoverAsyncCommit(bo *locate.Backoffer, lock *kv.LockInfo, st TxnStatus, callerStartTS uint64) (TxnStatus, error) {
	primary := st.PrimaryLock
	keys := append([][]byte{lock.Primary}, primary.Secondaries...)
	commitTS, rolledBack, fallback, err := r.checkSecondaries(bo, lock.StartTS, keys, primary.MinCommitTS)
	if err != nil {
		return TxnStatus{}, err
	}
	if fallback {
		st, err := r.checkTxnStatus(bo, lock.StartTS, lock.Primary, callerStartTS, st.currentTS, true, true)
		if err != nil || !st.IsFinal() {
			return st, err
		}
		return st, r.resolveKeys(bo, lock.StartTS, keys, st.CommitTS)
	}
	if rolledBack {
		commitTS = 0
	}
	final := TxnStatus{CommitTS: commitTS, currentTS: st.currentTS}
	if err := r.resolveKeys(bo, lock.StartTS, keys, commitTS); err != nil {
		return TxnStatus{}, err
	}
	r.status.put(lock.StartTS, final)
	return final, nil
}

// checkSecondaries runs CheckSecondaryLocks over keys by region.
func (r *LockResolver) checkSecondaries(bo *locate.Backoffer, startTS uint64, keys [][]byte, primaryMin uint64) (commitTS uint64, rolledBack, fallback bool, err error) {
	maxMin := primaryMin
	pending := keys
	for len(pending) > 0 {
		groups, err := r.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, pending)
		if err != nil {
			return 0, false, false, err
		}
		pending = nil
		for _, g := range groups {
			req := &kvrpcpb.CheckSecondaryLocksRequest{Context: &kvrpcpb.Context{}, Keys: g.Keys, StartVersion: startTS}
			resp, err := locate.Send(r.c.sender, bo, g.Location, req, rpc.StoreAPI.KvCheckSecondaryLocks)
			if err != nil {
				if errors.Is(err, locate.ErrRegionRetry) {
					pending = append(pending, g.Keys...)
					continue
				}
				if err := onSendError(bo, err); err != nil {
					return 0, false, false, err
				}
				pending = append(pending, g.Keys...)
				continue
			}
			if err := resp.GetError().Err(); err != nil {
				return 0, false, false, err
			}
			switch {
			case resp.GetCommitTs() > 0:
				if commitTS != 0 && commitTS != resp.GetCommitTs() || rolledBack {
					return 0, false, false, fmt.Errorf("txnclient: async-commit txn %d has inconsistent secondaries", startTS)
				}
				commitTS = resp.GetCommitTs()
			case len(resp.GetLocks()) == 0:
				if commitTS != 0 {
					return 0, false, false, fmt.Errorf("txnclient: async-commit txn %d is both committed and rolled back", startTS)
				}
				rolledBack = true
			default:
				for _, l := range resp.GetLocks() {
					if !l.GetUseAsyncCommit() {
						fallback = true
					}
					maxMin = max(maxMin, l.GetMinCommitTs())
				}
			}
		}
	}
	if commitTS == 0 && !rolledBack && !fallback {
		commitTS = maxMin
	}
	return commitTS, rolledBack, fallback && commitTS == 0 && !rolledBack, nil
}

// resolveKeys resolves startTS's locks on keys, by region, at commitTS
// (0: roll back).
func (r *LockResolver) resolveKeys(bo *locate.Backoffer, startTS uint64, keys [][]byte, commitTS uint64) error {
	pending := keys
	for len(pending) > 0 {
		groups, err := r.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, pending)
		if err != nil {
			return err
		}
		pending = nil
		for _, g := range groups {
			req := &kvrpcpb.ResolveLockRequest{Context: &kvrpcpb.Context{}, StartVersion: startTS, CommitVersion: commitTS, Keys: g.Keys}
			resp, err := locate.Send(r.c.sender, bo, g.Location, req, rpc.StoreAPI.KvResolveLock)
			if err != nil {
				if errors.Is(err, locate.ErrRegionRetry) {
					pending = append(pending, g.Keys...)
					continue
				}
				if err := onSendError(bo, err); err != nil {
					return err
				}
				pending = append(pending, g.Keys...)
				continue
			}
			if err := resp.GetError().Err(); err != nil {
				return err
			}
		}
	}
	return nil
}
