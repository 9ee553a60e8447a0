package gctuner

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

func TestGOGC(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, MaxGOGC},
		{10 << 20, MaxGOGC},
		{Headroom / 5, MaxGOGC},
		{Headroom / 2, 200},
		{Headroom, MinGOGC},
		{4 * Headroom, MinGOGC},
	} {
		if got := GOGC(c.live); got != c.want {
			t.Errorf("GOGC(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// gcPercent reads GOGC.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestTune checks one tuning step: a test binary's live heap is far
// below Headroom, so an enabled tuner sets MaxGOGC and a disabled one
// the default.
func TestTune(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	on := true
	tn := &tuner{enabled: func() bool { return on }, last: MinGOGC,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	tn.tune()
	if got := gcPercent(); got != MaxGOGC {
		t.Fatalf("GOGC = %d, want %d", got, MaxGOGC)
	}
	on = false
	tn.tune()
	if got := gcPercent(); got != MinGOGC {
		t.Fatalf("GOGC disabled = %d, want %d", got, MinGOGC)
	}
}

// TestStartEveryCollection checks that the tuner runs after collection
// after collection (it re-arms), and that stop restores the default.
func TestStartEveryCollection(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	asked := make(chan struct{}, 1)
	stop := Start(func() bool {
		select {
		case asked <- struct{}{}:
		default:
		}
		return true
	})
	for range 3 {
		for done := false; !done; {
			runtime.GC()
			select {
			case <-asked:
				done = true
			default:
				runtime.Gosched()
			}
		}
	}
	stop()
	if got := gcPercent(); got != MinGOGC {
		t.Fatalf("GOGC after stop = %d, want %d", got, MinGOGC)
	}
}

func TestStartLeavesExplicitGOGC(t *testing.T) {
	t.Setenv("GOGC", "150")
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	stop := Start(nil)
	defer stop()
	runtime.GC()
	runtime.GC()
	if got := gcPercent(); got != 150 {
		t.Fatalf("GOGC = %d, want the environment's 150", got)
	}
}
