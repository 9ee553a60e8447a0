package session

import (
	"context"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/testutil/localkv"
)

// TestTSOClientRPCMode: @@GLOBAL.tidb_tso_client_rpc_mode reaches the PD
// client's TSOStreams hook at start, after a SET GLOBAL on this server and,
// through the sync loop, on another server of the cluster; a bad value is
// refused and changes nothing.
func TestTSOClientRPCMode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv := localkv.Start(t, txnclient.Options{})
	domain := func() (*Domain, chan int) {
		got := make(chan int, 16)
		d, err := NewDomain(ctx, DomainConfig{Client: kv.Client, TSOStreams: func(n int) { got <- n }})
		if err != nil {
			t.Fatal(err)
		}
		return d, got
	}
	expect := func(got chan int, want int) {
		t.Helper()
		select {
		case n := <-got:
			if n != want {
				t.Fatalf("TSOStreams(%d), want %d", n, want)
			}
		case <-ctx.Done():
			t.Fatalf("TSOStreams never called with %d", want)
		}
	}
	d1, got1 := domain()
	expect(got1, 2) // PARALLEL, the default
	d2, got2 := domain()
	expect(got2, 2)
	syncCtx, stopSync := context.WithCancel(ctx)
	defer stopSync()
	go d2.SyncLoop(syncCtx, 10*time.Millisecond)

	sess, err := d1.Open(ctx, server.ConnInfo{ID: 1, User: "root", Host: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	s := sess.(*Session)
	exec := func(sql string) error {
		return s.ExecuteText(ctx, sql, func(server.Result) error { return nil })
	}
	if err := exec("SET GLOBAL tidb_tso_client_rpc_mode = 'parallel-fast'"); err != nil {
		t.Fatal(err)
	}
	expect(got1, 4)
	expect(got2, 4)
	if err := exec("SET GLOBAL tidb_tso_client_rpc_mode = 'SERIAL'"); err == nil {
		t.Fatal("SET GLOBAL tidb_tso_client_rpc_mode = 'SERIAL' succeeded")
	}
	if err := exec("SET SESSION tidb_tso_client_rpc_mode = 'DEFAULT'"); err == nil {
		t.Fatal("SET SESSION of a GLOBAL-only variable succeeded")
	}
	if err := exec("SET GLOBAL tidb_tso_client_rpc_mode = 'PARALLEL'"); err != nil {
		t.Fatal(err)
	}
	expect(got1, 2)
	expect(got2, 2)
	if err := exec("SET GLOBAL tidb_tso_client_rpc_mode = 'DEFAULT'"); err != nil {
		t.Fatal(err)
	}
	expect(got1, 1)
	expect(got2, 1)
	select {
	case n := <-got1:
		t.Fatalf("TSOStreams(%d) called again without a change", n)
	default:
	}
}
