package txn

import (
	"context"
	"hash/maphash"
	"slices"
	"sync"
)

// DefaultLatchSlots is the number of latch slots when Options leaves it 0
// (TiKV's scheduler-concurrency default is 512Ki; a store of this size
// needs far fewer).
const DefaultLatchSlots = 2048

// Latches serialise the write commands of one store by key: a command
// declares the keys it touches, the keys are hashed to slots, and the
// command holds every one of its slots while it runs. Two commands touching
// the same key therefore run one at a time; commands on different keys run
// in parallel unless their keys share a slot.
//
// Slots are acquired in ascending slot order, so two commands can never
// wait for each other in a cycle. Each slot hands itself over to its
// waiters in the order they queued (FIFO), so no command starves.
type Latches struct {
	seed  maphash.Seed
	mask  uint64
	slots []latchSlot
}

// latchSlot is a FIFO lock: ownership passes directly from the releaser to
// the oldest waiter.
type latchSlot struct {
	mu      sync.Mutex
	held    bool            // guarded by mu
	waiters []chan struct{} // guarded by mu; closed to hand the slot over
}

// NewLatches returns latches with n slots (rounded up to a power of two;
// n <= 0 means DefaultLatchSlots).
func NewLatches(n int) *Latches {
	if n <= 0 {
		n = DefaultLatchSlots
	}
	size := 1
	for size < n {
		size <<= 1
	}
	return &Latches{seed: maphash.MakeSeed(), mask: uint64(size - 1), slots: make([]latchSlot, size)}
}

// Slots returns the sorted, distinct slot indexes covering keys.
func (l *Latches) Slots(keys [][]byte) []int {
	out := make([]int, 0, len(keys))
	for _, k := range keys {
		out = append(out, int(maphash.Bytes(l.seed, k)&l.mask))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Acquire blocks until the command holds every slot covering keys, and
// returns the guard that releases them. If ctx ends first, Acquire gives
// back the slots it holds and returns ctx's error.
func (l *Latches) Acquire(ctx context.Context, keys [][]byte) (*LatchGuard, error) {
	g := &LatchGuard{l: l, slots: l.Slots(keys)}
	for i, s := range g.slots {
		if err := l.slots[s].acquire(ctx); err != nil {
			g.slots = g.slots[:i]
			g.Release()
			return nil, err
		}
	}
	return g, nil
}

// LatchGuard is the set of slots one command holds.
type LatchGuard struct {
	l     *Latches
	slots []int
}

// Release gives the slots back, waking the next waiter of each. It is safe
// to call on a nil guard and more than once.
func (g *LatchGuard) Release() {
	if g == nil || g.l == nil {
		return
	}
	for i := len(g.slots) - 1; i >= 0; i-- {
		g.l.slots[g.slots[i]].release()
	}
	g.l = nil
}

func (s *latchSlot) acquire(ctx context.Context) error {
	s.mu.Lock()
	if !s.held {
		s.held = true
		s.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	s.waiters = append(s.waiters, ch)
	s.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	if i := slices.Index(s.waiters, ch); i >= 0 {
		s.waiters = slices.Delete(s.waiters, i, i+1)
		s.mu.Unlock()
		return ctx.Err()
	}
	s.mu.Unlock()
	// The slot was handed to us while ctx ended: pass it on.
	s.release()
	return ctx.Err()
}

func (s *latchSlot) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.waiters) == 0 {
		s.held = false
		return
	}
	next := s.waiters[0]
	s.waiters[0] = nil
	s.waiters = s.waiters[1:]
	close(next) // ownership passes to next; held stays true
}
