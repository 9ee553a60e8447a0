package rpc_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// parallel16 makes b.RunParallel use 16 goroutines.
func parallel16(b *testing.B) {
	p := 16 / runtime.GOMAXPROCS(0)
	if p < 1 {
		p = 1
	}
	b.SetParallelism(p)
}

// BenchmarkKvGet compares KvGet round-trips of 16 concurrent callers
// through the batched stream client and through plain unary gRPC, against
// the same node over loopback.
func BenchmarkKvGet(b *testing.B) {
	srv := start(b, newEcho(), "127.0.0.1:0")
	addr := srv.node.StoreAddr()
	req := &kvrpcpb.GetRequest{Context: regionCtx(), Key: []byte("bench-key")}

	for _, o := range []struct {
		name string
		opts rpc.GRPCOptions
	}{
		{"batched", rpc.GRPCOptions{}},
		{"batched-conns1", rpc.GRPCOptions{ConnCount: 1}},
		{"batched-roundrobin", rpc.GRPCOptions{ConnSpill: 1}},
		{"batched-wait50us", rpc.GRPCOptions{MaxBatchWait: 50 * time.Microsecond}},
	} {
		b.Run(o.name, func(b *testing.B) { benchBatched(b, addr, req, o.opts) })
	}

	b.Run("unary", func(b *testing.B) {
		cc, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			b.Fatal(err)
		}
		defer cc.Close()
		c := kvrpcpb.NewTikvClient(cc)
		parallel16(b)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := c.KvGet(context.Background(), req); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

func benchBatched(b *testing.B, addr string, req *kvrpcpb.GetRequest, opts rpc.GRPCOptions) {
	c := rpc.NewGRPC(opts)
	defer c.Close()
	s, _ := c.Store(addr)
	parallel16(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.KvGet(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
