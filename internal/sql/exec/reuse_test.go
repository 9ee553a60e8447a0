package exec

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// TestReopen: one executor tree of a parameterized plan, re-opened for
// executions with other parameters and transactions (as the session's
// plan cache does), gives each execution's own result.
func TestReopen(t *testing.T) {
	cat, begin := newTestCatalogBegin(t)
	ddl(t, cat, "CREATE TABLE r (id INT PRIMARY KEY, k INT, c VARCHAR(10), KEY kk (k))")
	ctx := context.Background()
	tc := &testCtx{DB: "test"}
	ectx := &Context{Eval: tc, Alloc: cat.Allocator(), Strict: true, Now: time.Unix(0, 0), ChunkSize: 2}
	build := func(sql string, params ...types.Datum) Executor {
		stmt, err := parser.New().ParseOneStmt(sql, "", "")
		if err != nil {
			t.Fatal(err)
		}
		expr.ParamMarkers(stmt)
		tc.IS, tc.Params = cat.InfoSchema(), params
		p, err := planner.Build(tc, stmt)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Build(ectx, p)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	run := func(e Executor, params ...types.Datum) string {
		t.Helper()
		txn, err := begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tc.Params = params
		ectx.Txn, ectx.AffectedRows = txn, 0
		if err := e.Open(ctx); err != nil {
			t.Fatal(err)
		}
		fts := e.FieldTypes()
		rows, err := drainRows(ctx, e, 2)
		_ = e.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := txn.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if e.FieldTypes() == nil || len(fts) == 0 {
			return "affected " + types.NewIntDatum(int64(ectx.AffectedRows)).String()
		}
		return strings.Join(rows, ",")
	}
	i := types.NewIntDatum
	s := types.NewStringDatum
	ins := build("INSERT INTO r VALUES (?, ?, ?)", i(0), i(0), s(""))
	for n := int64(1); n <= 6; n++ {
		if got := run(ins, i(n), i(n%3), s(strings.Repeat("x", int(n)))); got != "affected 1" {
			t.Fatalf("insert %d: %s", n, got)
		}
	}
	rng := build("SELECT id, c FROM r WHERE id BETWEEN ? AND ?", i(0), i(0))
	idx := build("SELECT id FROM r WHERE k = ? ORDER BY id DESC", i(0))
	for _, c := range []struct {
		e      Executor
		params []types.Datum
		want   string
	}{
		{rng, []types.Datum{i(2), i(4)}, "2 xx,3 xxx,4 xxxx"},
		{rng, []types.Datum{i(5), i(9)}, "5 xxxxx,6 xxxxxx"},
		{rng, []types.Datum{i(4), i(1)}, ""},
		{idx, []types.Datum{i(1)}, "4,1"},
		{idx, []types.Datum{i(0)}, "6,3"},
		{idx, []types.Datum{s("2")}, "5,2"},
	} {
		if got := run(c.e, c.params...); got != c.want {
			t.Errorf("%v: got %q, want %q", c.params, got, c.want)
		}
	}
}
