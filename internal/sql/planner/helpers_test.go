package planner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/testutil/localkv"
	"github.com/strata-db/strata/internal/types"
)

// newTestCatalog returns a catalog over an in-process storage node on
// in-memory Pebble, with database "test".
func newTestCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	cat := catalog.New(localkv.Start(t, txnclient.Options{}).Begin, catalog.Options{})
	ddl(t, cat, "CREATE DATABASE test")
	return cat
}

// ddl runs DDL statements, one per line.
func ddl(t testing.TB, cat *catalog.Catalog, lines string) {
	t.Helper()
	for _, line := range strings.Split(lines, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		stmt, err := parser.New().ParseOneStmt(line, "", "")
		if err == nil {
			err = cat.Exec(context.Background(), catalog.Env{CurrentDB: "test"}, stmt)
		}
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	if _, err := cat.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// testCtx is a planner.Context for tests.
type testCtx struct {
	is     *catalog.InfoSchema
	db     string
	params []types.Datum
}

func (c *testCtx) InfoSchema() *catalog.InfoSchema        { return c.is }
func (c *testCtx) SQLMode() uint64                        { return 1<<21 | 1<<4 }
func (c *testCtx) Location() *time.Location               { return time.UTC }
func (c *testCtx) Now() time.Time                         { return time.Unix(0, 0) }
func (c *testCtx) GetSysVar(string, bool) (string, error) { return "", nil }
func (c *testCtx) GetUserVar(string) (types.Datum, bool)  { return types.Datum{}, false }
func (c *testCtx) CurrentDB() string                      { return c.db }
func (c *testCtx) User() string                           { return "root@%" }
func (c *testCtx) ConnectionID() uint64                   { return 1 }
func (c *testCtx) CurrentUser() string                    { return "root@%" }
func (c *testCtx) LastInsertID() uint64                   { return 0 }
func (c *testCtx) AppendWarning(error)                    {}
func (c *testCtx) Param(i int) types.Datum {
	if i < len(c.params) {
		return c.params[i]
	}
	return types.Datum{}
}

var _ expr.EvalContext = (*testCtx)(nil)

// errText renders an error as its MySQL number and message.
func errText(err error) string {
	if e := sqlerr.From(err); e != nil {
		return fmt.Sprintf("error %d: %s", e.Code, e.Message)
	}
	return "error: " + err.Error()
}
