package txnclient

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// timedOracle is an Oracle whose waits for a timestamp are observed.
type timedOracle struct {
	o    Oracle
	wait prometheus.Observer
}

// GetTimestamp implements Oracle.
func (t timedOracle) GetTimestamp(ctx context.Context) (uint64, error) {
	return timedFuture{syncFuture{t.o}, t.wait}.WaitContext(ctx)
}
