package raftstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
)

// BenchmarkWrite measures proposals through one region of a single store
// (the embedded server's shape) from 16 concurrent writers: raft log
// write with fsync, apply, answer.
func BenchmarkWrite(b *testing.B) {
	for _, replicas := range []int{1, 3} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			c := newTestCluster(b, replicas, fastConfig())
			l := c.leader(1)
			ctx, err := l.s.Route(context.Background(), regionContext(l.s, 1), false)
			if err != nil {
				b.Fatal(err)
			}
			var n atomic.Int64
			b.SetParallelism(16)
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
