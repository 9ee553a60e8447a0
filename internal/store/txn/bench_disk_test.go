package txn

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// newDiskStorage opens a synced on-disk engine, as `strata kv` does, with
// n keys committed by 1PC in batches.
func newDiskStorage(b *testing.B, n int) *Storage {
	p, err := engine.Open(b.TempDir(), mvcc.WithKeySplit(engine.Options{Sync: true}))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	s := NewStorage(p, Options{})
	for lo := 0; lo < n; lo += 1000 {
		req := &kvrpcpb.PrewriteRequest{StartVersion: uint64(10 + lo), LockTtl: 3000, TryOnePc: true}
		for i := lo; i < min(lo+1000, n); i++ {
			req.Mutations = append(req.Mutations, &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: benchKey(i), Value: make([]byte, 64)})
		}
		req.PrimaryLock = req.Mutations[0].Key
		if resp, err := s.KvPrewrite(bg, req); err != nil || len(resp.Errors) > 0 || resp.OnePcCommitTs == 0 {
			b.Fatalf("load: %v %v", err, resp)
		}
	}
	return s
}

func benchKey(i int) []byte { return []byte(fmt.Sprintf("bench/kv/%08d", i)) }

// BenchmarkKvGetDisk: point reads of present keys through Storage on a
// synced on-disk engine holding 10k keys (the `strata bench kv` data set).
func BenchmarkKvGetDisk(b *testing.B) {
	s := newDiskStorage(b, 10000)
	var n atomic.Uint64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: benchKey(int(i * 7919 % 10000)), Version: 1 << 40})
			if err != nil || resp.Error != nil || resp.NotFound {
				b.Fatalf("get: %v %v", err, resp)
			}
		}
	})
}

// BenchmarkKvPrewrite1PCDisk: 1-key 1PC commits through Storage on a synced
// on-disk engine; concurrent commits share fsyncs.
func BenchmarkKvPrewrite1PCDisk(b *testing.B) {
	s := newDiskStorage(b, 10000)
	var n atomic.Uint64
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			k := benchKey(int(i % 10000))
			resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{
				Mutations:   []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: k, Value: make([]byte, 64)}},
				PrimaryLock: k, StartVersion: 1<<40 + i, LockTtl: 3000, TryOnePc: true,
			})
			if err != nil || resp.OnePcCommitTs == 0 {
				// Concurrent writers of one key may conflict; that is fine.
				if err != nil {
					b.Fatalf("prewrite: %v", err)
				}
			}
		}
	})
}
