package txn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// waiters returns how many commands queue on slot i.
func (l *Latches) waiters(i int) int {
	s := &l.slots[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiters)
}

// waitForWaiters yields until n commands queue on slot i.
func waitForWaiters(t *testing.T, l *Latches, i, n int) {
	t.Helper()
	for l.waiters(i) < n {
		runtime.Gosched()
	}
}

func TestLatchSlotsSortedDistinct(t *testing.T) {
	l := NewLatches(8)
	if len(l.slots) != 8 {
		t.Fatalf("slots = %d", len(l.slots))
	}
	keys := [][]byte{[]byte("c"), []byte("a"), []byte("b"), []byte("a")}
	s := l.Slots(keys)
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			t.Fatalf("slots not sorted/distinct: %v", s)
		}
	}
	if got := NewLatches(5); len(got.slots) != 8 {
		t.Fatalf("rounding: %d", len(got.slots))
	}
}

// TestLatchSerialises runs many goroutines doing a non-atomic
// read-modify-write of shared counters under latches of overlapping key
// sets; the race detector and the final sums catch any overlap.
func TestLatchSerialises(t *testing.T) {
	l := NewLatches(4) // few slots: many key collisions, multi-slot guards
	keys := [][]byte{[]byte("a"), []byte("b"), []byte("c"), []byte("d")}
	counters := map[string]*int{}
	for _, k := range keys {
		counters[string(k)] = new(int)
	}
	const workers, iters = 8, 300
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range iters {
				// Each command touches two keys, in both orders.
				a, b := keys[(w+i)%4], keys[(w+2*i+1)%4]
				g, err := l.Acquire(context.Background(), [][]byte{b, a})
				if err != nil {
					t.Error(err)
					return
				}
				for _, k := range [][]byte{a, b} {
					c := counters[string(k)]
					v := *c
					runtime.Gosched()
					*c = v + 1
				}
				g.Release()
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range counters {
		total += *c
	}
	if total != workers*iters*2 {
		t.Fatalf("lost updates: total %d, want %d", total, workers*iters*2)
	}
}

func TestLatchFIFO(t *testing.T) {
	l := NewLatches(1)
	k := [][]byte{[]byte("k")}
	first, err := l.Acquire(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := l.Acquire(context.Background(), k)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			g.Release()
		}()
		waitForWaiters(t, l, 0, i+1) // queue strictly in i order
	}
	first.Release()
	wg.Wait()
	if fmt.Sprint(order) != "[0 1 2 3 4]" {
		t.Fatalf("wake order %v", order)
	}
}

func TestLatchCancel(t *testing.T) {
	l := NewLatches(1)
	k := [][]byte{[]byte("k")}
	g, _ := l.Acquire(context.Background(), k)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := l.Acquire(ctx, k)
		done <- err
	}()
	waitForWaiters(t, l, 0, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if n := l.waiters(0); n != 0 {
		t.Fatalf("cancelled waiter still queued: %d", n)
	}
	g.Release()
	g.Release() // idempotent
	g2, err := l.Acquire(context.Background(), k)
	if err != nil {
		t.Fatal(err)
	}
	g2.Release()
}
