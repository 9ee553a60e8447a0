package txnclient

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// Txn is a snapshot-isolated transaction, optimistic unless
// SetPessimistic was called (see pessimistic.go). It implements
// kv.Transaction. A Txn is used by one goroutine at a time.
type Txn struct {
	c     *Client
	snap  *snapshot
	buf   *memBuffer
	began time.Time

	asyncCommit     bool
	onePC           bool
	linearizability bool

	// ttl keeps the locks alive: from the first pessimistic lock, or
	// during a long commit.
	ttl ttlManager
	// pess is the pessimistic state (nil: optimistic).
	pess *pessimisticState

	// newest is set in a BeginNewest txn.
	newest *newestReads

	// endTS drops a lazy start-ts request still on its way (BeginLazy)
	// when the txn ends; nil otherwise.
	endTS context.CancelFunc

	mu     sync.Mutex
	closed bool
	// commitTS is the commit timestamp once committed (0 otherwise).
	commitTS uint64
}

var _ kv.Transaction = (*Txn)(nil)

// StartTS is the snapshot timestamp. A BeginLazy txn that has not read
// yet waits for it here (0 if it cannot be had: the reads and the commit
// report why).
func (t *Txn) StartTS() uint64 {
	ts, _ := t.snap.ts(context.Background())
	return ts
}

// CommitTS is the commit timestamp after a successful Commit that wrote
// something (0 for read-only transactions).
func (t *Txn) CommitTS() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.commitTS
}

// EnableAsyncCommit overrides the client's AsyncCommit for this txn.
func (t *Txn) EnableAsyncCommit(on bool) { t.asyncCommit = on }

// EnableOnePC overrides the client's OnePC for this txn.
func (t *Txn) EnableOnePC(on bool) { t.onePC = on }

// GuaranteeLinearizability overrides the client's GuaranteeLinearizability
// for this txn (tidb_guarantee_linearizability).
func (t *Txn) GuaranteeLinearizability(on bool) { t.linearizability = on }

// Len is the number of buffered keys.
func (t *Txn) Len() int { return t.buf.len() }

func (t *Txn) checkOpen() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return kv.ErrTxnClosed
	}
	return nil
}

// Set buffers a put of k.
func (t *Txn) Set(k kv.Key, v []byte) error {
	if err := t.checkOpen(); err != nil {
		return err
	}
	if err := kv.ValidateKey(k); err != nil {
		return err
	}
	if len(v) > kv.MaxValueSize {
		return kv.InvalidArgumentf("value of %d bytes exceeds %d", len(v), kv.MaxValueSize)
	}
	if t.buf.size()+len(k)+len(v) > t.c.opts.TxnTotalSizeLimit {
		return fmt.Errorf("%w: over %d bytes", kv.ErrTxnTooLarge, t.c.opts.TxnTotalSizeLimit)
	}
	t.buf.set(k, v)
	return nil
}

// PresumeNotExists marks the buffered put of k as the write of a key that
// must not exist: nothing was read to check it, and the prewrite fails
// with a *kv.AlreadyExistError if it does (TiDB's lazy uniqueness check).
// A key without a buffered put is left alone.
func (t *Txn) PresumeNotExists(k kv.Key) {
	if e, ok := t.buf.m[string(k)]; ok && !e.del {
		e.notExists = true
		t.buf.m[string(k)] = e
	}
}

// Delete buffers a delete of k.
func (t *Txn) Delete(k kv.Key) error {
	if err := t.checkOpen(); err != nil {
		return err
	}
	if err := kv.ValidateKey(k); err != nil {
		return err
	}
	t.buf.delete(k)
	return nil
}

// Get returns k's value as this txn sees it: its own write if any, else
// the snapshot's.
func (t *Txn) Get(ctx context.Context, k kv.Key) ([]byte, error) {
	return t.getFrom(ctx, t.snap, k)
}

func (t *Txn) getFrom(ctx context.Context, snap *snapshot, k kv.Key) ([]byte, error) {
	if err := t.checkOpen(); err != nil {
		return nil, err
	}
	if e, ok := t.buf.get(k); ok {
		if e.del {
			return nil, kv.ErrNotExist
		}
		return e.value, nil
	}
	if t.newest != nil && snap == t.snap {
		return t.getNewest(ctx, k)
	}
	return snap.get(ctx, k)
}

// BatchGet returns the present keys among keys, keyed by string(key).
func (t *Txn) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	return t.batchGetFrom(ctx, t.snap, keys)
}

func (t *Txn) batchGetFrom(ctx context.Context, snap *snapshot, keys []kv.Key) (map[string][]byte, error) {
	if err := t.checkOpen(); err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(keys))
	var remote [][]byte
	for _, k := range keys {
		if e, ok := t.buf.get(k); ok {
			if !e.del {
				out[string(k)] = e.value
			}
			continue
		}
		remote = append(remote, k)
	}
	if len(remote) == 0 {
		return out, nil
	}
	if t.newest != nil {
		t.newest.mixed = true
	}
	got, err := snap.batchGet(ctx, remote)
	if err != nil {
		return nil, err
	}
	for k, v := range got {
		out[k] = v
	}
	return out, nil
}

// Iter iterates [start, end) forward over the snapshot merged with the
// buffered writes; an empty end means unbounded.
func (t *Txn) Iter(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	return t.iterFrom(ctx, t.snap, start, end, false)
}

// IterReverse iterates [start, end) backward, from just below end.
func (t *Txn) IterReverse(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	return t.iterFrom(ctx, t.snap, start, end, true)
}

func (t *Txn) iterFrom(ctx context.Context, snap *snapshot, start, end kv.Key, reverse bool) (kv.Iterator, error) {
	if err := t.checkOpen(); err != nil {
		return nil, err
	}
	if err := kv.ValidateRange(start, end); err != nil {
		return nil, err
	}
	if t.newest != nil {
		t.newest.mixed = true
	}
	sc, err := newScanner(ctx, snap, start, end, reverse)
	if err != nil {
		return nil, err
	}
	return newUnionIter(sc, t.buf, t.buf.rangeKeys(start, end), reverse)
}

// Commit commits the buffered writes (see committer). A transaction with
// no writes commits trivially (a pessimistic one releases its locks). On
// kv.ErrResultUndetermined the outcome is unknown and nothing was cleaned
// up.
func (t *Txn) Commit(ctx context.Context) error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return kv.ErrTxnClosed
	}
	t.closed = true
	t.mu.Unlock()
	if t.endTS != nil {
		defer t.endTS()
	}
	if t.buf.len() == 0 {
		t.releasePessimisticLocks(ctx)
		return nil
	}
	// A lazy start ts still missing here was never read at: no locks.
	startTS, err := t.snap.ts(ctx)
	if err != nil {
		return err
	}
	if t.newest != nil {
		if err := t.newest.check(startTS); err != nil {
			return err
		}
	}
	cm := newCommitter(t)
	if err := cm.execute(ctx); err != nil {
		if !errors.Is(err, kv.ErrResultUndetermined) {
			// Keys the prewrite never reached still hold pessimistic
			// locks (a failed prewrite's cleanup rolled back the rest).
			t.releasePessimisticLocks(ctx)
		}
		return err
	}
	t.mu.Lock()
	t.commitTS = cm.commitTS
	t.mu.Unlock()
	return nil
}

// Rollback discards the transaction. An optimistic txn wrote nothing
// before Commit; a pessimistic one releases its locks.
func (t *Txn) Rollback() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return kv.ErrTxnClosed
	}
	t.closed = true
	t.mu.Unlock()
	if t.endTS != nil {
		t.endTS()
	}
	t.releasePessimisticLocks(context.Background())
	return nil
}

// releasePessimisticLocks stops the heartbeats and deletes the txn's
// pessimistic locks, if any.
func (t *Txn) releasePessimisticLocks(ctx context.Context) {
	t.ttl.stop()
	if t.pess != nil && len(t.pess.locked) > 0 {
		t.pessimisticRollback(context.WithoutCancel(ctx), t.pess.lockedKeyList(), t.pess.forUpdateTS)
	}
}

// ForUpdateView returns the txn as a pessimistic statement sees it: reads
// at ts (the statement's for_update_ts, a "current read") merged with the
// buffered writes; writes go to the txn.
func (t *Txn) ForUpdateView(ts uint64) kv.Transaction {
	return &forUpdateView{Txn: t, snap: newSnapshot(t.c, ts)}
}

// forUpdateView is a Txn whose reads use another snapshot.
type forUpdateView struct {
	*Txn
	snap *snapshot
}

func (v *forUpdateView) Get(ctx context.Context, k kv.Key) ([]byte, error) {
	return v.getFrom(ctx, v.snap, k)
}

func (v *forUpdateView) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	return v.batchGetFrom(ctx, v.snap, keys)
}

func (v *forUpdateView) Iter(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	return v.iterFrom(ctx, v.snap, start, end, false)
}

func (v *forUpdateView) IterReverse(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	return v.iterFrom(ctx, v.snap, start, end, true)
}

// Snapshot returns a read-only view at ts (a kv.Snapshot).
func (c *Client) Snapshot(ts uint64) kv.Snapshot { return &roSnapshot{s: newSnapshot(c, ts)} }

// roSnapshot adapts snapshot to kv.Snapshot.
type roSnapshot struct{ s *snapshot }

func (r *roSnapshot) Get(ctx context.Context, k kv.Key) ([]byte, error) { return r.s.get(ctx, k) }
func (r *roSnapshot) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	bs := make([][]byte, len(keys))
	for i, k := range keys {
		bs[i] = k
	}
	return r.s.batchGet(ctx, bs)
}
func (r *roSnapshot) Iter(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	if err := kv.ValidateRange(start, end); err != nil {
		return nil, err
	}
	return newScanner(ctx, r.s, start, end, false)
}
func (r *roSnapshot) IterReverse(ctx context.Context, start, end kv.Key) (kv.Iterator, error) {
	if err := kv.ValidateRange(start, end); err != nil {
		return nil, err
	}
	return newScanner(ctx, r.s, start, end, true)
}
