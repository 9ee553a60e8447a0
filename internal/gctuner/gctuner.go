// Package gctuner raises the garbage collector's GOGC while the live heap
// is small, as TiDB's GOGC tuner does (tidb_enable_gogc_tuner): with
// Go's default GOGC=100 a server whose live heap is a few tens of MiB
// collects after every few tens of MiB allocated, and a query that scans
// 100k rows spends a fifth of its CPU in the collector and its write
// barriers.
//
// After each collection the tuner sets GOGC so that the next one starts
// once Headroom bytes were allocated beyond the live heap, within
// [MinGOGC, MaxGOGC]: a small heap gets up to 5× its size in garbage, a
// heap of Headroom or more the default 2×. Peak memory therefore grows
// by at most Headroom over what GOGC=100 gives. An explicit GOGC in the
// environment turns the tuner off.
package gctuner

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Bounds of the tuned GOGC (TiDB's tuner uses the same range) and the
// garbage allowed beyond the live heap before the next collection.
const (
	MinGOGC  = 100
	MaxGOGC  = 500
	Headroom = 256 << 20
)

// GOGC returns the GOGC the tuner sets for a live heap of live bytes.
func GOGC(live uint64) int {
	if live == 0 {
		return MaxGOGC
	}
	return int(min(max(Headroom*100/live, MinGOGC), MaxGOGC))
}

type tuner struct {
	enabled func() bool
	stopped atomic.Bool
	last    int
	sample  []metrics.Sample
}

// sentinel is garbage whose finalizer runs once per collection.
type sentinel struct{ t *tuner }

// Start tunes GOGC after every collection until stop is called; enabled,
// when not nil, is asked each time (false: GOGC=100). It does nothing
// when the environment sets GOGC.
func Start(enabled func() bool) (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	t := &tuner{enabled: enabled, last: MinGOGC,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.arm()
	return func() {
		if !t.stopped.Swap(true) {
			debug.SetGCPercent(MinGOGC)
		}
	}
}

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{t: t}, func(s *sentinel) {
		if s.t.stopped.Load() {
			return
		}
		s.t.tune()
		s.t.arm()
	})
}

// tune runs on the finalizer goroutine, once per collection.
func (t *tuner) tune() {
	pct := MinGOGC
	if t.enabled == nil || t.enabled() {
		metrics.Read(t.sample)
		if v := t.sample[0].Value; v.Kind() == metrics.KindUint64 {
			pct = GOGC(v.Uint64())
		}
	}
	if pct != t.last {
		t.last = pct
		debug.SetGCPercent(pct)
	}
}
