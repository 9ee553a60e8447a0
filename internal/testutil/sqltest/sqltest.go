// Package sqltest holds what the SQL packages' unit tests share: a
// catalog over an in-process cluster, a DDL runner, an evaluation and
// planning context, and error rendering.
package sqltest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/testutil/localkv"
	"github.com/strata-db/strata/internal/types"
)

// NewCatalog returns a catalog over an in-process storage node on
// in-memory Pebble, with database "test", and the cluster's begin.
func NewCatalog(t testing.TB) (*catalog.Catalog, func(context.Context) (kv.Transaction, error)) {
	t.Helper()
	begin := localkv.Start(t, txnclient.Options{}).Begin
	cat := catalog.New(begin, catalog.Options{})
	DDL(t, cat, "CREATE DATABASE test")
	return cat, begin
}

// DDL runs DDL statements, one per line, in database "test".
func DDL(t testing.TB, cat *catalog.Catalog, lines string) {
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

// Ctx is a planner.Context and expr.EvalContext for tests: strict
// sql_mode, UTC, the epoch as "now", root.
type Ctx struct {
	IS     *catalog.InfoSchema
	DB     string
	Params []types.Datum
}

func (c *Ctx) InfoSchema() *catalog.InfoSchema        { return c.IS }
func (c *Ctx) SQLMode() uint64                        { return 1<<21 | 1<<4 }
func (c *Ctx) Location() *time.Location               { return time.UTC }
func (c *Ctx) Now() time.Time                         { return time.Unix(0, 0) }
func (c *Ctx) GetSysVar(string, bool) (string, error) { return "", nil }
func (c *Ctx) GetUserVar(string) (types.Datum, bool)  { return types.Datum{}, false }
func (c *Ctx) CurrentDB() string                      { return c.DB }
func (c *Ctx) User() string                           { return "root@%" }
func (c *Ctx) ConnectionID() uint64                   { return 1 }
func (c *Ctx) CurrentUser() string                    { return "root@%" }
func (c *Ctx) LastInsertID() uint64                   { return 0 }
func (c *Ctx) RowCount() int64                        { return -1 }
func (c *Ctx) FoundRows() int64                       { return 0 }
func (c *Ctx) AppendWarning(error)                    {}

// Param returns parameter i, or NULL.
func (c *Ctx) Param(i int) types.Datum {
	if i < len(c.Params) {
		return c.Params[i]
	}
	return types.Datum{}
}

var _ expr.EvalContext = (*Ctx)(nil)

// ErrText renders an error as its MySQL number and message.
func ErrText(err error) string {
	if e := sqlerr.From(err); e != nil {
		return fmt.Sprintf("error %d: %s", e.Code, e.Message)
	}
	return "error: " + err.Error()
}
