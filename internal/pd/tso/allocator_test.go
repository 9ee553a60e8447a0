package tso

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(ms int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = time.UnixMilli(ms)
}

func fmtTS(ts uint64) string {
	return fmt.Sprintf("%d.%d", ExtractPhysical(ts), ExtractLogical(ts))
}

// TestAllocatorDataDriven drives one allocator through testdata scripts:
//
//	clock ms=N         set the fake clock
//	get [n=N]          GetTimestamps; prints physical.logical of the first ts
//	restart            new allocator over the same store
//	fail-store / heal-store
//	store              print the saved limit and save count
func TestAllocatorDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		clock := &fakeClock{}
		store := &MemWindowStore{}
		var a *Allocator
		open := func() string {
			var err error
			a, err = New(clock.Now, store, Options{Window: 3 * time.Second})
			if err != nil {
				return "error: " + err.Error()
			}
			return "ok"
		}
		open()
		var last uint64
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "clock":
				var ms int64
				td.ScanArgs(t, "ms", &ms)
				clock.Set(ms)
				return "ok"
			case "get":
				n := 1
				td.MaybeScanArgs(t, "n", &n)
				ts, err := a.GetTimestamps(context.Background(), n)
				if err != nil {
					return "error: " + err.Error()
				}
				if ts <= last {
					t.Fatalf("timestamp %s not above previous %s", fmtTS(ts), fmtTS(last))
				}
				last = ts + uint64(n) - 1
				return fmtTS(ts)
			case "restart":
				return open()
			case "fail-store":
				store.Err = errors.New("disk on fire")
				return "ok"
			case "heal-store":
				store.Err = nil
				return "ok"
			case "store":
				return fmt.Sprintf("limit=%d saves=%d", store.Limit, store.Saves)
			default:
				t.Fatalf("unknown command %q", td.Cmd)
				return ""
			}
		})
	})
}

func TestLogicalOverflowAdvancesPhysical(t *testing.T) {
	clock := &fakeClock{}
	clock.Set(1000)
	a, err := New(clock.Now, &MemWindowStore{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var last uint64
	// 3 full milliseconds' worth of logical values with a frozen clock.
	for i := 0; i < 3*MaxLogical/1000; i++ {
		ts, err := a.GetTimestamps(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if ts <= last {
			t.Fatalf("ts %s not above %s", fmtTS(ts), fmtTS(last))
		}
		if ExtractLogical(ts)+999 >= MaxLogical {
			t.Fatalf("batch at %s overflows the logical part", fmtTS(ts))
		}
		last = ts + 999
	}
	if p := ExtractPhysical(last); p < 1002 {
		t.Fatalf("physical %d did not advance past the frozen clock", p)
	}
}

func TestBadCount(t *testing.T) {
	clock := &fakeClock{}
	a, _ := New(clock.Now, &MemWindowStore{}, Options{})
	for _, n := range []int{0, -1, MaxLogical} {
		if _, err := a.GetTimestamps(context.Background(), n); !errors.Is(err, ErrBadCount) {
			t.Fatalf("n=%d: got %v, want ErrBadCount", n, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.GetTimestamp(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ctx: got %v", err)
	}
}

func TestConcurrentCallersUniqueIncreasing(t *testing.T) {
	clock := &fakeClock{}
	clock.Set(5000)
	a, err := New(clock.Now, &MemWindowStore{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const workers, per = 8, 2000
	got := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if i%500 == 0 {
					clock.Set(5000 + int64(i/500)) // clock moves now and then
				}
				n := 1 + i%3
				ts, err := a.GetTimestamps(context.Background(), n)
				if err != nil {
					t.Error(err)
					return
				}
				for k := 0; k < n; k++ {
					got[w] = append(got[w], ts+uint64(k))
				}
			}
		}(w)
	}
	wg.Wait()
	var all []uint64
	for w, s := range got {
		for i := 1; i < len(s); i++ {
			if s[i] <= s[i-1] {
				t.Fatalf("worker %d: %s after %s", w, fmtTS(s[i]), fmtTS(s[i-1]))
			}
		}
		all = append(all, s...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("duplicate timestamp %s", fmtTS(all[i]))
		}
	}
}

func TestFileWindowStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tso-window")
	s := NewFileWindowStore(path)
	if v, err := s.Load(); err != nil || v != 0 {
		t.Fatalf("fresh Load = %d, %v", v, err)
	}
	clock := &fakeClock{}
	clock.Set(10_000)
	a, err := New(clock.Now, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.GetTimestamp(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Load(); err != nil || v != 13_000 {
		t.Fatalf("Load after serve = %d, %v; want 13000", v, err)
	}
	// Restart with the clock far behind: the new allocator starts above.
	clock.Set(1)
	b, err := New(clock.Now, NewFileWindowStore(path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := b.GetTimestamp(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if second <= first || ExtractPhysical(second) < 13_000 {
		t.Fatalf("after restart got %s, first was %s", fmtTS(second), fmtTS(first))
	}
}

func TestFileWindowStoreCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(time.Now, NewFileWindowStore(path), Options{}); err == nil {
		t.Fatal("corrupt window file: want error")
	}
}

func BenchmarkGetTimestamp(b *testing.B) {
	a, err := New(time.Now, &MemWindowStore{}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := a.GetTimestamp(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
