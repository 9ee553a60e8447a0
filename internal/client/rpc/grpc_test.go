package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/server"
)

// echoStore answers KvGet with "v:"+key. Keys starting with "block" wait
// on release (and announce themselves on entered) first.
type echoStore struct {
	rpc.StoreAPI
	entered chan string
	release chan struct{}
}

func newEcho() *echoStore {
	return &echoStore{entered: make(chan string, 1024), release: make(chan struct{})}
}

func (s *echoStore) KvGet(ctx context.Context, r *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	if len(r.Key) >= 5 && string(r.Key[:5]) == "block" {
		s.entered <- string(r.Key)
		select {
		case <-s.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &kvrpcpb.GetResponse{Value: append([]byte("v:"), r.Key...)}, nil
}

func (s *echoStore) KvCommit(_ context.Context, r *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	return &kvrpcpb.CommitResponse{CommitVersion: r.CommitVersion}, nil
}

func regionCtx() *kvrpcpb.Context {
	return &kvrpcpb.Context{RegionId: 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}}
}

// running is a Node served on a listener.
type running struct {
	node *server.Node
	done chan error
}

func start(t testing.TB, api rpc.StoreAPI, addr string) *running {
	t.Helper()
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := &running{node: server.NewNode(api, lis.Addr().String()), done: make(chan error, 1)}
	go func() { r.done <- r.node.Serve(lis) }()
	t.Cleanup(r.stop)
	return r
}

func (r *running) stop() {
	r.node.Stop()
	<-r.done
	r.done <- nil // later stops return at once
}

func get(ctx context.Context, s rpc.StoreAPI, key string) (string, error) {
	resp, err := s.KvGet(ctx, &kvrpcpb.GetRequest{Context: regionCtx(), Key: []byte(key)})
	if err != nil {
		return "", err
	}
	if re := resp.GetRegionError(); re != nil {
		return "", fmt.Errorf("region error: %v", re)
	}
	return string(resp.Value), nil
}

func TestConcurrentCallersGetTheirOwnResponses(t *testing.T) {
	srv := start(t, newEcho(), "127.0.0.1:0")
	for _, wait := range []time.Duration{0, 100 * time.Microsecond} {
		c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 2, MaxBatchWait: wait})
		s, err := c.Store(srv.node.StoreAddr())
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := 0; g < 32; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				for i := 0; i < 200; i++ {
					key := fmt.Sprintf("k%d-%d", g, i)
					v, err := get(context.Background(), s, key)
					if err != nil || v != "v:"+key {
						t.Errorf("get %s = %q, %v", key, v, err)
						return
					}
				}
			}(g)
		}
		wg.Wait()
		// Another request kind on the same streams.
		resp, err := s.KvCommit(context.Background(), &kvrpcpb.CommitRequest{Context: regionCtx(), CommitVersion: 42})
		if err != nil || resp.CommitVersion != 42 {
			t.Fatalf("commit: %v %v", resp, err)
		}
		c.Close()
	}
}

func TestServerKilledMidFlight(t *testing.T) {
	echo := newEcho()
	srv := start(t, echo, "127.0.0.1:0")
	addr := srv.node.StoreAddr()
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 2})
	defer c.Close()
	s, _ := c.Store(addr)

	const n = 8
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			_, err := get(context.Background(), s, fmt.Sprintf("block%d", i))
			errs <- err
		}(i)
	}
	for i := 0; i < n; i++ {
		<-echo.entered // every request is running on the server
	}
	srv.node.Stop() // connections close under the running requests
	for i := 0; i < n; i++ {
		if err := <-errs; !errors.Is(err, rpc.ErrStoreUnreachable) {
			t.Fatalf("pending call: got %v, want ErrStoreUnreachable", err)
		}
	}
	// While the store is down, calls fail the same way.
	if _, err := get(context.Background(), s, "x"); !errors.Is(err, rpc.ErrStoreUnreachable) {
		t.Fatalf("call while down: got %v", err)
	}
	close(echo.release)

	// Restart on the same port: later calls reconnect and succeed.
	start(t, newEcho(), addr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for attempt := 0; ; attempt++ {
		v, err := get(ctx, s, "after")
		if err == nil {
			if v != "v:after" {
				t.Fatalf("got %q", v)
			}
			t.Logf("reconnected after %d failed attempts", attempt)
			break
		}
		if !errors.Is(err, rpc.ErrStoreUnreachable) {
			t.Fatalf("after restart: %v", err)
		}
		// The connection may still be in its reconnect backoff (at most
		// MaxReconnectBackoff): wait for it rather than spin.
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			t.Fatalf("no reconnect: %v", err)
		}
	}
}

func TestCallerCancellation(t *testing.T) {
	echo := newEcho()
	srv := start(t, echo, "127.0.0.1:0")
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 1})
	defer c.Close()
	s, _ := c.Store(srv.node.StoreAddr())

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := get(ctx, s, "block-cancel")
		errc <- err
	}()
	<-echo.entered
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The stream is still good for others.
	if v, err := get(context.Background(), s, "next"); err != nil || v != "v:next" {
		t.Fatalf("next: %q %v", v, err)
	}
	close(echo.release)
}

func TestClientClose(t *testing.T) {
	echo := newEcho()
	srv := start(t, echo, "127.0.0.1:0")
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 1})
	s, _ := c.Store(srv.node.StoreAddr())
	errc := make(chan error, 1)
	go func() {
		_, err := get(context.Background(), s, "block-close")
		errc <- err
	}()
	<-echo.entered
	c.Close()
	if err := <-errc; !errors.Is(err, rpc.ErrClientClosed) {
		t.Fatalf("pending at close: %v", err)
	}
	if _, err := get(context.Background(), s, "y"); !errors.Is(err, rpc.ErrClientClosed) {
		t.Fatalf("after close: %v", err)
	}
	if _, err := c.Store("127.0.0.1:1"); !errors.Is(err, rpc.ErrClientClosed) {
		t.Fatalf("Store after close: %v", err)
	}
	close(echo.release)
}

func TestNilRequestDoesNotBreakTheStream(t *testing.T) {
	srv := start(t, newEcho(), "127.0.0.1:0")
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 1})
	defer c.Close()
	s, _ := c.Store(srv.node.StoreAddr())
	resp, err := s.KvGet(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.GetRegionError() == nil {
		t.Fatalf("nil request: want a region error, got %v", resp)
	}
	if v, err := get(context.Background(), s, "z"); err != nil || v != "v:z" {
		t.Fatalf("after nil request: %q %v", v, err)
	}
}

func TestGracefulStopAnswersRunningRequests(t *testing.T) {
	echo := newEcho()
	srv := start(t, echo, "127.0.0.1:0")
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 1})
	defer c.Close()
	s, _ := c.Store(srv.node.StoreAddr())
	type res struct {
		v   string
		err error
	}
	resc := make(chan res, 1)
	go func() {
		v, err := get(context.Background(), s, "block-graceful")
		resc <- res{v, err}
	}()
	<-echo.entered
	stopped := make(chan struct{})
	go func() {
		srv.node.GracefulStop()
		close(stopped)
	}()
	close(echo.release)
	r := <-resc
	if r.err != nil || r.v != "v:block-graceful" {
		t.Fatalf("request running at GracefulStop: %q, %v", r.v, r.err)
	}
	<-stopped
	// The store is gone now: a new call fails as unreachable.
	if _, err := get(context.Background(), s, "late"); !errors.Is(err, rpc.ErrStoreUnreachable) {
		t.Fatalf("after stop: %v", err)
	}
}

// TestBatchWaitStopsAtBatchWaitSize: a batch that already has
// BatchWaitSize requests goes out without waiting MaxBatchWait (an hour
// here: a call that waited would miss its 30 s deadline).
func TestBatchWaitStopsAtBatchWaitSize(t *testing.T) {
	srv := start(t, newEcho(), "127.0.0.1:0")
	c := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: 1, MaxBatchWait: time.Hour, BatchWaitSize: 1})
	defer c.Close()
	s, err := c.Store(srv.node.StoreAddr())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		key := fmt.Sprintf("k%d", i)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		v, err := get(ctx, s, key)
		cancel()
		if err != nil || v != "v:"+key {
			t.Fatalf("get %s = %q, %v", key, v, err)
		}
	}
}
