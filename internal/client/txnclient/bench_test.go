package txnclient

import (
	"context"
	"fmt"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// BenchmarkCommit measures one-key read-modify-write transactions over the
// in-process store, per commit protocol (parallel keys, so no conflicts).
func BenchmarkCommit(b *testing.B) {
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			cl := newCluster(b)
			c := cl.client(m.opts)
			ctx := context.Background()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					tx, err := c.Begin(ctx)
					if err != nil {
						b.Error(err)
						return
					}
					k := kv.Key(fmt.Sprintf("k%p-%d", pb, i%1000))
					if _, err := tx.Get(ctx, k); err != nil && err != kv.ErrNotExist {
						b.Error(err)
						return
					}
					_ = tx.Set(k, []byte("value"))
					if err := tx.Commit(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			_ = c.Close()
		})
	}
}

// BenchmarkGet measures snapshot point reads.
func BenchmarkGet(b *testing.B) {
	cl := newCluster(b)
	c := cl.client(Options{})
	put(b, c, "k", "v")
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tx, _ := c.Begin(ctx)
			if _, err := tx.Get(ctx, kv.Key("k")); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
