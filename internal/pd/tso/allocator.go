package tso

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrBadCount is returned by GetTimestamps for n outside [1, MaxLogical).
var ErrBadCount = errors.New("tso: batch size out of range")

// DefaultWindow is how far ahead of the served timestamps the allocator
// persists its limit.
const DefaultWindow = 3 * time.Second

// WindowStore persists the allocator's window limit, a physical time in
// milliseconds that no served timestamp reaches.
type WindowStore interface {
	// Load returns the last saved limit, 0 if none was ever saved.
	Load() (uint64, error)
	// Save durably records limit; it must be on stable storage on return.
	Save(limit uint64) error
}

// Options tune an Allocator. The zero value is valid.
type Options struct {
	// Window is how far ahead of the current physical time the limit is
	// saved (default DefaultWindow).
	Window time.Duration
}

// Allocator hands out strictly increasing timestamps. It is safe for
// concurrent use.
type Allocator struct {
	clock  func() time.Time
	store  WindowStore
	window uint64 // ms

	mu struct {
		sync.Mutex
		physical uint64 // ms of the last timestamp served (or the start point)
		logical  uint64 // logical of the last timestamp served
		limit    uint64 // ms; every served physical is < limit
	}
}

// New returns an allocator that reads time from clock and persists its
// window through store. It starts above the limit saved by any previous
// allocator over store.
func New(clock func() time.Time, store WindowStore, opts Options) (*Allocator, error) {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	saved, err := store.Load()
	if err != nil {
		return nil, fmt.Errorf("tso: load window: %w", err)
	}
	a := &Allocator{clock: clock, store: store, window: uint64(opts.Window / time.Millisecond)}
	if a.window == 0 {
		a.window = 1
	}
	a.mu.physical = max(a.nowMs(), saved)
	a.mu.logical = 0
	a.mu.limit = saved // forces a Save before the first timestamp is served
	return a, nil
}

func (a *Allocator) nowMs() uint64 {
	ms := a.clock().UnixMilli()
	if ms < 0 {
		return 0
	}
	return uint64(ms)
}

// GetTimestamp returns one timestamp above all earlier ones.
func (a *Allocator) GetTimestamp(ctx context.Context) (uint64, error) {
	return a.GetTimestamps(ctx, 1)
}

// GetTimestamps reserves n consecutive timestamps and returns the first;
// the caller owns first, first+1, ..., first+n-1 (all with the same
// physical part).
func (a *Allocator) GetTimestamps(ctx context.Context, n int) (first uint64, err error) {
	if n < 1 || n >= MaxLogical {
		return 0, fmt.Errorf("%w: %d", ErrBadCount, n)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.allocateLocked(uint64(n))
}

// allocateLocked advances the state by n timestamps and persists a new
// window first when the physical part reaches the renewal point.
func (a *Allocator) allocateLocked(n uint64) (uint64, error) {
	physical, logical := a.mu.physical, a.mu.logical
	if now := a.nowMs(); now > physical {
		physical, logical = now, 0
	}
	if logical+n >= MaxLogical {
		// Out of logical values in this millisecond: move to the next one
		// (or to the clock, if it is already further).
		physical, logical = max(physical+1, a.nowMs()), 0
	}
	// Renew once a third of the window is left, and always before serving
	// at or beyond the limit.
	if physical+a.window/3 >= a.mu.limit || physical >= a.mu.limit {
		limit := physical + a.window
		if err := a.store.Save(limit); err != nil {
			return 0, fmt.Errorf("tso: save window: %w", err)
		}
		a.mu.limit = limit
	}
	first := ComposeTS(physical, logical+1)
	a.mu.physical, a.mu.logical = physical, logical+n
	return first, nil
}
