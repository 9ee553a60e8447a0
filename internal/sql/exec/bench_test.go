package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// benchEnv is sbtest1 over an in-process cluster.
type benchEnv struct {
	cat   *catalog.Catalog
	begin func(context.Context) (kvTxn, error)
}

func newBenchEnv(b *testing.B) *benchEnv {
	return newSbtest(b, 1000, func(i int) int { return i % 100 }, "\nCREATE INDEX k_1 ON sbtest1(k)")
}

// newSbtest is sysbench's sbtest1 (then the statements of more) with n
// rows, row i's k being k(i), inserted 1000 a statement.
func newSbtest(b *testing.B, n int, k func(i int) int, more string) *benchEnv {
	cat, begin := newTestCatalogBegin(b)
	ddl(b, cat, "CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))"+more)
	env := &benchEnv{cat: cat, begin: begin}
	for done := 0; done < n; done += 1000 {
		var vals []string
		for i := done; i < done+1000 && i < n; i++ {
			vals = append(vals, fmt.Sprintf("(%d, '%s', '%s')", k(i), strings.Repeat("c", 119), strings.Repeat("p", 59)))
		}
		env.run(b, env.plan(b, "INSERT INTO sbtest1 (k, c, pad) VALUES "+strings.Join(vals, ","), nil), nil, true)
	}
	return env
}

func (env *benchEnv) plan(b *testing.B, sql string, params []types.Datum) planner.Plan {
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		b.Fatal(err)
	}
	expr.ParamMarkers(stmt)
	p, err := planner.Build(&testCtx{IS: env.cat.InfoSchema(), DB: "test", Params: params}, stmt)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// run executes p once with params in its own transaction.
func (env *benchEnv) run(b *testing.B, p planner.Plan, params []types.Datum, commit bool) int {
	ctx := context.Background()
	txn, err := env.begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ectx := &Context{Eval: &testCtx{DB: "test", Params: params}, Txn: txn, Alloc: env.cat.Allocator(), Strict: true, Now: time.Unix(0, 0)}
	e, err := Build(ectx, p)
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Open(ctx); err != nil {
		b.Fatal(err)
	}
	n := 0
	if err := Drain(ctx, e, 32, func(c *chunk.Chunk) error { n += c.NumRows(); return nil }); err != nil {
		b.Fatal(err)
	}
	_ = e.Close()
	if commit {
		if err := txn.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	} else {
		_ = txn.Rollback()
	}
	return n
}

func BenchmarkPointSelect(b *testing.B) {
	env := newBenchEnv(b)
	params := []types.Datum{types.NewIntDatum(1)}
	p := env.plan(b, "SELECT c FROM sbtest1 WHERE id=?", params)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		params[0] = types.NewIntDatum(int64(i%1000 + 1))
		if env.run(b, p, params, false) != 1 {
			b.Fatal("no row")
		}
	}
}

func BenchmarkRangeSelect100(b *testing.B) {
	env := newBenchEnv(b)
	params := []types.Datum{types.NewIntDatum(1), types.NewIntDatum(100)}
	p := env.plan(b, "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", params)
	b.ReportAllocs()
	for b.Loop() {
		if env.run(b, p, params, false) != 100 {
			b.Fatal("rows")
		}
	}
}

func BenchmarkIndexUpdate(b *testing.B) {
	env := newBenchEnv(b)
	params := []types.Datum{types.NewIntDatum(1)}
	p := env.plan(b, "UPDATE sbtest1 SET k=k+1 WHERE id=?", params)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		params[0] = types.NewIntDatum(int64(i%1000 + 1))
		env.run(b, p, params, true)
	}
}

// benchQuery runs sql over a 20k-row sbtest1 (k a permutation of the
// ids) and checks it returns want rows.
func benchQuery(b *testing.B, sql string, want int) {
	env := newSbtest(b, 20000, func(i int) int { return i * 7919 % 20000 }, "")
	p := env.plan(b, sql, nil)
	b.ReportAllocs()
	for b.Loop() {
		if got := env.run(b, p, nil, false); got != want {
			b.Fatalf("%d rows, want %d", got, want)
		}
	}
}

// BenchmarkFullScan reads one column of every row of a 20k-row table:
// the storage scan, the client's pages and the row decoding.
func BenchmarkFullScan(b *testing.B) { benchQuery(b, "SELECT k FROM sbtest1", 20000) }

// BenchmarkSortIntKeys sorts a 20k-row table by two integer keys (the
// window query's sort).
func BenchmarkSortIntKeys(b *testing.B) {
	benchQuery(b, "SELECT id FROM sbtest1 ORDER BY k % 10, id DESC", 20000)
}

// BenchmarkWindowAgg is issue 5's window query over 20k rows: a running
// SUM and ROW_NUMBER per partition, then grouped.
func BenchmarkWindowAgg(b *testing.B) {
	benchQuery(b, "SELECT g, MAX(rn), SUM(running) FROM (SELECT k % 10 AS g, ROW_NUMBER() OVER (PARTITION BY k % 10 ORDER BY id) AS rn, "+
		"SUM(k) OVER (PARTITION BY k % 10 ORDER BY id) AS running FROM sbtest1) AS t GROUP BY g", 10)
}

// BenchmarkFilterIntExpr filters 20k rows by integer expressions (10,000
// even ids, less the 50 whose k + 1 <= 100).
func BenchmarkFilterIntExpr(b *testing.B) {
	benchQuery(b, "SELECT id FROM sbtest1 WHERE id % 2 = 0 AND k + 1 > 100", 9950)
}
