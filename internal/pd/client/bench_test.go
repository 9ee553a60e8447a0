package client_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-db/strata/internal/pd/server/pdtest"
)

// BenchmarkGetTS runs concurrent GetTS callers against an in-process PD
// member (client and server in one process: see tests/pdnode for a real
// process), with the client's TSO requests on 1, 2 and 4 streams
// (tidb_tso_client_rpc_mode DEFAULT, PARALLEL, PARALLEL-FAST).
func BenchmarkGetTS(b *testing.B) {
	pd := pdtest.Start(b, 1, nil)
	c := newClient(b, pd.Addrs())
	ctx := context.Background()
	if _, err := c.GetTS(ctx); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ streams, callers int }{
		{1, 1}, {1, 16}, {1, 64}, {2, 16}, {2, 64}, {4, 16}, {4, 64},
	} {
		streams, callers := bc.streams, bc.callers
		b.Run(fmt.Sprintf("streams=%d/callers=%d", streams, callers), func(b *testing.B) {
			c.SetTSOStreams(streams)
			var left atomic.Int64
			left.Store(int64(b.N))
			var wg sync.WaitGroup
			for w := 0; w < callers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for left.Add(-1) >= 0 {
						if _, err := c.GetTS(ctx); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
		})
	}
}
