package session

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/testutil/localkv"
)

// heldOracle is an AsyncOracle whose requests take their timestamp when
// made (as PD serves them in order) and, while hold is set, complete
// only once gate is closed; waiting gets a value each time a caller
// starts waiting for a held one.
type heldOracle struct {
	txnclient.Oracle
	hold    atomic.Bool
	gate    chan struct{}
	waiting chan struct{}
	asked   atomic.Int32 // held requests made
}

func (o *heldOracle) GetTimestampAsync(ctx, _ context.Context) txnclient.TSFuture {
	ts, err := o.GetTimestamp(ctx)
	if !o.hold.Load() {
		return doneFuture{ts, err}
	}
	o.asked.Add(1)
	return heldFuture{waiting: o.waiting, gate: o.gate, ts: ts, err: err}
}

type doneFuture struct {
	ts  uint64
	err error
}

func (f doneFuture) WaitContext(context.Context) (uint64, error) { return f.ts, f.err }

type heldFuture struct {
	waiting, gate chan struct{}
	ts            uint64
	err           error
}

func (f heldFuture) WaitContext(ctx context.Context) (uint64, error) {
	select {
	case f.waiting <- struct{}{}:
	default:
	}
	select {
	case <-f.gate:
		return f.ts, f.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// TestAutocommitStatementTSFuture: an autocommit INSERT asks PD for its
// start timestamp when it begins and waits for it only where it needs it
// (its prewrite), as TiDB's statement TSO future: the statement has run
// up to its commit while the timestamp is on its way, and commits once it
// arrives. The timestamp is the one asked at the start, so a row
// committed by another statement before it arrived, but after it was
// asked, is a write conflict: the autocommit statement is retried once,
// at a newer timestamp, and meets the duplicate key (a timestamp taken
// when the wait began would meet the key with no retry).
func TestAutocommitStatementTSFuture(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv := localkv.Start(t, txnclient.Options{})
	o := &heldOracle{Oracle: kv.Oracle, gate: make(chan struct{}), waiting: make(chan struct{}, 1)}
	client := txnclient.New(rpc.NewDirect(localkv.Addr, kv.Node), locate.StaticRegions(kv.Node.Region(), localkv.Addr), o, txnclient.Options{})
	t.Cleanup(func() { _ = client.Close() })
	d, err := NewDomain(ctx, DomainConfig{Client: client})
	if err != nil {
		t.Fatal(err)
	}
	open := func(id uint32) func(string) error {
		sess, err := d.Open(ctx, server.ConnInfo{ID: id, User: "root", Host: "localhost"})
		if err != nil {
			t.Fatal(err)
		}
		s := sess.(*Session)
		return func(sql string) error {
			return s.ExecuteText(ctx, sql, func(server.Result) error { return nil })
		}
	}
	exec1, exec2 := open(1), open(2)
	for _, sql := range []string{"CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, k INT, KEY kk (k))"} {
		if err := exec1(sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if err := exec2("USE d"); err != nil {
		t.Fatal(err)
	}

	o.hold.Store(true)
	done := make(chan error, 1)
	go func() { done <- exec1("INSERT INTO t VALUES (1, 10)") }()
	select {
	case <-o.waiting: // the INSERT reached its prewrite without its timestamp
	case err := <-done:
		t.Fatalf("the INSERT ended before its timestamp arrived: %v", err)
	}
	if n := o.asked.Load(); n != 1 {
		t.Fatalf("%d held timestamp requests, want 1 (the INSERT's)", n)
	}
	// Another statement commits the same key meanwhile, with a timestamp
	// of its own (not held): after the INSERT's.
	o.hold.Store(false)
	if err := exec2("INSERT INTO t VALUES (1, 20)"); err != nil {
		t.Fatal(err)
	}
	retries := testutil.ToFloat64(d.metrics.retries)
	close(o.gate)
	err = <-done
	if !errors.Is(err, dupEntry) {
		t.Fatalf("the INSERT whose timestamp was asked before a conflicting commit returned %v, want a duplicate entry error", err)
	}
	if n := testutil.ToFloat64(d.metrics.retries) - retries; n != 1 {
		t.Fatalf("the INSERT was retried %v times, want 1 (its first timestamp predates the conflicting commit)", n)
	}
	// And without a conflict the held INSERT commits.
	o.gate = make(chan struct{})
	o.asked.Store(0)
	o.hold.Store(true)
	go func() { done <- exec1("INSERT INTO t VALUES (2, 30)") }()
	<-o.waiting
	close(o.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	o.hold.Store(false)
	if err := exec2("INSERT INTO t VALUES (2, 40)"); !errors.Is(err, dupEntry) {
		t.Fatalf("a second INSERT of id 2 returned %v, want a duplicate entry error", err)
	}
}

// dupEntry matches MySQL's 1062 through errors.Is (sqlerr.Error.Is).
var dupEntry = sqlerr.New(sqlerr.ErrDupEntry)
