package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/planner"
)

// TestRandomAccessPaths compares the rows random WHERE clauses select —
// through whatever access path the planner picks (point gets, handle
// ranges, index ranges and lookups, index-only reads, widened ranges) —
// with a brute-force evaluation over an in-memory copy of the table.
func TestRandomAccessPaths(t *testing.T) {
	cat, begin := newTestCatalogBegin(t)
	ddl(t, cat, "CREATE TABLE m (id INT PRIMARY KEY, k INT, u INT, UNIQUE KEY uu (u), KEY kk (k))")
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(1, seed))
	type row struct {
		id      int
		k, u    *int
		deleted bool
	}
	model := map[int]*row{}
	ip := func(v int) *int { return &v }
	var vals []string
	for id := 1; id <= 60; id++ {
		r := &row{id: id, k: ip(rng.IntN(10))}
		if rng.IntN(5) == 0 {
			r.k = nil
		}
		if rng.IntN(2) == 0 {
			r.u = ip(id * 3)
		}
		model[id] = r
		vals = append(vals, fmt.Sprintf("(%d, %s, %s)", id, sqlInt(r.k), sqlInt(r.u)))
	}
	exec1(t, cat, begin, "INSERT INTO m VALUES "+strings.Join(vals, ","))

	// atoms are conditions with their model predicate.
	type atom struct {
		sql  string
		pred func(r *row) bool
	}
	num := func() (string, float64) {
		switch rng.IntN(4) {
		case 0:
			v := float64(rng.IntN(70)) + 0.5
			return fmt.Sprintf("%.1f", v), v
		case 1:
			v := rng.IntN(70) - 2
			return fmt.Sprintf("'%d'", v), float64(v)
		}
		v := rng.IntN(70) - 2
		return fmt.Sprint(v), float64(v)
	}
	col := func() (string, func(r *row) *int) {
		switch rng.IntN(3) {
		case 0:
			return "id", func(r *row) *int { return &r.id }
		case 1:
			return "k", func(r *row) *int { return r.k }
		}
		return "u", func(r *row) *int { return r.u }
	}
	cmp := func(v *int, op string, x float64) bool {
		if v == nil {
			return false
		}
		f := float64(*v)
		switch op {
		case "=":
			return f == x
		case "<":
			return f < x
		case "<=":
			return f <= x
		case ">":
			return f > x
		}
		return f >= x
	}
	var mkAtom func(depth int) atom
	mkAtom = func(depth int) atom {
		name, get := col()
		switch rng.IntN(6) {
		case 0:
			a, x := num()
			b, y := num()
			return atom{fmt.Sprintf("%s BETWEEN %s AND %s", name, a, b), func(r *row) bool { return cmp(get(r), ">=", x) && cmp(get(r), "<=", y) }}
		case 1:
			var list []string
			var xs []float64
			for range rng.IntN(4) + 1 {
				a, x := num()
				list, xs = append(list, a), append(xs, x)
			}
			return atom{fmt.Sprintf("%s IN (%s)", name, strings.Join(list, ", ")), func(r *row) bool {
				return slices.ContainsFunc(xs, func(x float64) bool { return cmp(get(r), "=", x) })
			}}
		case 2:
			return atom{name + " IS NULL", func(r *row) bool { return get(r) == nil }}
		case 3:
			if depth == 0 {
				a, b := mkAtom(1), mkAtom(1)
				return atom{"(" + a.sql + " OR " + b.sql + ")", func(r *row) bool { return a.pred(r) || b.pred(r) }}
			}
		}
		op := []string{"=", "<", "<=", ">", ">="}[rng.IntN(5)]
		a, x := num()
		return atom{fmt.Sprintf("%s %s %s", name, op, a), func(r *row) bool { return cmp(get(r), op, x) }}
	}
	for i := 0; i < 300; i++ {
		var conds []atom
		for range rng.IntN(3) + 1 {
			conds = append(conds, mkAtom(0))
		}
		var parts []string
		for _, c := range conds {
			parts = append(parts, c.sql)
		}
		proj := []string{"id", "id, k", "id, k, u", "count(*)"}[rng.IntN(4)]
		sql := "SELECT " + proj + " FROM m WHERE " + strings.Join(parts, " AND ")
		var want []string
		for id := 1; id <= 60; id++ {
			r := model[id]
			ok := !r.deleted
			for _, c := range conds {
				ok = ok && c.pred(r)
			}
			if ok {
				switch proj {
				case "id":
					want = append(want, fmt.Sprint(id))
				case "id, k":
					want = append(want, fmt.Sprintf("%d %s", id, sqlInt(r.k)))
				case "id, k, u", "count(*)":
					want = append(want, fmt.Sprintf("%d %s %s", id, sqlInt(r.k), sqlInt(r.u)))
				}
			}
		}
		if proj == "count(*)" {
			want = []string{fmt.Sprint(len(want))}
		} else {
			sql += " ORDER BY id"
		}
		got := query(t, cat, begin, sql)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d: %s\n got: %q\nwant: %q\nplan:\n%s", seed, sql, got, want, explain(t, cat, sql))
		}
		// Now and then change k of the rows some conditions select (index
		// maintenance through every access path), or delete a row.
		if i%10 == 9 {
			a := mkAtom(0)
			v := rng.IntN(12)
			exec1(t, cat, begin, fmt.Sprintf("UPDATE m SET k = %d WHERE %s", v, a.sql))
			for _, r := range model {
				if !r.deleted && a.pred(r) {
					r.k = ip(v)
				}
			}
		}
		if i%30 == 29 {
			id := rng.IntN(60) + 1
			exec1(t, cat, begin, fmt.Sprintf("DELETE FROM m WHERE id = %d", id))
			model[id].deleted = true
		}
	}
}

func sqlInt(p *int) string {
	if p == nil {
		return "NULL"
	}
	return fmt.Sprint(*p)
}

func planOf(t *testing.T, cat *catalog.Catalog, sql string, tc *testCtx) planner.Plan {
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(tc, stmt)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return p
}

func explain(t *testing.T, cat *catalog.Catalog, sql string) string {
	var sb strings.Builder
	for _, r := range planner.ExplainRows(planOf(t, cat, sql, &testCtx{IS: cat.InfoSchema(), DB: "test"})) {
		sb.WriteString(strings.Join(r, " | ") + "\n")
	}
	return sb.String()
}

// query runs a SELECT in its own transaction and returns its rows.
func query(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), sql string) []string {
	t.Helper()
	ctx := context.Background()
	tc := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	p := planOf(t, cat, sql, tc)
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Rollback()
	e, err := Build(&Context{Eval: tc, Txn: txn, Strict: true, ChunkSize: 3}, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Open(ctx); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer e.Close()
	out, err := drainRows(ctx, e, 3)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return out
}

// exec1 runs one DML statement and fails the test on an error.
func exec1(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), sql string) {
	t.Helper()
	if out := runLine(t, cat, begin, sql, true); strings.HasPrefix(out, "error") {
		t.Fatalf("%s: %s", sql, out)
	}
}
