package txnclient

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// LockResolver decides the fate of the locks readers and writers meet by
// asking the lock's primary (CheckTxnStatus), then commits or rolls the
// lock back (ResolveLock), or recovers an async-commit transaction
// (CheckSecondaryLocks). Reference §5.3 and §3.
type LockResolver struct {
	c      *Client
	status statusCache

	mu struct {
		sync.Mutex
		// cleanRegions: regions already resolved whole, per txn.
		cleanRegions map[uint64]map[uint64]bool
	}
}

func newLockResolver(c *Client) *LockResolver {
	r := &LockResolver{c: c}
	r.mu.cleanRegions = make(map[uint64]map[uint64]bool)
	return r
}

// readResolution is what a read learns from resolving locks.
type readResolution struct {
	msBeforeExpiry int64    // > 0: some lock is alive; wait this long
	resolved       []uint64 // owners the read may skip
	committed      []uint64 // owners the read reads through
}

// resolveForRead resolves locks met by a read at callerStartTS.
func (r *LockResolver) resolveForRead(bo *locate.Backoffer, callerStartTS uint64, locks []kv.LockInfo) (readResolution, error) {
	return r.resolve(bo, callerStartTS, locks, true)
}

// resolveForWrite resolves locks met by a prewrite; it returns how long
// the shortest live lock has left.
func (r *LockResolver) resolveForWrite(bo *locate.Backoffer, callerStartTS uint64, locks []kv.LockInfo) (int64, error) {
	res, err := r.resolve(bo, callerStartTS, locks, false)
	return res.msBeforeExpiry, err
}

// ResolveLocks resolves locks for a reader at callerStartTS and returns
// the ms before the shortest live lock expires (0: all resolved).
func (r *LockResolver) ResolveLocks(bo *locate.Backoffer, callerStartTS uint64, locks []kv.LockInfo) (int64, error) {
	res, err := r.resolve(bo, callerStartTS, locks, true)
	return res.msBeforeExpiry, err
}

func (r *LockResolver) resolve(bo *locate.Backoffer, callerStartTS uint64, locks []kv.LockInfo, forRead bool) (readResolution, error) {
	var res readResolution
	for i := range locks {
		lock := &locks[i]
		st, err := r.statusFromLock(bo, lock, callerStartTS, false)
		if err != nil {
			return res, err
		}
		if !st.IsFinal() && st.PrimaryLock != nil && st.PrimaryLock.UseAsyncCommit && expired(st.PrimaryLock.StartTS, st.TTL, st.currentTS) {
			if st, err = r.recoverAsyncCommit(bo, lock, st, callerStartTS); err != nil {
				return res, err
			}
		}
		if !st.IsFinal() {
			if forRead && st.Action == kvrpcpb.Action_MinCommitTSPushed {
				res.resolved = append(res.resolved, lock.StartTS)
				continue
			}
			ms := msBeforeExpiry(lock.StartTS, st.TTL, st.currentTS)
			if res.msBeforeExpiry == 0 || ms < res.msBeforeExpiry {
				res.msBeforeExpiry = ms
			}
			continue
		}
		if err := r.resolveLock(bo, lock, st.CommitTS); err != nil {
			return res, err
		}
		if st.IsCommitted() && st.CommitTS <= callerStartTS {
			res.committed = append(res.committed, lock.StartTS)
		} else {
			res.resolved = append(res.resolved, lock.StartTS)
		}
	}
	return res, nil
}

// statusFromLock finds the status of lock's transaction (reference §5.3
// steps 1-3).
func (r *LockResolver) statusFromLock(bo *locate.Backoffer, lock *kv.LockInfo, callerStartTS uint64, forceSync bool) (TxnStatus, error) {
	if st, ok := r.status.get(lock.StartTS); ok {
		return st, nil
	}
	currentTS := uint64(math.MaxUint64)
	if lock.TTL != 0 {
		ts, err := r.c.oracle.GetTimestamp(bo.Context())
		if err != nil {
			return TxnStatus{}, err
		}
		currentTS = ts
	}
	rollbackIfNotExist := false
	for {
		st, err := r.checkTxnStatus(bo, lock.StartTS, lock.Primary, callerStartTS, currentTS, rollbackIfNotExist, forceSync)
		if err == nil {
			return st, nil
		}
		if !errors.Is(err, kv.ErrTxnNotFound) {
			return TxnStatus{}, err
		}
		switch {
		case expired(lock.StartTS, lock.TTL, currentTS):
			rollbackIfNotExist = true
		case lock.Type == kv.LockTypePessimistic:
			return TxnStatus{TTL: lock.TTL, currentTS: currentTS}, nil
		default:
			// the primary may not be prewritten yet
			cause := fmt.Errorf("%w (primary: %w)", &kv.LockedError{Lock: *lock}, err)
			if err := bo.Backoff(locate.BoTxnNotFound, cause); err != nil {
				return TxnStatus{}, err
			}
			// Time moved on while backing off: a lock whose primary
			// never shows up must be found expired once its TTL passes,
			// and rolled back then (reference §5.3 step 3).
			ts, err := r.c.oracle.GetTimestamp(bo.Context())
			if err != nil {
				return TxnStatus{}, err
			}
			currentTS = ts
		}
	}
}

// checkTxnStatus sends CheckTxnStatus to the primary's region.
func (r *LockResolver) checkTxnStatus(bo *locate.Backoffer, startTS uint64, primary []byte, callerStartTS, currentTS uint64, rollbackIfNotExist, forceSync bool) (TxnStatus, error) {
	req := &kvrpcpb.CheckTxnStatusRequest{
		Context: &kvrpcpb.Context{}, PrimaryKey: primary, LockTs: startTS,
		CallerStartTs: callerStartTS, CurrentTs: currentTS,
		RollbackIfNotExist: rollbackIfNotExist, ForceSyncCommit: forceSync,
	}
	for {
		resp, err := locate.SendKey(r.c.sender, bo, primary, req, rpc.StoreAPI.KvCheckTxnStatus)
		if err != nil {
			if err := onSendError(bo, err); err != nil {
				return TxnStatus{}, err
			}
			continue
		}
		if err := resp.GetError().Err(); err != nil {
			return TxnStatus{}, err
		}
		st := TxnStatus{TTL: resp.GetLockTtl(), CommitTS: resp.GetCommitVersion(), Action: resp.GetAction(), currentTS: currentTS}
		if li := resp.GetLockInfo(); li != nil {
			l := li.KV()
			st.PrimaryLock = &l
		}
		r.status.put(startTS, st)
		return st, nil
	}
}

// resolveLock commits (commitTS > 0) or rolls back the lock's txn on the
// lock's key: by key for small txns, else over the whole region once.
func (r *LockResolver) resolveLock(bo *locate.Backoffer, lock *kv.LockInfo, commitTS uint64) error {
	lite := lock.TxnSize < r.c.opts.ResolveLiteThreshold
	for {
		loc, err := r.c.sender.Cache().LocateKey(bo.Context(), bo, lock.Key)
		if err != nil {
			return err
		}
		if !lite && r.isClean(lock.StartTS, loc.RegionID) {
			return nil
		}
		req := &kvrpcpb.ResolveLockRequest{Context: &kvrpcpb.Context{}, StartVersion: lock.StartTS, CommitVersion: commitTS}
		if lite {
			req.Keys = [][]byte{lock.Key}
		}
		resp, err := locate.Send(r.c.sender, bo, loc, req, rpc.StoreAPI.KvResolveLock)
		if err != nil {
			if errors.Is(err, locate.ErrRegionRetry) {
				continue
			}
			if err := onSendError(bo, err); err != nil {
				return err
			}
			continue
		}
		if err := resp.GetError().Err(); err != nil {
			return err
		}
		if !lite {
			r.markClean(lock.StartTS, loc.RegionID)
		}
		return nil
	}
}

func (r *LockResolver) isClean(startTS, regionID uint64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mu.cleanRegions[startTS][regionID]
}

func (r *LockResolver) markClean(startTS, regionID uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.mu.cleanRegions) >= statusCacheSize {
		r.mu.cleanRegions = make(map[uint64]map[uint64]bool)
	}
	m := r.mu.cleanRegions[startTS]
	if m == nil {
		m = make(map[uint64]bool)
		r.mu.cleanRegions[startTS] = m
	}
	m[regionID] = true
}

// expired reports whether a lock of startTS with ttl ms has expired at
// currentTS (physical milliseconds only).
func expired(startTS, ttl, currentTS uint64) bool {
	return physicalMs(startTS)+ttl < physicalMs(currentTS)
}

// msBeforeExpiry is how long a lock has left at currentTS (at least 1 for
// a live lock, so callers always back off).
func msBeforeExpiry(startTS, ttl, currentTS uint64) int64 {
	if currentTS == math.MaxUint64 {
		return 1
	}
	left := int64(physicalMs(startTS)+ttl) - int64(physicalMs(currentTS))
	return max(left, 1)
}
