package sysvar

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/testutil/localkv"
)

// newClusterBegin returns the Begin of a real transaction client over an
// in-process storage node on in-memory Pebble.
func newClusterBegin(t *testing.T) func(ctx context.Context) (kv.Transaction, error) {
	return localkv.Start(t, txnclient.Options{AsyncCommit: true, OnePC: true, GuaranteeLinearizability: true}).Begin
}

// TestGlobalStoreCluster runs two SQL servers' GlobalStores over the real
// transaction client: one's SET GLOBAL is seen by the other after Refresh,
// and concurrent SET GLOBALs on both all land.
func TestGlobalStoreCluster(t *testing.T) {
	ctx := context.Background()
	begin := newClusterBegin(t)
	a := NewGlobalStore(testRegistry(), begin)
	b := NewGlobalStore(testRegistry(), begin)
	for _, s := range []*GlobalStore{a, b} {
		if _, err := s.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := a.Set(ctx, "tidb_enable_async_commit", "0"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Set(ctx, "SQL_MODE", "traditional"); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Globals().Get("tidb_enable_async_commit"); got != "ON" {
		t.Fatalf("b saw the change before refreshing: %q", got)
	}
	if _, err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	v := NewVars(b)
	if v.AsyncCommit() || !v.SQLMode().Has(ModeTraditional|ModeStrictAllTables) {
		t.Fatalf("b after refresh: async=%v sql_mode=%s", v.AsyncCommit(), v.SQLMode())
	}
	all, err := b.LoadAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all["tidb_enable_async_commit"] != "OFF" {
		t.Fatalf("LoadAll = %v", all)
	}

	// Concurrent SET GLOBAL from both servers: each bumps the version key,
	// so they conflict and retry; every one must land.
	const n = 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		for j, s := range []*GlobalStore{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("tidb_hashagg_%s_concurrency", []string{"partial", "final"}[j])
				if i%2 == 1 {
					name = []string{"tidb_distsql_scan_concurrency", "tidb_executor_concurrency"}[j]
				}
				if _, err := s.Set(ctx, name, fmt.Sprint(i+1)); err != nil {
					errs <- fmt.Errorf("%s=%d: %w", name, i+1, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tx, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	ver, err := readVersion(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	if ver != 2+2*n {
		t.Fatalf("version = %d, want %d (one bump per SET GLOBAL)", ver, 2+2*n)
	}
	for _, s := range []*GlobalStore{a, b} {
		if _, err := s.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if a.Globals().values["tidb_executor_concurrency"] != b.Globals().values["tidb_executor_concurrency"] {
		t.Fatal("servers disagree after refresh")
	}
}
