package locate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// BackoffKind names why a caller waits; each kind has its own base and cap.
type BackoffKind int

// Backoff kinds.
const (
	// BoRegionMiss: the region moved, split or lost its leader.
	BoRegionMiss BackoffKind = iota
	// BoServerBusy: storage asked the client to slow down.
	BoServerBusy
	// BoTxnLock: a write met a lock of a live transaction.
	BoTxnLock
	// BoTxnLockFast: a read met a lock of a live transaction.
	BoTxnLockFast
	// BoTxnNotFound: a lock's primary has no trace yet (it may be in flight).
	BoTxnNotFound
	// BoStoreUnreachable: the store could not be reached or did not reply.
	BoStoreUnreachable
	// BoMaxTsNotSynced: a new leader has not synced max_ts yet.
	BoMaxTsNotSynced
	numBackoffKinds
)

var kindNames = [numBackoffKinds]string{"regionMiss", "serverBusy", "txnLock", "txnLockFast", "txnNotFound", "storeUnreachable", "maxTsNotSynced"}

func (k BackoffKind) String() string {
	if k >= 0 && k < numBackoffKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("BackoffKind(%d)", int(k))
}

// backoffParams are the base and cap of one kind's exponential backoff.
type backoffParams struct{ baseMs, capMs int }

var params = [numBackoffKinds]backoffParams{
	BoRegionMiss:       {2, 500},
	BoServerBusy:       {20, 2000},
	BoTxnLock:          {100, 3000},
	BoTxnLockFast:      {2, 3000},
	BoTxnNotFound:      {2, 500},
	BoStoreUnreachable: {2, 1000},
	BoMaxTsNotSynced:   {2, 500},
}

// Budgets (ms) that callers commonly use, after client-go.
const (
	GetMaxBackoff      = 20000
	PrewriteMaxBackoff = 20000
	CommitMaxBackoff   = 41000
	CleanupMaxBackoff  = 20000
	ResolveMaxBackoff  = 20000
)

// ErrBackoffExhausted is wrapped by the error a Backoffer returns once its
// budget is spent.
var ErrBackoffExhausted = errors.New("locate: backoff budget exhausted")

// BackoffError reports a spent budget or a done context; it unwraps to the
// last error the caller backed off for (and to the context error).
type BackoffError struct {
	Kind    BackoffKind
	TotalMs int
	Last    error
	ctxErr  error
}

func (e *BackoffError) Error() string {
	if e.ctxErr != nil {
		return fmt.Sprintf("backoff %s stopped: %v (last error: %v)", e.Kind, e.ctxErr, e.Last)
	}
	return fmt.Sprintf("backoff %s: budget exhausted after %d ms (last error: %v)", e.Kind, e.TotalMs, e.Last)
}

// Is makes errors.Is(err, ErrBackoffExhausted) true for a spent budget.
func (e *BackoffError) Is(target error) bool { return target == ErrBackoffExhausted && e.ctxErr == nil }

// Unwrap returns the last error and the context error, if any.
func (e *BackoffError) Unwrap() []error {
	var errs []error
	if e.Last != nil {
		errs = append(errs, e.Last)
	}
	if e.ctxErr != nil {
		errs = append(errs, e.ctxErr)
	}
	return errs
}

// Sleeper waits d or until ctx is done, returning ctx.Err() in that case.
type Sleeper func(ctx context.Context, d time.Duration) error

// SleepCtx is the real Sleeper.
func SleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Backoffer accumulates waits of one logical operation against a budget.
// It is safe for concurrent use by the goroutines of one operation; use
// Fork to give a parallel branch its own attempt counters.
type Backoffer struct {
	ctx   context.Context
	maxMs int
	sleep Sleeper

	mu       sync.Mutex
	totalMs  int
	attempts [numBackoffKinds]int
}

// NewBackoffer returns a Backoffer with a total budget of maxMs.
func NewBackoffer(ctx context.Context, maxMs int) *Backoffer {
	return NewBackofferWithSleeper(ctx, maxMs, SleepCtx)
}

// NewBackofferWithSleeper is NewBackoffer with the wait injected (tests
// pass one that records instead of sleeping).
func NewBackofferWithSleeper(ctx context.Context, maxMs int, sleep Sleeper) *Backoffer {
	return &Backoffer{ctx: ctx, maxMs: maxMs, sleep: sleep}
}

// Context returns the context the Backoffer waits under.
func (b *Backoffer) Context() context.Context { return b.ctx }

// Fork returns a Backoffer with the same context, sleeper and remaining
// budget, and fresh attempt counters.
func (b *Backoffer) Fork() *Backoffer {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &Backoffer{ctx: b.ctx, maxMs: b.maxMs - b.totalMs, sleep: b.sleep}
}

// TotalMs returns the time slept so far.
func (b *Backoffer) TotalMs() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.totalMs
}

// Backoff waits for the next step of kind because of err. It returns a
// *BackoffError (never sleeping) when the context is done or the budget is
// spent.
func (b *Backoffer) Backoff(kind BackoffKind, err error) error {
	return b.BackoffWithMaxSleep(kind, -1, err)
}

// BackoffWithMaxSleep is Backoff with the wait capped at maxSleepMs (when
// >= 0): a reader that knows a lock expires in 5 ms waits no longer.
func (b *Backoffer) BackoffWithMaxSleep(kind BackoffKind, maxSleepMs int, err error) error {
	if cerr := b.ctx.Err(); cerr != nil {
		return &BackoffError{Kind: kind, TotalMs: b.TotalMs(), Last: err, ctxErr: cerr}
	}
	b.mu.Lock()
	if b.totalMs >= b.maxMs {
		total := b.totalMs
		b.mu.Unlock()
		return &BackoffError{Kind: kind, TotalMs: total, Last: err}
	}
	ms := nextSleepMs(params[kind], b.attempts[kind])
	if maxSleepMs >= 0 && ms > maxSleepMs {
		ms = maxSleepMs
	}
	if rest := b.maxMs - b.totalMs; ms > rest {
		ms = rest
	}
	b.attempts[kind]++
	b.totalMs += max(ms, 1) // a zero wait still uses budget, so loops end
	b.mu.Unlock()
	if ms == 0 {
		return nil
	}
	if serr := b.sleep(b.ctx, time.Duration(ms)*time.Millisecond); serr != nil {
		return &BackoffError{Kind: kind, TotalMs: b.TotalMs(), Last: err, ctxErr: serr}
	}
	return nil
}

// nextSleepMs is exponential growth from base to cap with equal jitter:
// half the step fixed, half random.
func nextSleepMs(p backoffParams, attempt int) int {
	v := p.baseMs
	for i := 0; i < attempt && v < p.capMs; i++ {
		v *= 2
	}
	v = min(v, p.capMs)
	half := v / 2
	if half == 0 {
		return v
	}
	return half + rand.IntN(half+1)
}
