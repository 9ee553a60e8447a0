package txn

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// ErrShuttingDown is the Go error of every request after Close.
var ErrShuttingDown = errors.New("txn: storage is shutting down")

// DefaultResolveLockBatch is how many locks a ResolveLock without keys
// resolves per batch (TiKV's RESOLVE_LOCK_BATCH_SIZE).
const DefaultResolveLockBatch = 256

// Options configure a Storage.
type Options struct {
	// LatchSlots is the number of latch slots (0: DefaultLatchSlots).
	LatchSlots int
	// ResolveLockBatch is the number of locks resolved per batch by a
	// ResolveLock without keys (0: DefaultResolveLockBatch).
	ResolveLockBatch int
	// InitialMaxTS seeds max_ts (a new leader syncs it from the TSO).
	InitialMaxTS uint64
	// WaitForLockTimeout caps one pessimistic lock request's wait for
	// another txn's lock (0: DefaultWaitForLockTimeout).
	WaitForLockTimeout time.Duration
	// InMemoryPessimisticLocks keeps pessimistic locks in the region
	// leader's memory instead of writing them through raft (TiKV's
	// [pessimistic-txn] in-memory). It needs an engine that is a
	// LeaderTermer; over any other engine it is ignored.
	InMemoryPessimisticLocks bool
	// MaxMemPessimisticLocks bounds them (0: DefaultMaxMemPessimisticLocks).
	MaxMemPessimisticLocks int
	// NewestWritesBytes bounds the in-memory record of recently read
	// keys' newest write records that spares point reads and prewrite
	// checks their seeks (0: DefaultNewestWritesBytes; negative: none).
	NewestWritesBytes int64
	// AppliesObserved: the engine reports every write it applies to the
	// Storage's BeforeApply and Applied (a raftstore with the Storage as
	// its apply observer), so the newest-write record does not also mark
	// the Storage's own writes around Engine.Write.
	AppliesObserved bool
	// LatchWait, when set, observes how long each write command waited
	// for its keys' latches, in seconds (TiKV's
	// tikv_scheduler_latch_wait_duration_seconds).
	LatchWait prometheus.Observer
}

// Storage runs the transactional commands of one store over an engine.
// Its methods are exactly the unary methods of kvrpcpb.TikvServer: key
// errors travel in the responses' error fields; the Go error is reserved
// for a cancelled context, a shut-down storage or a failing engine.
type Storage struct {
	eng     engine.Engine
	latches *Latches
	cm      *ConcurrencyManager
	opts    Options
	closed  atomic.Bool
	locks   lockIndex // keys with a lock in the engine
	waiters lockWaiters
	mem     *memPessimisticLocks // nil: pessimistic locks go to the engine
	newest  *newestWrites        // nil: every read seeks
}

// NewStorage returns a Storage over eng. The caller owns eng and closes it
// after Close.
func NewStorage(eng engine.Engine, opts Options) *Storage {
	if opts.WaitForLockTimeout <= 0 {
		opts.WaitForLockTimeout = DefaultWaitForLockTimeout
	}
	if opts.ResolveLockBatch <= 0 {
		opts.ResolveLockBatch = DefaultResolveLockBatch
	}
	s := &Storage{
		eng:     eng,
		latches: NewLatches(opts.LatchSlots),
		cm:      NewConcurrencyManager(opts.InitialMaxTS),
		opts:    opts,
	}
	switch b := opts.NewestWritesBytes; {
	case b == 0:
		s.newest = newNewestWrites(DefaultNewestWritesBytes)
	case b > 0:
		s.newest = newNewestWrites(b)
	}
	if tl, ok := eng.(LeaderTermer); ok && opts.InMemoryPessimisticLocks {
		s.mem = newMemPessimisticLocks(tl, opts.MaxMemPessimisticLocks)
	}
	s.locks.load(context.Background(), eng)
	return s
}

// ConcurrencyManager returns the store's max_ts and memory lock table, for
// the server layer (max_ts sync after a leader change).
func (s *Storage) ConcurrencyManager() *ConcurrencyManager { return s.cm }

// Close makes every later request fail with ErrShuttingDown. Commands in
// flight finish. It does not close the engine.
func (s *Storage) Close() { s.closed.Store(true) }

func (s *Storage) admit(ctx context.Context) error {
	if s.closed.Load() {
		return ErrShuttingDown
	}
	return ctx.Err()
}

// read opens a snapshot after the caller has raised max_ts and checked
// memory locks, and runs fn on a reader over it.
func (s *Storage) read(ctx context.Context, fn func(r *mvcc.Reader)) error {
	tok := s.newestToken()
	snap, err := s.eng.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer snap.Close()
	r := mvcc.NewReader(snap)
	defer r.Close()
	s.setNewest(r, tok)
	fn(r)
	return nil
}

// command is one write command's body: it reads through r and records its
// modifications in t, publishing memory locks through g if it needs them.
// It fills the response through its closure and returns whether t is to
// be written (false: write nothing, e.g. a key failed).
type command func(t *mvcc.Txn, r *mvcc.Reader, g *KeyGuard) (write bool)

// write runs one write command: latches on keys, snapshot, body, one
// engine write of t's batch if the body asks for it, release of memory
// locks, release of latches.
func (s *Storage) write(ctx context.Context, keys [][]byte, startTS uint64, body command) error {
	var start time.Time
	if s.opts.LatchWait != nil {
		start = time.Now()
	}
	latch, err := s.latches.Acquire(ctx, keys)
	if err != nil {
		return err
	}
	if s.opts.LatchWait != nil {
		s.opts.LatchWait.Observe(time.Since(start).Seconds())
	}
	defer latch.Release()
	return s.writeLatched(ctx, startTS, body)
}

// writeLatched is write for a caller that holds the latches.
func (s *Storage) writeLatched(ctx context.Context, startTS uint64, body command) error {
	tok := s.newestToken()
	snap, err := s.eng.Snapshot(ctx)
	if err != nil {
		return err
	}
	defer snap.Close()
	r := mvcc.NewReader(snap)
	defer r.Close()
	s.setNewest(r, tok)
	// The command holds the latches of every key it reads the lock of: a
	// key the index does not list has no lock in snap (see lockIndex).
	if s.locks.known() {
		r.SetLockFilter(s.locks.mayBeLocked)
	}
	sc := s.mem.scope(ctx)
	if sc != nil {
		r.SetLockOverlay(sc.load)
	}
	g := s.cm.NewKeyGuard()
	defer g.Release() // after the engine write: deferred calls run in reverse
	t := mvcc.NewTxn(startTS)
	if !body(t, r, g) || t.Empty() {
		return nil
	}
	b := t.Batch()
	var changes []memLockChange
	if sc != nil {
		b, changes = sc.split(b, s.locks.mayBeLocked)
	}
	if !b.Empty() {
		if !s.opts.AppliesObserved {
			s.newestBefore(b)
		}
		err = s.eng.Write(ctx, b)
		if !s.opts.AppliesObserved {
			s.newestAfter(b, err == nil)
		}
	}
	// Before the memory locks and latches go. A failed write may still
	// have landed: keep its locks' keys, drop none.
	s.locks.applied(b, err == nil)
	if err == nil {
		sc.apply(changes)         // before waking: see lockReleased
		s.waiters.wake(t.Batch()) // after the lock index: see lockWaiters
	}
	return err
}

// memLocker adapts a KeyGuard to mvcc.MemLocker.
type memLocker struct{ g *KeyGuard }

// LockKey publishes the lock fill returns as a MemLock of key.
func (m memLocker) LockKey(key []byte, fill func(maxTS uint64) *mvcc.Lock) {
	m.g.LockKey(key, func(maxTS uint64) *MemLock {
		l := fill(maxTS)
		if l == nil {
			return nil
		}
		return &MemLock{Info: l.Info(key), UseOnePC: l.UseOnePC}
	})
}
