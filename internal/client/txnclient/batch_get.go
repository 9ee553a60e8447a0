package txnclient

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// batchGetRound is what one round of BatchGet RPCs (one per region, in
// parallel) found.
type batchGetRound struct {
	mu    sync.Mutex
	out   map[string][]byte
	retry [][]byte // keys to read again: region changed, or locked
	locks []kv.LockInfo
	cause error
}

func (r *batchGetRound) lock(keys [][]byte, l kv.LockInfo, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.locks = append(r.locks, l)
	r.cause = cause
	r.retry = append(r.retry, keys...)
}

func (r *batchGetRound) again(keys [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.retry = append(r.retry, keys...)
}

// batchGet reads keys; absent keys are missing from the result. Each
// round reads the pending keys of every region in parallel, then resolves
// the locks it met and reads those keys again.
func (s *snapshot) batchGet(ctx context.Context, keys [][]byte) (map[string][]byte, error) {
	for _, k := range keys {
		if err := kv.ValidateKey(k); err != nil {
			return nil, err
		}
	}
	if _, err := s.ts(ctx); err != nil { // batchGetRegion reads startTS
		return nil, err
	}
	out := make(map[string][]byte, len(keys))
	bo := s.c.newBackoffer(ctx, locate.GetMaxBackoff)
	pending := slices.Clone(keys)
	slices.SortFunc(pending, compareBytes)
	pending = slices.CompactFunc(pending, func(a, b []byte) bool { return compareBytes(a, b) == 0 })
	for len(pending) > 0 {
		groups, err := s.c.sender.Cache().GroupKeysByRegion(ctx, bo, pending)
		if err != nil {
			return nil, err
		}
		round := &batchGetRound{out: out}
		err = parallelGroups(bo, groups, func(bo *locate.Backoffer, g locate.KeyGroup) error {
			return s.batchGetRegion(bo, g, round)
		})
		if err != nil {
			return nil, err
		}
		if len(round.locks) > 0 {
			if err := s.onLocks(bo, round.locks, round.cause); err != nil {
				return nil, err
			}
		}
		slices.SortFunc(round.retry, compareBytes)
		pending = round.retry
	}
	return out, nil
}

// batchGetRegion reads one region's keys into round.
func (s *snapshot) batchGetRegion(bo *locate.Backoffer, g locate.KeyGroup, round *batchGetRound) error {
	req := &kvrpcpb.BatchGetRequest{Context: s.readContext(), Keys: g.Keys, Version: s.startTS}
	resp, err := locate.Send(s.c.sender, bo, g.Location, req, rpc.StoreAPI.KvBatchGet)
	if err != nil {
		if !errors.Is(err, locate.ErrRegionRetry) {
			if err := onSendError(bo, err); err != nil {
				return err
			}
		}
		round.again(g.Keys)
		return nil
	}
	if kerr := resp.GetError(); kerr != nil {
		// A memory lock (async commit / 1PC in flight) blocks the whole
		// request: resolve it like a per-key lock.
		if kerr.GetLocked() == nil {
			return kerr.Err()
		}
		round.lock(g.Keys, kerr.GetLocked().KV(), kerr.Err())
		return nil
	}
	for _, p := range resp.GetPairs() {
		if kerr := p.GetError(); kerr != nil {
			if kerr.GetLocked() == nil {
				return kerr.Err()
			}
			round.lock([][]byte{p.GetKey()}, kerr.GetLocked().KV(), kerr.Err())
			continue
		}
		round.mu.Lock()
		round.out[string(p.GetKey())] = p.GetValue()
		round.mu.Unlock()
	}
	return nil
}
