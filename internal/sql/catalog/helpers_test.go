package catalog

import (
	"context"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/client/txnclient"
	_ "github.com/strata-db/strata/internal/sql/expr" // the parser's value driver
	"github.com/strata-db/strata/internal/testutil/localkv"
)

// newClusterBegin returns the Begin of a real transaction client over an
// in-process storage node on in-memory Pebble.
func newClusterBegin(t testing.TB) BeginFunc {
	return localkv.Start(t, txnclient.Options{AsyncCommit: true, OnePC: true, GuaranteeLinearizability: true}).Begin
}

// fixedNow is the test clock for CURRENT_TIMESTAMP origin defaults.
var fixedNow = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// newTestCatalog returns a Catalog with database "test" created, over its
// own cluster, with small batches so that backfills span transactions.
func newTestCatalog(t testing.TB) (*Catalog, BeginFunc) {
	t.Helper()
	begin := newClusterBegin(t)
	c := New(begin, Options{Now: func() time.Time { return fixedNow }, BatchSize: 7, AutoIDStep: 10})
	mustExec(t, c, "CREATE DATABASE test")
	return c, begin
}

func parseOne(t testing.TB, sql string) ast.StmtNode {
	t.Helper()
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	return stmt
}

func execSQL(t testing.TB, c *Catalog, sql string) error {
	t.Helper()
	return c.Exec(context.Background(), Env{CurrentDB: "test"}, parseOne(t, sql))
}

func mustExec(t testing.TB, c *Catalog, sql string) {
	t.Helper()
	if err := execSQL(t, c, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func mustTable(t testing.TB, c *Catalog, name string) *TableInfo {
	t.Helper()
	tbl, err := c.InfoSchema().Table("test", name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
