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
	GetTimestampAsync(ctx context.Context) TSFuture
}

// BeginLazy starts a transaction whose start timestamp is asked for now
// and waited for at its first read, lock or commit, as TiDB does for
// BEGIN: the timestamp's round trip overlaps the client's next statement.
// The timestamp still follows every commit acknowledged before BeginLazy
// was called (the request leaves after them). ctx bounds the request, so
// it should outlive the statement that begins the transaction. Without an
// AsyncOracle it is Begin.
func (c *Client) BeginLazy(ctx context.Context) (*Txn, error) {
	if c.async == nil {
		return c.Begin(ctx)
	}
	t := c.BeginAt(0)
	t.snap.pending = c.async.GetTimestampAsync(ctx)
	return t, nil
}

// ts returns the snapshot's timestamp, waiting for a lazily taken one
// the first time (within ctx; a wait that ctx ended is retried by the
// next call).
func (s *snapshot) ts(ctx context.Context) (uint64, error) {
	s.tsMu.Lock()
	defer s.tsMu.Unlock()
	if s.pending == nil {
		return s.startTS, nil
	}
	ts, err := s.pending.WaitContext(ctx)
	if err != nil {
		return 0, err
	}
	s.startTS, s.pending = ts, nil
	return ts, nil
}

// timedAsync is an AsyncOracle whose waits are observed.
type timedAsync struct {
	AsyncOracle
	wait prometheus.Observer
}

// GetTimestampAsync implements AsyncOracle.
func (t timedAsync) GetTimestampAsync(ctx context.Context) TSFuture {
	return timedFuture{t.AsyncOracle.GetTimestampAsync(ctx), t.wait}
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
