package txnclient

import (
	"errors"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// prewriteBatches prewrites batches in parallel.
func (cm *committer) prewriteBatches(bo *locate.Backoffer, batches []batch) error {
	return parallel(bo, batches, cm.prewriteBatch)
}

// prewriteBatch prewrites one batch, resolving the locks it meets and
// regrouping it when its region changed (reference §5.1).
func (cm *committer) prewriteBatch(bo *locate.Backoffer, b batch) error {
	for {
		req := cm.prewriteRequest(b)
		resp, err := locate.Send(cm.c.sender, bo, b.loc, req, rpc.StoreAPI.KvPrewrite)
		if err != nil {
			if errors.Is(err, locate.ErrRegionRetry) {
				return cm.reprewrite(bo, b)
			}
			if errors.Is(err, locate.ErrNoReply) {
				// Decided by what this request asked for: another batch's
				// reply may have changed the committer's flags since.
				if req.GetUseAsyncCommit() || req.GetTryOnePc() {
					// The prewrite may have committed the txn.
					cm.undetermined.Store(true)
					return err
				}
				// A 2PC prewrite is idempotent: send it again where the
				// region lives now (its store may have died).
				if berr := bo.Backoff(locate.BoStoreUnreachable, err); berr != nil {
					return berr
				}
				return cm.reprewrite(bo, b)
			}
			return err
		}
		if kerrs := resp.GetErrors(); len(kerrs) > 0 {
			locks, err := cm.prewriteKeyErrors(kerrs)
			if err != nil {
				return err
			}
			ms, err := cm.c.resolver.resolveForWrite(bo, cm.startTS, locks)
			if err != nil {
				return err
			}
			// ms == 0 (all resolved) still charges the budget, so a lock
			// that keeps coming back cannot loop forever.
			if err := bo.BackoffWithMaxSleep(locate.BoTxnLock, int(ms), &kv.LockedError{Lock: locks[0]}); err != nil {
				return err
			}
			cm.retried.Store(true)
			continue
		}
		if err := cm.onPrewriteReply(resp); err != nil {
			return err
		}
		if b.primary && !cm.onePC.Load() {
			cm.ttl.start(ttlTarget{c: cm.c, primary: cm.primary, startTS: cm.startTS, began: cm.t.began})
		}
		return nil
	}
}

// prewriteRequest builds the request of one batch.
func (cm *committer) prewriteRequest(b batch) *kvrpcpb.PrewriteRequest {
	req := &kvrpcpb.PrewriteRequest{
		Context:      &kvrpcpb.Context{IsRetryRequest: cm.retried.Load()},
		Mutations:    b.muts,
		PrimaryLock:  cm.primary,
		StartVersion: cm.startTS,
		LockTtl:      cm.lockTTL,
		TxnSize:      uint64(len(b.muts)),
		MinCommitTs:  cm.minCommitTS,
		TryOnePc:     cm.onePC.Load(),
	}
	if cm.retried.Load() {
		req.TxnSize = ^uint64(0) // keep resolvers off lite resolution
	}
	if cm.pessimistic != nil {
		req.ForUpdateTs = cm.forUpdateTS
		req.MinCommitTs = max(req.MinCommitTs, cm.forUpdateTS+1)
		req.IsPessimisticLock = make([]bool, len(b.muts))
		for i, m := range b.muts {
			req.IsPessimisticLock[i] = cm.pessimistic[string(m.Key)]
		}
	}
	if cm.asyncCommit.Load() {
		req.UseAsyncCommit = true
		if b.primary {
			req.Secondaries = cm.secondaries()
		}
	}
	return req
}

// prewriteKeyErrors returns the locks to resolve, or the error that aborts
// the commit. An optimistic txn that meets a lock newer than itself would
// lose anyway: that is a write conflict at once.
func (cm *committer) prewriteKeyErrors(kerrs []*kvrpcpb.KeyError) ([]kv.LockInfo, error) {
	var locks []kv.LockInfo
	for _, ke := range kerrs {
		l := ke.GetLocked()
		if l == nil {
			return nil, ke.Err()
		}
		lock := l.KV()
		if lock.StartTS > cm.startTS {
			return nil, &kv.WriteConflictError{StartTS: cm.startTS, ConflictStartTS: lock.StartTS,
				Key: lock.Key, Primary: cm.primary, Reason: kv.ConflictOptimistic}
		}
		locks = append(locks, lock)
	}
	return locks, nil
}

// onPrewriteReply records the commit-ts information of a successful reply.
func (cm *committer) onPrewriteReply(resp *kvrpcpb.PrewriteResponse) error {
	if cm.onePC.Load() {
		if ts := resp.GetOnePcCommitTs(); ts != 0 {
			cm.onePCCommitTS.Store(ts)
			return nil
		}
		if resp.GetMinCommitTs() != 0 {
			return kv.InvalidArgumentf("protocol violation: 1PC fell back with min_commit_ts %d", resp.GetMinCommitTs())
		}
		cm.onePC.Store(false) // fell back: plain 2PC
		cm.asyncCommit.Store(false)
		return nil
	}
	if cm.asyncCommit.Load() {
		ts := resp.GetMinCommitTs()
		if ts == 0 {
			cm.asyncCommit.Store(false) // fell back to 2PC
			return nil
		}
		for {
			cur := cm.maxMinCommitTS.Load()
			if ts <= cur || cm.maxMinCommitTS.CompareAndSwap(cur, ts) {
				break
			}
		}
	}
	return nil
}

// reprewrite regroups a batch whose region changed and prewrites the
// pieces; 1PC needs a single batch, so a split turns it off.
func (cm *committer) reprewrite(bo *locate.Backoffer, b batch) error {
	cm.retried.Store(true)
	batches, err := cm.makeBatches(bo, b.muts)
	if err != nil {
		return err
	}
	if len(batches) > 1 {
		cm.onePC.Store(false)
	}
	for i := range batches {
		batches[i].primary = b.primary && batches[i].primary
	}
	return cm.prewriteBatches(bo, batches)
}
