package server

import (
	"errors"
	"fmt"
	"sync"
)

// MaxIDCount bounds the ids one AllocID call may take.
const MaxIDCount = 1 << 20

// errBadIDCount is returned for a count of 0 or above MaxIDCount.
var errBadIDCount = errors.New("pd: id count out of range")

// idAllocator hands out ids that are never handed out again. It reserves
// them in windows: before giving out an id above the saved limit it saves
// a new limit (through save, guarded by leadership), so a restarted or new
// leader, starting above the saved limit, never repeats one. Ids wasted by
// a crash are simply skipped.
type idAllocator struct {
	window uint64
	save   func(limit uint64) error

	mu struct {
		sync.Mutex
		next  uint64 // next id to hand out
		limit uint64 // every id handed out is <= limit, which is saved
	}
}

// newIDAllocator starts above saved, the limit the previous leader saved.
func newIDAllocator(saved, window uint64, save func(uint64) error) *idAllocator {
	a := &idAllocator{window: max(window, 1), save: save}
	a.mu.next = saved + 1
	a.mu.limit = saved
	return a
}

// alloc reserves count consecutive ids and returns the first.
func (a *idAllocator) alloc(count uint64) (uint64, error) {
	if count == 0 || count > MaxIDCount {
		return 0, fmt.Errorf("%w: %d", errBadIDCount, count)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	last := a.mu.next + count - 1
	if last > a.mu.limit {
		limit := last + a.window
		if err := a.save(limit); err != nil {
			return 0, fmt.Errorf("pd: save id limit: %w", err)
		}
		a.mu.limit = limit
	}
	first := a.mu.next
	a.mu.next = last + 1
	return first, nil
}
