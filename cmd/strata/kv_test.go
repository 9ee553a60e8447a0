package main

import (
	"context"
	"io"
	"log/slog"
	"regexp"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/tests/testproc"
)

func regionCtx() *kvrpcpb.Context {
	r := server.Region()
	return &kvrpcpb.Context{RegionId: r.Id, RegionEpoch: r.RegionEpoch, Peer: r.Peers[0]}
}

// startKV runs serveKV in-process until the returned stop is called.
func startKV(t *testing.T, dir string) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	go func() {
		done <- serveKV(ctx, kvConfig{dataDir: dir, addr: "127.0.0.1:0", stopTimeout: 10 * time.Second}, log,
			func(a string) { ready <- a })
	}()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serveKV: %v", err)
	}
	return addr, func() {
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serveKV: %v", err)
		}
	}
}

func TestKVServesTransactionsDurably(t *testing.T) {
	dir := t.TempDir()
	addr, stop := startKV(t, dir)
	c := rpc.NewGRPC(rpc.GRPCOptions{})
	defer c.Close()
	s, err := c.Store(addr)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	key := []byte("hello")
	pw, err := s.KvPrewrite(ctx, &kvrpcpb.PrewriteRequest{
		Context: regionCtx(), PrimaryLock: key, StartVersion: 10, LockTtl: 3000,
		Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: key, Value: []byte("world")}},
	})
	if err != nil || pw.RegionError != nil || len(pw.Errors) > 0 {
		t.Fatalf("prewrite: %v %v", pw, err)
	}
	cm, err := s.KvCommit(ctx, &kvrpcpb.CommitRequest{Context: regionCtx(), StartVersion: 10, CommitVersion: 11, Keys: [][]byte{key}})
	if err != nil || cm.RegionError != nil || cm.Error != nil {
		t.Fatalf("commit: %v %v", cm, err)
	}
	// A request for another region is turned away by the node.
	g, err := s.KvGet(ctx, &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 2}, Key: key, Version: 20})
	if err != nil || g.GetRegionError().GetRegionNotFound() == nil {
		t.Fatalf("get in region 2: %v %v", g, err)
	}
	stop()

	// Restart on the same data: the committed value is there.
	addr, stop = startKV(t, dir)
	defer stop()
	s, err = c.Store(addr)
	if err != nil {
		t.Fatal(err)
	}
	g, err = s.KvGet(ctx, &kvrpcpb.GetRequest{Context: regionCtx(), Key: key, Version: 20})
	if err != nil || g.RegionError != nil || g.Error != nil || string(g.Value) != "world" {
		t.Fatalf("get after restart: %v %v", g, err)
	}
}

// TestKVProcessStopsOnSIGTERM runs the real binary: it prints its ready
// line, and exits 0 on SIGTERM.
func TestKVProcessStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	p := testproc.Start(t, "kv", "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0")
	m := p.WaitLine(regexp.MustCompile(`strata kv serving on (127\.0\.0\.1:\d+)`), time.Minute)
	c := rpc.NewGRPC(rpc.GRPCOptions{})
	defer c.Close()
	s, _ := c.Store(m[1])
	g, err := s.KvGet(context.Background(), &kvrpcpb.GetRequest{Context: regionCtx(), Key: []byte("k"), Version: 5})
	if err != nil || g.RegionError != nil || !g.NotFound {
		t.Fatalf("get: %v %v", g, err)
	}
	if err := p.Stop(30 * time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}
