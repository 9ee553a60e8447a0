package server

import (
	"errors"
	"testing"
)

func TestIDAllocatorWindows(t *testing.T) {
	var saved uint64
	saves := 0
	var fail error
	save := func(l uint64) error {
		if fail != nil {
			return fail
		}
		if l <= saved {
			t.Fatalf("limit went back: %d after %d", l, saved)
		}
		saved, saves = l, saves+1
		return nil
	}
	a := newIDAllocator(0, 10, save)
	seen := map[uint64]bool{}
	take := func(a *idAllocator, n uint64) uint64 {
		t.Helper()
		first, err := a.alloc(n)
		if err != nil {
			t.Fatal(err)
		}
		for id := first; id < first+n; id++ {
			if seen[id] || id == 0 {
				t.Fatalf("id %d handed out twice (or zero)", id)
			}
			if id > saved {
				t.Fatalf("id %d above the saved limit %d", id, saved)
			}
			seen[id] = true
		}
		return first
	}
	if got := take(a, 1); got != 1 {
		t.Fatalf("first id %d, want 1", got)
	}
	for i := 0; i < 9; i++ {
		take(a, 1)
	}
	if saves != 1 {
		t.Fatalf("%d saves for 10 ids with window 10, want 1", saves)
	}
	take(a, 25) // bigger than the window
	take(a, 3)
	// A new leader (or a restart) starts above the saved limit, skipping
	// the rest of the old window.
	limit := saved
	b := newIDAllocator(limit, 10, save)
	if got := take(b, 1); got != limit+1 {
		t.Fatalf("new allocator's first id %d, want %d", got, limit+1)
	}
	fail = errors.New("fenced")
	b2 := newIDAllocator(saved, 10, save)
	if _, err := b2.alloc(1); !errors.Is(err, fail) {
		t.Fatalf("alloc with a failing save: %v", err)
	}
	for _, n := range []uint64{0, MaxIDCount + 1} {
		if _, err := a.alloc(n); !errors.Is(err, errBadIDCount) {
			t.Fatalf("alloc(%d) = %v", n, err)
		}
	}
}
