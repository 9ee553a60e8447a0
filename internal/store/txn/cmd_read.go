package txn

import (
	"context"
	"math"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// readOpts builds the mvcc read options of a request context.
func readOpts(c *kvrpcpb.Context, keyOnly bool) *mvcc.ReadOptions {
	return &mvcc.ReadOptions{
		ResolvedLocks:  c.GetResolvedLocks(),
		CommittedLocks: c.GetCommittedLocks(),
		IsolationRC:    isRC(c),
		KeyOnly:        keyOnly,
	}
}

// KvGet reads one key at req.Version (reference §2.1).
func (s *Storage) KvGet(ctx context.Context, req *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.GetResponse{}
	key, ts, c := req.GetKey(), req.GetVersion(), req.GetContext()
	if err := validateKeys([][]byte{key}); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	if req.GetNeedNewestTs() && (ts != math.MaxUint64 || isRC(c)) {
		resp.Error = keyErr(kv.InvalidArgumentf("need_newest_ts with version %d (not the newest) or read committed", ts))
		return resp, nil
	}
	s.cm.UpdateMaxTS(ts)
	if !isRC(c) {
		if err := s.cm.CheckKey(key, ts, c.GetResolvedLocks()); err != nil {
			resp.Error = keyErr(err)
			return resp, nil
		}
	}
	o := readOpts(c, false)
	o.SkipLockCheck = !s.locks.mayBeLocked(key) // checked before the snapshot: see lockIndex
	err := s.read(ctx, func(r *mvcc.Reader) {
		var (
			v     []byte
			found bool
			err   error
		)
		if req.GetNeedNewestTs() {
			v, found, resp.NewestTs, err = r.GetNewest(key, o)
		} else {
			v, found, err = r.Get(key, ts, o)
		}
		switch {
		case err != nil:
			resp.Error = keyErr(err)
		case !found:
			resp.NotFound = true
		default:
			resp.Value = v
		}
	})
	return resp, err
}

// KvBatchGet reads many keys at req.Version. Locked keys come back as
// pairs with their error set; found keys with their value.
func (s *Storage) KvBatchGet(ctx context.Context, req *kvrpcpb.BatchGetRequest) (*kvrpcpb.BatchGetResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.BatchGetResponse{}
	keys, ts, c := req.GetKeys(), req.GetVersion(), req.GetContext()
	if err := validateKeys(keys); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	s.cm.UpdateMaxTS(ts)
	memLocked := make([]error, len(keys))
	if !isRC(c) {
		for i, k := range keys {
			memLocked[i] = s.cm.CheckKey(k, ts, c.GetResolvedLocks())
		}
	}
	mayBeLocked := make([]bool, len(keys)) // before the snapshot: see lockIndex
	for i, k := range keys {
		mayBeLocked[i] = s.locks.mayBeLocked(k)
	}
	err := s.read(ctx, func(r *mvcc.Reader) {
		o, noLock := readOpts(c, false), readOpts(c, false)
		noLock.SkipLockCheck = true
		for i, k := range keys {
			if memLocked[i] != nil {
				resp.Pairs = append(resp.Pairs, &kvrpcpb.KvPair{Key: k, Error: keyErr(memLocked[i])})
				continue
			}
			ko := o
			if !mayBeLocked[i] {
				ko = noLock
			}
			v, found, err := r.Get(k, ts, ko)
			switch {
			case isLocked(err):
				resp.Pairs = append(resp.Pairs, &kvrpcpb.KvPair{Key: k, Error: keyErr(err)})
			case err != nil:
				resp.Pairs, resp.Error = nil, keyErr(err)
				return
			case found:
				resp.Pairs = append(resp.Pairs, &kvrpcpb.KvPair{Key: k, Value: v})
			}
		}
	})
	return resp, err
}

// KvScan reads up to limit pairs at req.Version: forward over
// [start_key, end_key), or reverse from below start_key down to end_key.
// A locked key becomes a pair with its error set and the scan goes on.
func (s *Storage) KvScan(ctx context.Context, req *kvrpcpb.ScanRequest) (*kvrpcpb.ScanResponse, error) {
	if err := s.admit(ctx); err != nil {
		return nil, err
	}
	resp := &kvrpcpb.ScanResponse{}
	lo, hi := req.GetStartKey(), req.GetEndKey()
	if req.GetReverse() {
		lo, hi = hi, lo
	}
	ts, c := req.GetVersion(), req.GetContext()
	if err := validateRange(lo, hi); err != nil {
		resp.Error = keyErr(err)
		return resp, nil
	}
	if req.GetLimit() == 0 {
		return resp, nil
	}
	s.cm.UpdateMaxTS(ts)
	if !isRC(c) {
		if err := s.cm.CheckRange(lo, hi, ts, c.GetResolvedLocks()); err != nil {
			resp.Error = keyErr(err)
			return resp, nil
		}
	}
	o := readOpts(c, req.GetKeyOnly())
	if !o.IsolationRC {
		// Listed before the snapshot: see lockIndex.
		o.LockCandidates, o.LockCandidatesKnown = s.locks.keysIn(lo, hi)
	}
	err := s.read(ctx, func(r *mvcc.Reader) {
		// The pairs are allocated in blocks, not one by one.
		const blockLen = 256
		var block []kvrpcpb.KvPair
		err := r.ScanFunc(lo, hi, int(req.GetLimit()), ts, req.GetReverse(), o, func(p mvcc.Pair) {
			if len(block) == cap(block) {
				block = make([]kvrpcpb.KvPair, 0, min(int(req.GetLimit()), blockLen))
			}
			block = append(block, kvrpcpb.KvPair{Key: p.Key})
			kp := &block[len(block)-1]
			if p.Err != nil {
				kp.Error = keyErr(p.Err)
			} else {
				kp.Value = p.Value
			}
			resp.Pairs = append(resp.Pairs, kp)
		})
		if err != nil {
			resp.Pairs = nil
			resp.Error = keyErr(err)
		}
	})
	return resp, err
}
