package txnclient

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// timedOracle is an Oracle whose waits for a timestamp are observed.
type timedOracle struct {
	o    Oracle
	wait prometheus.Observer
}

// GetTimestamp implements Oracle.
func (t timedOracle) GetTimestamp(ctx context.Context) (uint64, error) {
	start := time.Now()
	ts, err := t.o.GetTimestamp(ctx)
	t.wait.Observe(time.Since(start).Seconds())
	return ts, err
}
