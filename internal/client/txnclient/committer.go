package txnclient

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// batch is one prewrite/commit request's worth of mutations of one region.
type batch struct {
	loc     *locate.KeyLocation
	muts    []*kvrpcpb.Mutation
	keys    [][]byte // key-only batches (commit, rollback)
	primary bool
}

// committer runs one transaction's commit: prewrite every batch, then
// decide the commit ts by 1PC, async commit or 2PC (reference §5).
type committer struct {
	t       *Txn
	c       *Client
	startTS uint64
	muts    []*kvrpcpb.Mutation // sorted by key
	primary []byte
	lockTTL uint64

	asyncCommit atomic.Bool
	onePC       atomic.Bool
	// minCommitTS is the request floor; maxMinCommitTS the largest
	// min_commit_ts storage answered (the async-commit commit ts).
	minCommitTS    uint64
	maxMinCommitTS atomic.Uint64
	onePCCommitTS  atomic.Uint64
	retried        atomic.Bool

	// undetermined is set when an RPC whose effect decides the outcome
	// failed without a reply.
	undetermined atomic.Bool

	// forUpdateTS and pessimistic (keys holding a pessimistic lock) are
	// set for pessimistic txns.
	forUpdateTS uint64
	pessimistic map[string]bool

	ttl      *ttlManager // the txn's
	commitTS uint64
}

func newCommitter(t *Txn) *committer {
	cm := &committer{t: t, c: t.c, startTS: t.StartTS(), ttl: &t.ttl}
	for _, k := range t.buf.sorted() {
		e := t.buf.m[k]
		m := &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: []byte(k), Value: e.value}
		switch {
		case e.del:
			m.Op, m.Value = kvrpcpb.Op_Del, nil
		case e.notExists:
			m.Op = kvrpcpb.Op_Insert
		}
		cm.muts = append(cm.muts, m)
	}
	if t.newest != nil {
		cm.muts = t.newest.markMutations(cm.muts)
	}
	cm.primary = cm.muts[0].Key
	if p := t.pess; p != nil {
		cm.forUpdateTS = max(p.forUpdateTS, cm.startTS)
		cm.pessimistic = make(map[string]bool, len(p.locked))
		for k := range p.locked {
			cm.pessimistic[k] = true
			if _, ok := t.buf.m[k]; !ok { // locked, not written (FOR UPDATE)
				cm.muts = append(cm.muts, &kvrpcpb.Mutation{Op: kvrpcpb.Op_Lock, Key: []byte(k)})
			}
		}
		if len(cm.muts) > t.buf.len() {
			sort.Slice(cm.muts, func(i, j int) bool { return kv.Key(cm.muts[i].Key).Cmp(cm.muts[j].Key) < 0 })
		}
		if p.primary != nil {
			cm.primary = p.primary
		}
	}
	cm.lockTTL = txnLockTTL(t.c.opts.LockTTL, t.buf.size()) + uint64(time.Since(t.began).Milliseconds())
	if t.asyncCommit && len(cm.muts) <= t.c.opts.AsyncCommitKeysLimit && keysSize(cm.muts) <= t.c.opts.AsyncCommitKeySizeLimit {
		cm.asyncCommit.Store(true)
	}
	cm.onePC.Store(t.onePC)
	return cm
}

// txnLockTTL is the prewrite TTL: the base, or for txns of 16 KiB and more
// 6000·sqrt(MiB) ms clamped to [base, 20 s].
func txnLockTTL(base uint64, size int) uint64 {
	if size < 16<<10 {
		return base
	}
	ttl := uint64(6000 * math.Sqrt(float64(size)/(1<<20)))
	return min(max(ttl, base), max(base, 20000))
}

func keysSize(muts []*kvrpcpb.Mutation) int {
	n := 0
	for _, m := range muts {
		n += len(m.Key)
	}
	return n
}

// execute commits the transaction.
func (cm *committer) execute(ctx context.Context) error {
	defer cm.ttl.stop()
	bo := cm.c.newBackoffer(ctx, locate.PrewriteMaxBackoff)
	batches, err := cm.makeBatches(bo, cm.muts)
	if err != nil {
		return err
	}
	if len(batches) != 1 { // 1PC: one batch of one region (its last key may push it past the size)
		cm.onePC.Store(false)
	}
	cm.minCommitTS = cm.startTS + 1
	if (cm.asyncCommit.Load() || cm.onePC.Load()) && cm.t.linearizability {
		ts, err := cm.c.oracle.GetTimestamp(ctx)
		if err != nil {
			return err
		}
		cm.minCommitTS = max(cm.minCommitTS, ts+1)
	}
	if err := cm.prewriteBatches(bo, batches); err != nil {
		if cm.undetermined.Load() {
			return fmt.Errorf("%w: %w", kv.ErrResultUndetermined, err)
		}
		cm.cleanup(ctx)
		return err
	}
	if h := cm.c.hooks.afterPrewrite; h != nil {
		h()
	}
	switch {
	case cm.onePC.Load():
		cm.commitTS = cm.onePCCommitTS.Load()
		return nil
	case cm.asyncCommit.Load():
		cm.commitTS = cm.maxMinCommitTS.Load()
		cm.commitInBackground(cm.allKeys())
		return nil
	}
	return cm.commit2PC(ctx)
}

// makeBatches groups muts by region and cuts each group into batches of
// about CommitBatchSize bytes; the batch holding the primary comes first.
func (cm *committer) makeBatches(bo *locate.Backoffer, muts []*kvrpcpb.Mutation) ([]batch, error) {
	keys := make([][]byte, len(muts))
	byKey := make(map[string]*kvrpcpb.Mutation, len(muts))
	for i, m := range muts {
		keys[i] = m.Key
		byKey[string(m.Key)] = m
	}
	groups, err := cm.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, keys)
	if err != nil {
		return nil, err
	}
	var out []batch
	for _, g := range groups {
		cur := batch{loc: g.Location}
		size := 0
		for _, k := range g.Keys {
			m := byKey[string(k)]
			cur.muts = append(cur.muts, m)
			cur.primary = cur.primary || string(k) == string(cm.primary)
			size += len(m.Key) + len(m.Value)
			if size >= cm.c.opts.CommitBatchSize {
				out = append(out, cur)
				cur, size = batch{loc: g.Location}, 0
			}
		}
		if len(cur.muts) > 0 {
			out = append(out, cur)
		}
	}
	for i := range out {
		if out[i].primary {
			out[0], out[i] = out[i], out[0]
			break
		}
	}
	return out, nil
}

// allKeys returns every mutated key, in key order.
func (cm *committer) allKeys() [][]byte {
	keys := make([][]byte, 0, len(cm.muts))
	for _, m := range cm.muts {
		keys = append(keys, m.Key)
	}
	return keys
}

// secondaries returns every mutated key but the primary (which, in a
// pessimistic txn, need not be the smallest key).
func (cm *committer) secondaries() [][]byte {
	keys := make([][]byte, 0, len(cm.muts)-1)
	for _, m := range cm.muts {
		if string(m.Key) != string(cm.primary) {
			keys = append(keys, m.Key)
		}
	}
	return keys
}

// parallel runs fn for every batch, each on its own fork of bo, and
// returns the first error.
func parallel(bo *locate.Backoffer, batches []batch, fn func(*locate.Backoffer, batch) error) error {
	switch len(batches) {
	case 0:
		return nil
	case 1:
		return fn(bo, batches[0])
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for _, b := range batches {
		wg.Add(1)
		go func(b batch) {
			defer wg.Done()
			if err := fn(bo.Fork(), b); err != nil {
				mu.Lock()
				if first == nil || errors.Is(first, kv.ErrTxnRetryable) {
					first = err
				}
				mu.Unlock()
			}
		}(b)
	}
	wg.Wait()
	return first
}

// parallelGroups runs fn for every key group, each on its own fork of bo,
// and returns the first error.
func parallelGroups(bo *locate.Backoffer, groups []locate.KeyGroup, fn func(*locate.Backoffer, locate.KeyGroup) error) error {
	batches := make([]batch, len(groups))
	for i, g := range groups {
		batches[i] = batch{loc: g.Location, keys: g.Keys}
	}
	return parallel(bo, batches, func(bo *locate.Backoffer, b batch) error {
		return fn(bo, locate.KeyGroup{Location: b.loc, Keys: b.keys})
	})
}
