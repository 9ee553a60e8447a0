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
// process).
func BenchmarkGetTS(b *testing.B) {
	pd := pdtest.Start(b, 1, nil)
	c := newClient(b, pd.Addrs())
	ctx := context.Background()
	if _, err := c.GetTS(ctx); err != nil {
		b.Fatal(err)
	}
	for _, callers := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
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
