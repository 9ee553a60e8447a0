package kvnode

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TestBadInput sends malformed requests straight to a real node: each gets
// an error with identity, nothing is written, and the node goes on serving.
func TestBadInput(t *testing.T) {
	node := startKV(t)
	r := newRig(t, node.addr)
	s := r.store(t)
	ctx := context.Background()
	ts, _ := r.oracle.GetTimestamp(ctx)
	huge := make([]byte, kv.MaxKeySize+1)

	check := func(name string, kerr *kvrpcpb.KeyError, want error) {
		t.Helper()
		if err := kerr.Err(); !errors.Is(err, want) {
			t.Errorf("%s: got %v, want %v", name, err, want)
		}
	}

	get, err := s.KvGet(ctx, &kvrpcpb.GetRequest{Context: regionCtx(), Key: nil, Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	check("get of an empty key", get.Error, kv.ErrInvalidKey)

	get, err = s.KvGet(ctx, &kvrpcpb.GetRequest{Context: regionCtx(), Key: huge, Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	check("get of an oversized key", get.Error, kv.ErrInvalidKey)

	scan, err := s.KvScan(ctx, &kvrpcpb.ScanRequest{Context: regionCtx(), StartKey: []byte("b"), EndKey: []byte("a"), Limit: 10, Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	check("scan with start > end", scan.Error, kv.ErrInvalidRange)

	pw, err := s.KvPrewrite(ctx, &kvrpcpb.PrewriteRequest{Context: regionCtx(), PrimaryLock: []byte("p"), StartVersion: ts, LockTtl: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if len(pw.Errors) != 1 {
		t.Fatalf("prewrite without mutations: %d errors, want 1", len(pw.Errors))
	}
	check("prewrite without mutations", pw.Errors[0], kv.ErrInvalidArgument)

	// A prewrite whose second mutation is bad must not write the first.
	pw, err = s.KvPrewrite(ctx, &kvrpcpb.PrewriteRequest{Context: regionCtx(), PrimaryLock: []byte("good"), StartVersion: ts, LockTtl: 3000,
		Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("good"), Value: []byte("v")}, {Op: kvrpcpb.Op_Put, Key: nil, Value: []byte("v")}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pw.Errors) == 0 {
		t.Fatal("prewrite with an empty key succeeded")
	}
	check("prewrite with an empty key", pw.Errors[0], kv.ErrInvalidKey)

	commitTS, _ := r.oracle.GetTimestamp(ctx)
	cm, err := s.KvCommit(ctx, &kvrpcpb.CommitRequest{Context: regionCtx(), StartVersion: ts, CommitVersion: commitTS, Keys: [][]byte{[]byte("never-prewritten")}})
	if err != nil {
		t.Fatal(err)
	}
	check("commit of an unknown transaction", cm.Error, kv.ErrTxnLockNotFound)

	cm, err = s.KvCommit(ctx, &kvrpcpb.CommitRequest{Context: regionCtx(), StartVersion: commitTS, CommitVersion: ts, Keys: [][]byte{[]byte("k")}})
	if err != nil {
		t.Fatal(err)
	}
	check("commit below start", cm.Error, kv.ErrInvalidTxnTso)

	// Requests without a context or for another region are turned away
	// with a region error, not a crash.
	noCtx, err := s.KvGet(ctx, &kvrpcpb.GetRequest{Key: []byte("k"), Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	if noCtx.RegionError == nil {
		t.Error("get without context: no region error")
	}
	other, err := s.KvGet(ctx, &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 42}, Key: []byte("k"), Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	if other.RegionError.GetRegionNotFound() == nil {
		t.Errorf("get for region 42: %v, want RegionNotFound", other.RegionError)
	}

	// Garbage on the gRPC port: the connection is dropped, the node lives.
	conn, err := net.DialTimeout("tcp", node.addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte(strings.Repeat("\x00\xffnot http2 at all\r\n", 1000)))
	conn.Close()

	// Nothing was written, and the node still serves.
	if locks := remainingLocks(t, s); len(locks) != 0 {
		t.Errorf("bad requests left %d locks: %v", len(locks), locks)
	}
	c := r.client(txnclient.Options{})
	txn, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Get(ctx, kv.Key("good")); !errors.Is(err, kv.ErrNotExist) {
		t.Errorf("key of the rejected prewrite: %v, want not exist", err)
	}
	_ = txn.Set(kv.Key("after"), []byte("ok"))
	if err := txn.Commit(ctx); err != nil {
		t.Fatalf("node does not serve after bad input: %v", err)
	}
	if exited, err := node.proc.Exited(); exited {
		t.Fatalf("node exited: %v", err)
	}
}

// TestCleanShutdown stops the node with SIGTERM: it exits 0, and a restart
// on the same data dir serves what was committed.
func TestCleanShutdown(t *testing.T) {
	node := startKV(t)
	r := newRig(t, node.addr)
	ctx := context.Background()
	c := r.client(txnclient.Options{OnePC: true})
	txn, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_ = txn.Set(kv.Key("durable"), []byte("yes"))
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := node.proc.Stop(30 * time.Second); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	node.start()
	txn, err = c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err := txn.Get(ctx, kv.Key("durable"))
	if err != nil || string(v) != "yes" {
		t.Fatalf("after restart: %q, %v", v, err)
	}
}
