package raftstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkWrite measures proposals through one region (raft log write
// with fsync, replication, apply, answer) with 1 or 3 replicas in one
// process, from 1 or 16 writers (x GOMAXPROCS).
func BenchmarkWrite(b *testing.B) {
	for _, tc := range []struct{ replicas, writers int }{{1, 1}, {1, 16}, {3, 1}, {3, 16}} {
		replicas := tc.replicas
		b.Run(fmt.Sprintf("replicas=%d/writers=%d", replicas, tc.writers), func(b *testing.B) {
			c := newTestCluster(b, replicas, fastConfig())
			l := c.leader(1)
			ctx, err := l.s.Route(context.Background(), regionContext(l.s, 1), false)
			if err != nil {
				b.Fatal(err)
			}
			var n atomic.Int64
			b.SetParallelism(tc.writers)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := n.Add(1)
					if err := l.s.Write(ctx, writeBatch(key(int(i)), "value-of-some-length-0123456789")); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.StopTimer()
			st := l.s.Stats()
			b.ReportMetric(float64(st.RaftLogEntries)/float64(max(st.RaftLogWrites, 1)), "entries/write")
		})
	}
}
