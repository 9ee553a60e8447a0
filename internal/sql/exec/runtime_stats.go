package exec

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/chunk"
)

// RuntimeStats collects, for EXPLAIN ANALYZE, every operator's figures
// by its plan node: rows returned, Next calls (loops), Open calls, time
// spent in the operator and its children, and its memory tracker.
type RuntimeStats struct {
	mu  sync.Mutex
	ops map[any]*OpStats
}

// OpStats are one operator's figures.
type OpStats struct {
	Rows, Loops, Opens int64
	Time               time.Duration
	Mem                *MemTracker
	// Extra counts operator-specific events (an index join's lookups).
	Extra map[string]int64
}

// NewRuntimeStats returns an empty collector.
func NewRuntimeStats() *RuntimeStats { return &RuntimeStats{ops: map[any]*OpStats{}} }

// Get returns the figures of plan node p (nil when it never ran).
func (s *RuntimeStats) Get(p any) *OpStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ops[p]
}

func (s *RuntimeStats) of(p any) *OpStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.ops[p]
	if st == nil {
		st = &OpStats{}
		s.ops[p] = st
	}
	return st
}

func (s *RuntimeStats) setMem(p any, t *MemTracker) {
	st := s.of(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.Mem == nil || t.Peak() >= st.Mem.Peak() {
		st.Mem = t
	}
}

// add counts an operator-specific event.
func (s *RuntimeStats) add(p any, name string, n int64) {
	if s == nil {
		return
	}
	st := s.of(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.Extra == nil {
		st.Extra = map[string]int64{}
	}
	st.Extra[name] += n
}

// Info renders the figures as TiDB's execution info column.
func (st *OpStats) Info() string {
	s := fmt.Sprintf("time:%v, loops:%d", st.Time.Round(time.Microsecond), st.Loops)
	if st.Opens > 1 {
		s += fmt.Sprintf(", opens:%d", st.Opens)
	}
	for _, k := range []string{"lookups", "lookup_rows"} {
		if v, ok := st.Extra[k]; ok {
			s += fmt.Sprintf(", %s:%d", k, v)
		}
	}
	return s
}

// statsExec measures the operator it wraps.
type statsExec struct {
	Executor
	st *OpStats
}

func (e *statsExec) Open(ctx context.Context) error {
	t := time.Now()
	err := e.Executor.Open(ctx)
	e.st.Time += time.Since(t)
	e.st.Opens++
	return err
}

func (e *statsExec) Next(ctx context.Context, chk *chunk.Chunk) error {
	t := time.Now()
	err := e.Executor.Next(ctx, chk)
	e.st.Time += time.Since(t)
	e.st.Loops++
	e.st.Rows += int64(chk.NumRows())
	return err
}

func (e *statsExec) maxRows() int { return maxRows(e.Executor) }
