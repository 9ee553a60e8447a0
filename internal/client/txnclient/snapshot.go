package txnclient

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// snapshot reads the store at startTS, resolving the locks it meets. It
// remembers which lock owners it may skip (resolved) or read through
// (committed) so that later reads need not ask again (reference §5.3).
type snapshot struct {
	c *Client
	// startTS is the read timestamp; while pending is set (BeginLazy) it
	// is not known yet and ts waits for it. Under tsMu until known (then
	// known is set and startTS never changes); read directly only after
	// ts returned.
	startTS uint64
	pending TSFuture
	tsMu    sync.Mutex
	known   atomic.Bool

	mu struct {
		sync.Mutex
		resolved  []uint64
		committed []uint64
	}
}

func newSnapshot(c *Client, startTS uint64) *snapshot {
	s := &snapshot{c: c, startTS: startTS}
	s.known.Store(true)
	return s
}

// readContext returns a Context carrying the snapshot's lock sets.
func (s *snapshot) readContext() *kvrpcpb.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &kvrpcpb.Context{
		ResolvedLocks:  slices.Clone(s.mu.resolved),
		CommittedLocks: slices.Clone(s.mu.committed),
	}
}

// noteResolved records the outcome of lock resolution for later reads.
func (s *snapshot) noteResolved(resolved, committed []uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ts := range resolved {
		if !slices.Contains(s.mu.resolved, ts) {
			s.mu.resolved = append(s.mu.resolved, ts)
		}
	}
	for _, ts := range committed {
		if !slices.Contains(s.mu.committed, ts) {
			s.mu.committed = append(s.mu.committed, ts)
		}
	}
}

// onLocks resolves locks met by a read and backs off while some of them
// belong to live transactions.
func (s *snapshot) onLocks(bo *locate.Backoffer, locks []kv.LockInfo, cause error) error {
	res, err := s.c.resolver.resolveForRead(bo, s.startTS, locks)
	if err != nil {
		return err
	}
	s.noteResolved(res.resolved, res.committed)
	if res.msBeforeExpiry > 0 {
		return bo.BackoffWithMaxSleep(locate.BoTxnLockFast, int(res.msBeforeExpiry), cause)
	}
	return nil
}

// onSendError decides whether a failed read RPC is retried.
func onSendError(bo *locate.Backoffer, err error) error {
	if errors.Is(err, locate.ErrNoReply) && bo.Context().Err() == nil {
		return bo.Backoff(locate.BoStoreUnreachable, err)
	}
	return err
}

// get reads one key; kv.ErrNotExist when absent.
func (s *snapshot) get(ctx context.Context, key []byte) ([]byte, error) {
	v, _, err := s.getKey(ctx, key, false)
	return v, err
}

// getKey reads one key; kv.ErrNotExist when absent. needNewest (the
// snapshot reads at MaxUint64) also returns the commit ts of the key's
// newest commit record, read with the answer (GetRequest.need_newest_ts).
func (s *snapshot) getKey(ctx context.Context, key []byte, needNewest bool) ([]byte, uint64, error) {
	if err := kv.ValidateKey(key); err != nil {
		return nil, 0, err
	}
	ts, err := s.ts(ctx)
	if err != nil {
		return nil, 0, err
	}
	bo := s.c.newBackoffer(ctx, locate.GetMaxBackoff)
	for {
		req := &kvrpcpb.GetRequest{Context: s.readContext(), Key: key, Version: ts, NeedNewestTs: needNewest}
		resp, err := locate.SendKey(s.c.sender, bo, key, req, rpc.StoreAPI.KvGet)
		if err != nil {
			if err := onSendError(bo, err); err != nil {
				return nil, 0, err
			}
			continue
		}
		if kerr := resp.GetError(); kerr != nil {
			err := kerr.Err()
			if kerr.GetLocked() == nil {
				return nil, 0, err
			}
			if err := s.onLocks(bo, []kv.LockInfo{kerr.GetLocked().KV()}, err); err != nil {
				return nil, 0, err
			}
			continue
		}
		if resp.GetNotFound() {
			return nil, resp.GetNewestTs(), kv.ErrNotExist
		}
		return resp.GetValue(), resp.GetNewestTs(), nil
	}
}

// scanPage reads up to limit pairs of one region, from cursor towards the
// bound. Forward: [cursor, end); reverse: [start, cursor) downwards, an
// empty cursor meaning +inf. It returns the pairs and the region read.
func (s *snapshot) scanPage(ctx context.Context, start, end, cursor []byte, reverse bool, limit int) ([]*kvrpcpb.KvPair, *locate.KeyLocation, error) {
	ts, err := s.ts(ctx)
	if err != nil {
		return nil, nil, err
	}
	bo := s.c.newBackoffer(ctx, locate.GetMaxBackoff)
	cache := s.c.sender.Cache()
	for {
		var loc *locate.KeyLocation
		req := &kvrpcpb.ScanRequest{Context: s.readContext(), Limit: uint32(limit), Version: ts, Reverse: reverse}
		if reverse {
			loc, err = cache.LocateEndKey(ctx, bo, cursor)
		} else {
			loc, err = cache.LocateKey(ctx, bo, cursor)
		}
		if err != nil {
			return nil, nil, err
		}
		if reverse {
			req.StartKey, req.EndKey = cursor, maxKey(start, loc.StartKey)
		} else {
			req.StartKey, req.EndKey = cursor, minEnd(end, loc.EndKey)
		}
		resp, err := locate.Send(s.c.sender, bo, loc, req, rpc.StoreAPI.KvScan)
		if err != nil {
			if errors.Is(err, locate.ErrRegionRetry) {
				continue
			}
			if err := onSendError(bo, err); err != nil {
				return nil, nil, err
			}
			continue
		}
		var (
			locks []kv.LockInfo
			cause error
		)
		if kerr := resp.GetError(); kerr != nil {
			// A memory lock (async commit / 1PC in flight) blocks the
			// whole range: resolve it like a per-key lock.
			if kerr.GetLocked() == nil {
				return nil, nil, kerr.Err()
			}
			locks = append(locks, kerr.GetLocked().KV())
			cause = kerr.Err()
		}
		for _, p := range resp.GetPairs() {
			if kerr := p.GetError(); kerr != nil {
				if kerr.GetLocked() == nil {
					return nil, nil, kerr.Err()
				}
				locks = append(locks, kerr.GetLocked().KV())
				cause = kerr.Err()
			}
		}
		if len(locks) == 0 {
			return resp.GetPairs(), loc, nil
		}
		if err := s.onLocks(bo, locks, cause); err != nil {
			return nil, nil, err
		}
	}
}

func compareBytes(a, b []byte) int { return kv.Key(a).Cmp(b) }

// maxKey returns the larger of two lower bounds.
func maxKey(a, b []byte) []byte {
	if compareBytes(a, b) >= 0 {
		return a
	}
	return b
}

// minEnd returns the smaller of two exclusive upper bounds (empty = +inf).
func minEnd(a, b []byte) []byte {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	case compareBytes(a, b) <= 0:
		return a
	default:
		return b
	}
}
