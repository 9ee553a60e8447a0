package txnclient

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// TSFuture is a timestamp on its way (AsyncOracle).
type TSFuture interface {
	// WaitContext returns the timestamp, or why there is none. It gives
	// up when ctx ends; the timestamp may still arrive for a later wait.
	WaitContext(ctx context.Context) (uint64, error)
}

// AsyncOracle is an Oracle that can also hand out a timestamp later: the
// request leaves at once, the caller waits only when it needs the value
// (PD's client; TiDB's TSO future).
type AsyncOracle interface {
	Oracle
	// GetTimestampAsync sends a request that lives until life ends; ctx
	// bounds only the sending.
	GetTimestampAsync(ctx, life context.Context) TSFuture
}

// BeginLazy starts a transaction whose start timestamp is asked for now
// and waited for at its first read, lock or commit, as TiDB does for
// BEGIN: the timestamp's round trip overlaps the client's next statement.
// The timestamp still follows every commit acknowledged before BeginLazy
// was called (the request leaves after them). ctx bounds only the
// sending; the request lives until the txn ends. Without an AsyncOracle
// it is Begin.
func (c *Client) BeginLazy(ctx context.Context) (*Txn, error) {
	if c.async == nil {
		return c.Begin(ctx)
	}
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	f := c.async.GetTimestampAsync(ctx, life)
	t := c.BeginAt(0)
	t.snap.pending, t.endTS = f, cancel
	t.snap.known.Store(false)
	return t, nil
}

// ts returns the snapshot's timestamp, waiting for a lazily taken one
// the first time. The wait ends with ctx (the next call waits again); a
// request that failed is replaced by a synchronous one, asked at the next
// call (a later timestamp still follows what preceded BEGIN).
func (s *snapshot) ts(ctx context.Context) (uint64, error) {
	if s.known.Load() { // every read after the first: no lock
		return s.startTS, nil
	}
	s.tsMu.Lock()
	f, known := s.pending, s.startTS
	s.tsMu.Unlock()
	if f == nil {
		return known, nil
	}
	ts, err := f.WaitContext(ctx) // outside tsMu: other waiters keep their ctx
	s.tsMu.Lock()
	defer s.tsMu.Unlock()
	switch {
	case s.pending == nil: // another waiter got it (the same future's value)
		return s.startTS, nil
	case err != nil:
		if ctx.Err() == nil && s.pending == f {
			s.pending = syncFuture{s.c.oracle}
		}
		return 0, err
	}
	s.startTS, s.pending = ts, nil
	s.known.Store(true)
	return ts, nil
}

// syncFuture asks the oracle when waited for.
type syncFuture struct{ o Oracle }

// WaitContext implements TSFuture.
func (f syncFuture) WaitContext(ctx context.Context) (uint64, error) { return f.o.GetTimestamp(ctx) }

// timedAsync is an AsyncOracle whose waits are observed.
type timedAsync struct {
	AsyncOracle
	wait prometheus.Observer
}

// GetTimestampAsync implements AsyncOracle.
func (t timedAsync) GetTimestampAsync(ctx, life context.Context) TSFuture {
	return timedFuture{t.AsyncOracle.GetTimestampAsync(ctx, life), t.wait}
}

// timedFuture observes how long its callers waited.
type timedFuture struct {
	f    TSFuture
	wait prometheus.Observer
}

// WaitContext implements TSFuture.
func (t timedFuture) WaitContext(ctx context.Context) (uint64, error) {
	start := time.Now()
	ts, err := t.f.WaitContext(ctx)
	t.wait.Observe(time.Since(start).Seconds())
	return ts, err
}
