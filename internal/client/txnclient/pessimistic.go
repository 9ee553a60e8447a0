package txnclient

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// pessimisticState is what a pessimistic Txn adds: the keys it holds
// pessimistic locks on, its primary (the first key of its first lock
// call, reference §5.1) and the largest for_update_ts it used.
type pessimisticState struct {
	primary     []byte
	forUpdateTS uint64
	locked      map[string]struct{}
}

// SetPessimistic makes the txn pessimistic (tidb_txn_mode = pessimistic).
// It must be called before the first lock or write.
func (t *Txn) SetPessimistic() {
	if t.pess == nil {
		// forUpdateTS 0: the start ts (not waited for here, see BeginLazy).
		t.pess = &pessimisticState{locked: make(map[string]struct{})}
	}
}

// IsPessimistic reports whether the txn is pessimistic.
func (t *Txn) IsPessimistic() bool { return t.pess != nil }

// ForUpdateTS is the largest for_update_ts the txn used (its start ts
// before any); it waits for a lazy start ts (BeginLazy) within ctx.
func (t *Txn) ForUpdateTS(ctx context.Context) (uint64, error) {
	start, err := t.snap.ts(ctx)
	if err != nil {
		return 0, err
	}
	if t.pess == nil {
		return start, nil
	}
	return max(start, t.pess.forUpdateTS), nil
}

// NewForUpdateTS takes a fresh timestamp for the next pessimistic
// statement: its reads ("current reads") and locks use it.
func (t *Txn) NewForUpdateTS(ctx context.Context) (uint64, error) {
	ts, err := t.c.oracle.GetTimestamp(ctx)
	if err != nil {
		return 0, err
	}
	if t.pess != nil {
		t.pess.forUpdateTS = max(t.pess.forUpdateTS, ts)
	}
	return ts, nil
}

// LockOptions are the options of one LockKeys call.
type LockOptions struct {
	// ForUpdateTS is the statement's for_update_ts.
	ForUpdateTS uint64
	// Wait is the lock-wait budget (innodb_lock_wait_timeout); NoWait
	// fails at once on a held lock.
	Wait   time.Duration
	NoWait bool
}

// LockedKeys is the number of keys the txn holds pessimistic locks on.
func (t *Txn) LockedKeys() int {
	if t.pess == nil {
		return 0
	}
	return len(t.pess.locked)
}

// LockKeys takes pessimistic locks on keys at o.ForUpdateTS (reference
// §2.7, §5.4). Keys already locked are skipped. Locks held by other txns
// are waited for (server side, then resolved and asked again) within
// o.Wait; past it the error is kv.ErrLockWaitTimeout. A write committed
// on a key after ForUpdateTS is a *kv.WriteConflictError with reason
// PessimisticRetry: the caller re-runs the statement at a new
// for_update_ts. A wait cycle is a *kv.DeadlockError. On any error the
// locks this call took are released.
func (t *Txn) LockKeys(ctx context.Context, o LockOptions, keys ...kv.Key) error {
	return t.lockKeys(ctx, o, keys, nil)
}

// lockKeys is LockKeys; with values non-nil, the locks return the newest
// committed value at for_update_ts of each key they lock (TiKV's
// return_values), stored in values; a key without one is left out.
func (t *Txn) lockKeys(ctx context.Context, o LockOptions, keys []kv.Key, values map[string][]byte) error {
	if err := t.checkOpen(); err != nil {
		return err
	}
	if t.pess == nil {
		return kv.InvalidArgumentf("LockKeys in an optimistic transaction")
	}
	start, err := t.snap.ts(ctx)
	if err != nil {
		return err
	}
	o.ForUpdateTS = max(o.ForUpdateTS, start)
	t.pess.forUpdateTS = max(t.pess.forUpdateTS, o.ForUpdateTS)
	todo := make([][]byte, 0, len(keys))
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if err := kv.ValidateKey(k); err != nil {
			return err
		}
		if _, ok := t.pess.locked[string(k)]; ok {
			continue
		}
		if _, ok := seen[string(k)]; ok {
			continue
		}
		seen[string(k)] = struct{}{}
		todo = append(todo, k)
	}
	if len(todo) == 0 {
		return nil
	}
	sort.Slice(todo, func(i, j int) bool { return kv.Key(todo[i]).Cmp(todo[j]) < 0 })
	first := t.pess.primary == nil
	if first {
		t.pess.primary = append([]byte(nil), todo[0]...)
	}
	l := &lockCall{t: t, o: o, first: first, deadline: time.Now().Add(o.Wait), values: values}
	bo := t.c.newBackoffer(ctx, locate.PrewriteMaxBackoff)
	err = l.lock(bo, todo)
	if err != nil {
		release := l.sent
		if l.primaryLocked {
			// The primary stays locked (and kept alive): later locks of
			// the txn name it.
			t.pess.locked[string(t.pess.primary)] = struct{}{}
			release = release[:0:0]
			for _, k := range l.sent {
				if string(k) != string(t.pess.primary) {
					release = append(release, k)
				}
			}
		} else if first {
			t.pess.primary = nil
		}
		if len(release) > 0 {
			t.pessimisticRollback(context.WithoutCancel(ctx), release, o.ForUpdateTS)
		}
		return err
	}
	for _, k := range todo {
		t.pess.locked[string(k)] = struct{}{}
	}
	return nil
}

// lockCall is one LockKeys call in flight.
type lockCall struct {
	t        *Txn
	o        LockOptions
	first    bool
	deadline time.Time
	// sent are the keys of every request sent so far, locked or maybe
	// locked (a request whose reply was lost): released on failure.
	sent          [][]byte
	primaryLocked bool
	// values, when not nil, receives the value each lock returns.
	values map[string][]byte
}

// lock locks keys region by region, the primary's region first and alone.
func (l *lockCall) lock(bo *locate.Backoffer, keys [][]byte) error {
	groups, err := l.t.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, keys)
	if err != nil {
		return err
	}
	primary := l.t.pess.primary
	for i, g := range groups {
		for _, k := range g.Keys {
			if string(k) == string(primary) {
				groups[0], groups[i] = groups[i], groups[0]
				break
			}
		}
	}
	for _, g := range groups {
		if err := l.lockGroup(bo, g); err != nil {
			return err
		}
		if l.first && !l.primaryLocked && containsKey(g.Keys, primary) {
			// The primary is locked: keep it alive from now on, while
			// later groups may wait (reference §5.2, heartbeats). Once
			// locked it stays the primary even if this call fails.
			l.primaryLocked = true
			l.t.ttl.start(ttlTarget{c: l.t.c, primary: primary, startTS: l.t.StartTS(), began: l.t.began})
		}
	}
	return nil
}

// lockGroup locks the keys of one region, waiting for and resolving the
// locks of other txns it meets.
func (l *lockCall) lockGroup(bo *locate.Backoffer, g locate.KeyGroup) error {
	t := l.t
	sent := false
	for {
		wait := time.Until(l.deadline)
		waitMs := wait.Milliseconds()
		if l.o.NoWait || waitMs <= 0 {
			waitMs = -1
		}
		req := &kvrpcpb.PessimisticLockRequest{
			Context: &kvrpcpb.Context{}, PrimaryLock: t.pess.primary, StartVersion: t.StartTS(),
			// A pessimistic lock lives as long as a heartbeat keeps it
			// (client-go: ManagedLockTTL): the txn may sit between
			// statements, or wait on a busy server, for more than LockTTL.
			ForUpdateTs: l.o.ForUpdateTS, LockTtl: t.c.opts.ManagedLockTTL + uint64(time.Since(t.began).Milliseconds()),
			IsFirstLock: l.first, WaitTimeout: waitMs, MinCommitTs: l.o.ForUpdateTS + 1,
			ReturnValues: l.values != nil,
		}
		for _, k := range g.Keys {
			req.Mutations = append(req.Mutations, &kvrpcpb.Mutation{Op: kvrpcpb.Op_PessimisticLock, Key: k})
		}
		if !sent {
			// Before the send: a request whose reply is lost may have
			// locked its keys.
			l.sent, sent = append(l.sent, g.Keys...), true
		}
		resp, err := locate.Send(t.c.sender, bo, g.Location, req, rpc.StoreAPI.KvPessimisticLock)
		if err != nil {
			if errors.Is(err, locate.ErrRegionRetry) {
				return l.lock(bo, g.Keys)
			}
			if err := onSendError(bo, err); err != nil {
				return err
			}
			continue
		}
		kerrs := resp.GetErrors()
		if len(kerrs) == 0 {
			return l.keepValues(req.Mutations, resp)
		}
		err = kerrs[0].Err()
		var locked *kv.LockedError
		if !errors.As(err, &locked) {
			return err
		}
		if l.o.NoWait {
			return fmt.Errorf("%w: %w", kv.ErrLockWaitTimeout, err)
		}
		// The server waited as long as it would; resolve the holder if it
		// is dead, and ask again while the budget lasts.
		if _, err := t.c.resolver.resolveForWrite(bo, 0, []kv.LockInfo{locked.Lock}); err != nil {
			return err
		}
		if time.Now().After(l.deadline) {
			return fmt.Errorf("%w: %w", kv.ErrLockWaitTimeout, err)
		}
	}
}

// keepValues stores the values a successful lock request returned, one
// per mutation.
func (l *lockCall) keepValues(muts []*kvrpcpb.Mutation, resp *kvrpcpb.PessimisticLockResponse) error {
	if l.values == nil {
		return nil
	}
	vals, absent := resp.GetValues(), resp.GetNotFounds()
	if len(vals) != len(muts) || len(absent) != len(muts) {
		return fmt.Errorf("txnclient: a pessimistic lock of %d keys returned %d values and %d not-found flags", len(muts), len(vals), len(absent))
	}
	for i, m := range muts {
		if !absent[i] {
			l.values[string(m.Key)] = vals[i]
		}
	}
	return nil
}

// pessimisticRollback releases the txn's pessimistic locks on keys taken
// at or below forUpdateTS (best effort: a lock left behind expires with
// its TTL).
func (t *Txn) pessimisticRollback(ctx context.Context, keys [][]byte, forUpdateTS uint64) {
	bo := t.c.newBackoffer(ctx, locate.CleanupMaxBackoff)
	groups, err := t.c.sender.Cache().GroupKeysByRegion(ctx, bo, keys)
	if err != nil {
		return
	}
	for _, g := range groups {
		req := &kvrpcpb.PessimisticRollbackRequest{Context: &kvrpcpb.Context{}, StartVersion: t.StartTS(),
			ForUpdateTs: forUpdateTS, Keys: g.Keys}
		_, _ = locate.Send(t.c.sender, bo, g.Location, req, rpc.StoreAPI.KvPessimisticRollback)
	}
}

// lockedKeyList returns the txn's pessimistically locked keys.
func (p *pessimisticState) lockedKeyList() [][]byte {
	out := make([][]byte, 0, len(p.locked))
	for k := range p.locked {
		out = append(out, []byte(k))
	}
	return out
}
