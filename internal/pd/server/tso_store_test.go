package server_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/pd/server"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
	"github.com/strata-db/strata/internal/pd/tso"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

func nopZap() *zap.Logger { return zap.NewNop() }

// TestEtcdWindowStore: the limit is saved only while the guard holds, and
// an allocator over the store starts above the saved limit.
func TestEtcdWindowStore(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	etcd := etcdClient(t, pd.Addrs()[0])
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	put, err := etcd.Put(ctx, "/test/owner", "me")
	if err != nil {
		t.Fatal(err)
	}
	guard := clientv3.Compare(clientv3.CreateRevision("/test/owner"), "=", put.Header.Revision)
	s := server.NewEtcdWindowStore(etcd, "/test/tso", guard)
	if v, err := s.Load(); err != nil || v != 0 {
		t.Fatalf("fresh Load = %d, %v", v, err)
	}
	now := time.UnixMilli(1_000_000)
	a, err := tso.New(func() time.Time { return now }, s, tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := a.GetTimestamp(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := s.Load(); err != nil || v != 1_003_000 {
		t.Fatalf("Load after serving = %d, %v; want 1003000", v, err)
	}
	// A new allocator with the clock far behind starts above the limit.
	b, err := tso.New(func() time.Time { return time.UnixMilli(5) }, server.NewEtcdWindowStore(etcd, "/test/tso", guard), tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := b.GetTimestamp(ctx)
	if err != nil || second <= first || tso.ExtractPhysical(second) < 1_003_000 {
		t.Fatalf("after a new allocator: %d (first %d), %v", second, first, err)
	}

	// The owner key is recreated by someone else: saves are refused.
	if _, err := etcd.Delete(ctx, "/test/owner"); err != nil {
		t.Fatal(err)
	}
	if _, err := etcd.Put(ctx, "/test/owner", "other"); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(2_000_000); !errors.Is(err, server.ErrNotLeader) {
		t.Fatalf("Save with a broken guard: %v, want ErrNotLeader", err)
	}
	if v, _ := s.Load(); v == 2_000_000 {
		t.Fatal("a refused save changed the limit")
	}
	c, err := tso.New(func() time.Time { return time.UnixMilli(9_000_000) }, s, tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTimestamp(ctx); !errors.Is(err, server.ErrNotLeader) {
		t.Fatalf("allocator over a deposed store served: %v", err)
	}
}
