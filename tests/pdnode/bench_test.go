package pdnode

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tsoRequests reads PD's count of TSO requests (batches) from /metrics.
func tsoRequests(tb testing.TB, url string) float64 {
	tb.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "strata_pd_tso_requests_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return n
		}
	}
	tb.Fatal("strata_pd_tso_requests_total not in /metrics")
	return 0
}

// BenchmarkTSO measures timestamps/s and TSO RPCs/s of one `strata pd`
// process with 1, 16 and 64 concurrent GetTS callers sharing one client
// (whose batching turns concurrent callers into one request).
func BenchmarkTSO(b *testing.B) {
	pd := startCluster(b, 1)
	c := newClient(b, pd.addrs())
	url := pd.members[0].clientURL
	ctx := context.Background()
	if _, err := c.GetTS(ctx); err != nil {
		b.Fatal(err)
	}
	for _, callers := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("callers=%d", callers), func(b *testing.B) {
			rpc0 := tsoRequests(b, url)
			var left atomic.Int64
			left.Store(int64(b.N))
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
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
			elapsed := time.Since(start).Seconds()
			b.StopTimer()
			rpcs := tsoRequests(b, url) - rpc0
			b.ReportMetric(float64(b.N)/elapsed, "ts/s")
			b.ReportMetric(rpcs/elapsed, "rpcs/s")
			if rpcs > 0 {
				b.ReportMetric(float64(b.N)/rpcs, "ts/rpc")
			}
		})
	}
}
