package catalog

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// TestTwoServers: every DDL bumps the version by one; a second Catalog
// (another SQL server) sees the first's DDL after Refresh; concurrent DDL
// from both servers all lands (conflicts on the version key retry).
func TestTwoServers(t *testing.T) {
	ctx := context.Background()
	begin := newClusterBegin(t)
	a := New(begin, Options{})
	b := New(begin, Options{})
	for _, c := range []*Catalog{a, b} {
		if _, err := c.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
	}
	v0 := a.InfoSchema().Version()
	mustExec(t, a, "CREATE DATABASE test")
	mustExec(t, a, "CREATE TABLE t (id INT PRIMARY KEY)")
	if v := a.InfoSchema().Version(); v != v0+2 {
		t.Fatalf("version %d after two DDLs from %d", v, v0)
	}
	wantCode(t, execSQL(t, a, "CREATE TABLE t (id INT)"), mysql.ErrTableExists)
	if v := a.InfoSchema().Version(); v != v0+2 {
		t.Fatalf("failed DDL changed the version to %d", v)
	}
	if _, err := b.InfoSchema().Table("test", "t"); err == nil {
		t.Fatal("b saw the table before refreshing")
	}
	is, err := b.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if is.Version() != a.InfoSchema().Version() || !is.TableExists("TEST", "T") {
		t.Fatalf("b after refresh: version %d, table %v", is.Version(), is.TableExists("test", "t"))
	}
	// b's DDL is based on the stored schema even when b is stale.
	mustExec(t, a, "ALTER TABLE t ADD COLUMN x INT")
	mustExec(t, b, "ALTER TABLE t ADD COLUMN y INT")
	tb := mustTable(t, b, "t")
	if tb.Column("x") == nil || tb.Column("y") == nil {
		t.Fatalf("columns %v", tb.Columns)
	}

	const perServer = 6
	var wg sync.WaitGroup
	errs := make(chan error, 2*perServer)
	for s, c := range []*Catalog{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perServer; i++ {
				errs <- execSQL(t, c, fmt.Sprintf("CREATE TABLE c%d_%d (id INT)", s, i))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []*Catalog{a, b} {
		is, err := c.Refresh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tables, _ := is.Tables("test")
		if len(tables) != 1+2*perServer {
			t.Fatalf("%d tables", len(tables))
		}
		if is.Version() != v0+4+2*perServer {
			t.Fatalf("version %d, want %d", is.Version(), v0+4+2*perServer)
		}
	}
	// Lookups: 1049 and 1146.
	if _, err := a.InfoSchema().Table("nope", "t"); err == nil {
		t.Fatal("no error")
	} else {
		wantCode(t, err, mysql.ErrBadDB)
	}
	_, err = a.InfoSchema().Table("test", "nope")
	wantCode(t, err, mysql.ErrNoSuchTable)
	if id := mustTable(t, a, "t").ID; func() bool { tt, ok := a.InfoSchema().TableByID(id); return !ok || tt.Name != "t" }() {
		t.Fatal("TableByID")
	}
}

// TestAllocatorConcurrent: IDs from two servers' allocators, each used by
// several goroutines, never repeat; Rebase moves every later ID above the
// explicit value, on any server.
func TestAllocatorConcurrent(t *testing.T) {
	ctx := context.Background()
	begin := newClusterBegin(t)
	allocs := []*Allocator{NewAllocator(begin, 10), NewAllocator(begin, 10)}
	const tableID, workers, rounds = 42, 3, 40
	var mu sync.Mutex
	seen := map[int64]bool{}
	var wg sync.WaitGroup
	for _, a := range allocs {
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					n := 1 + i%4
					first, last, err := a.Alloc(ctx, tableID, n)
					if err != nil {
						t.Error(err)
						return
					}
					if last-first+1 != int64(n) {
						t.Errorf("alloc %d gave %d..%d", n, first, last)
					}
					mu.Lock()
					for id := first; id <= last; id++ {
						if seen[id] {
							t.Errorf("id %d handed out twice", id)
						}
						seen[id] = true
					}
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if err := allocs[0].Rebase(ctx, tableID, 100000); err != nil {
		t.Fatal(err)
	}
	if first, _, err := allocs[0].Alloc(ctx, tableID, 1); err != nil || first != 100001 {
		t.Fatalf("after rebase: %d %v", first, err)
	}
	fresh := NewAllocator(begin, 10)
	if first, _, err := fresh.Alloc(ctx, tableID, 1); err != nil || first <= 100001 {
		t.Fatalf("another server after rebase: %d %v", first, err)
	}
	// A rebase below what was handed out changes nothing.
	if err := allocs[0].Rebase(ctx, tableID, 5); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := allocs[0].Alloc(ctx, tableID, 1); first != 100002 {
		t.Fatalf("after low rebase: %d", first)
	}
}

// TestAutoIncrementTableOption: AUTO_INCREMENT=n starts the counter at n,
// and TRUNCATE restarts it.
func TestAutoIncrementTableOption(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE a (id BIGINT AUTO_INCREMENT PRIMARY KEY) AUTO_INCREMENT=100")
	tbl := mustTable(t, c, "a")
	if first, _, err := c.Allocator().Alloc(ctx, tbl.ID, 1); err != nil || first != 100 {
		t.Fatalf("first id %d %v", first, err)
	}
	if tbl.AutoIncrementColumn() == nil || tbl.AutoIncrementColumn().Name != "id" {
		t.Fatal("auto-increment column")
	}
	mustExec(t, c, "TRUNCATE TABLE a")
	tbl = mustTable(t, c, "a")
	if first, _, err := c.Allocator().Alloc(ctx, tbl.ID, 1); err != nil || first != 1 {
		t.Fatalf("first id after truncate %d %v", first, err)
	}
}

// TestCurrentTimestampDefault checks the clock is the one given.
func TestCurrentTimestampDefault(t *testing.T) {
	c, _ := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE ts (id INT, d TIMESTAMP(2) DEFAULT NOW(2))")
	d, ok := mustTable(t, c, "ts").Column("d").GetDefault(time.Date(2001, 2, 3, 4, 5, 6, 789e6, time.UTC))
	if !ok || d.String() != "2001-02-03 04:05:06.79" {
		t.Fatalf("default %v %v", d, ok)
	}
}

// TestRefreshFrom: a statement's snapshot gives the schema as of its
// start; an older snapshot never moves the catalog back.
func TestRefreshFrom(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	if err := c.EnsureDatabase(ctx, "test"); err != nil {
		t.Fatal(err)
	}
	old, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = old.Rollback() }()
	mustExec(t, c, "CREATE TABLE later (a INT)")
	other := New(begin, Options{})
	is, err := other.RefreshFrom(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if is.TableExists("test", "later") || !is.DatabaseExists("test") {
		t.Fatal("old snapshot shows the later table")
	}
	if _, err := other.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	is, err = other.RefreshFrom(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	if is.TableExists("test", "later") || !other.InfoSchema().TableExists("test", "later") {
		t.Fatal("an old snapshot moved the catalog back")
	}
	if !IsDDL(parseOne(t, "ALTER TABLE t ADD INDEX (a)")) || IsDDL(parseOne(t, "SELECT 1")) {
		t.Fatal("IsDDL")
	}
}
