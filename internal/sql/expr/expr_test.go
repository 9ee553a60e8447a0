package expr

import (
	"errors"
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

func mustBuild(t testing.TB, ctx BuildContext, s string, schema Schema) Expression {
	t.Helper()
	node, err := parseExpr(parser.New(), s)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Build(ctx, node, schema)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The planner reads Name and Args to build ranges.
func TestPlannerInspection(t *testing.T) {
	schema, _ := testTable()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(1), types.NewIntDatum(5)}
	e := mustBuild(t, ctx, "t.id BETWEEN ? AND ?", schema)
	sf, ok := e.(*ScalarFunction)
	if !ok || sf.Name != FnBetween || len(sf.Args) != 3 {
		t.Fatalf("got %T %s", e, e)
	}
	col, ok := sf.Args[0].(*Column)
	if !ok || col.Index != 0 || col.Name != "id" {
		t.Fatalf("arg 0: %s", sf.Args[0])
	}
	for i, want := range []int{0, 1} {
		c, ok := sf.Args[i+1].(*Constant)
		if !ok || c.ParamIndex != want {
			t.Fatalf("arg %d: %#v", i+1, sf.Args[i+1])
		}
	}
	e = mustBuild(t, ctx, "1 < k", schema)
	sf = e.(*ScalarFunction)
	if sf.Name != FnLT || !IsComparison(sf.Name) || ReverseComparison(sf.Name) != FnGT {
		t.Fatalf("got %s", sf)
	}
	e = mustBuild(t, ctx, "k NOT IN (1, 2)", schema)
	if sf := e.(*ScalarFunction); sf.Name != FnNot || sf.Args[0].(*ScalarFunction).Name != FnIn {
		t.Fatalf("got %s", e)
	}
	if got := e.String(); got != "not(in(k, 1, 2))" {
		t.Fatalf("String() = %q", got)
	}
}

func TestFoldingAndExtract(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	e := mustBuild(t, ctx, "1 + 2 * 3", schema)
	c, ok := e.(*Constant)
	if !ok || c.Value.GetInt64() != 7 || c.Ft.Tp != mysql.TypeLonglong {
		t.Fatalf("not folded: %T %s", e, e)
	}
	// The clock and the session are not folded: a cached plan runs in a
	// later statement.
	for _, s := range []string{"NOW()", "CURTIME()", "SYSDATE()", "UTC_TIMESTAMP()", "UTC_DATE()",
		"UNIX_TIMESTAMP()", "RAND()", "DATABASE()", "@@autocommit"} {
		if _, ok := mustBuild(t, ctx, s, schema).(*ScalarFunction); !ok {
			t.Fatalf("%s folded", s)
		}
	}
	// A parameter is not folded.
	if _, ok := mustBuild(t, ctx, "? + 1", schema).(*ScalarFunction); !ok {
		t.Fatal("param folded")
	}
	// An error in folding is left to evaluation.
	e = mustBuild(t, ctx, "IF(k > 0, 1, 9223372036854775807 + 1)", schema)
	if d, err := e.Eval(ctx, chk.GetRow(0)); err != nil || d.GetInt64() != 1 {
		t.Fatalf("got %v %v", d, err)
	}
	e = mustBuild(t, ctx, "k + t.id * k - c", schema)
	cols := ExtractColumns(e)
	var names []string
	for _, c := range cols {
		names = append(names, c.Name)
	}
	if len(names) != 4 || names[0] != "k" || names[1] != "id" || names[3] != "c" {
		t.Fatalf("columns %v", names)
	}
}

func TestTransformRemapsColumns(t *testing.T) {
	schema, _ := testTable()
	ctx := newTestContext()
	e := mustBuild(t, ctx, "k + 1 > t.id", schema)
	// Rewrite every column, as a projection remapping would.
	out, err := Transform(e, func(x Expression) (Expression, error) {
		if c, ok := x.(*Column); ok {
			return &Column{Index: c.Index, Name: c.Name + "'", Ft: c.Ft}, nil
		}
		return x, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "gt(plus(k', 1), id')" {
		t.Fatalf("got %s", got)
	}
	if e.String() != "gt(plus(k, 1), id)" {
		t.Fatalf("original changed: %s", e)
	}
	_, chk := testTable()
	d, err := out.Eval(ctx, chk.GetRow(0))
	if err != nil || d.GetInt64() != 1 {
		t.Fatalf("got %v %v", d, err)
	}
}

// A parameter whose kind changed since the build is converted to the
// type the plan was built for.
func TestParamKindChange(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(42)}
	e := mustBuild(t, ctx, "k = ?", schema)
	ctx.Params = []types.Datum{types.NewStringDatum("42")}
	d, err := e.Eval(ctx, chk.GetRow(0))
	if err != nil || d.GetInt64() != 1 {
		t.Fatalf("got %v %v", d, err)
	}
	ctx.Params = nil // missing: NULL
	d, err = e.Eval(ctx, chk.GetRow(0))
	if err != nil || !d.IsNull() {
		t.Fatalf("got %v %v", d, err)
	}
}

type aggResolver struct {
	*Columns
	aggCol int
}

func (r *aggResolver) ResolveNode(n ast.ExprNode) (Expression, bool, error) {
	if _, ok := n.(*ast.AggregateFuncExpr); ok {
		return &Column{Index: r.aggCol, Name: "agg", Ft: types.NewFieldType(mysql.TypeLonglong)}, true, nil
	}
	return nil, false, nil
}

func TestNodeResolver(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	e := mustBuild(t, ctx, "SUM(k) + 1", &aggResolver{Columns: schema, aggCol: 0})
	d, err := e.Eval(ctx, chk.GetRow(0))
	if err != nil || d.GetInt64() != 8 {
		t.Fatalf("got %v %v", d, err)
	}
}

func TestErrorIdentity(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	node, _ := parseExpr(parser.New(), "nope")
	_, err := Build(ctx, node, schema)
	if !errors.Is(err, sqlerr.New(sqlerr.ErrBadField)) {
		t.Fatalf("got %v", err)
	}
	e := mustBuild(t, ctx, "t.id - 9223372036854775807 - 9", schema)
	_, err = e.Eval(ctx, chk.GetRow(0))
	if !errors.Is(err, sqlerr.New(sqlerr.ErrDataOutOfRange)) {
		t.Fatalf("got %v", err)
	}
}

func TestFilterAndVecEval(t *testing.T) {
	ft := types.NewFieldType(mysql.TypeLonglong)
	schema := &Columns{Cols: []SchemaColumn{{Name: "a", Ft: ft}}}
	chk := chunk.New([]*types.FieldType{ft}, 8)
	for i := 0; i < 8; i++ {
		if i == 3 {
			chk.AppendNull(0)
			continue
		}
		chk.AppendInt64(0, int64(i))
	}
	ctx := newTestContext()
	conds := []Expression{mustBuild(t, ctx, "a > 1", schema), mustBuild(t, ctx, "a % 2 = 0", schema)}
	sel, err := Filter(ctx, conds, chk, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, false, true, false, true, false, true, false}
	for i := range want {
		if sel[i] != want[i] {
			t.Fatalf("sel %v", sel)
		}
	}
	e := mustBuild(t, ctx, "a * 10", schema)
	out := chunk.NewColumn(e.Type(), 8)
	if err := VecEval(ctx, e, chk, out); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 8 || out.GetInt64(7) != 70 || !out.IsNull(3) {
		t.Fatalf("column len %d", out.Len())
	}
	if v, null, err := EvalInt(ctx, e, chk.GetRow(2)); v != 20 || null || err != nil {
		t.Fatalf("EvalInt %d %v %v", v, null, err)
	}
	if _, null, _ := EvalInt(ctx, conds[0], chk.GetRow(3)); !null {
		t.Fatal("EvalInt of NULL")
	}
}

func TestEqual(t *testing.T) {
	schema, _ := testTable()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(1)}
	for _, c := range []struct {
		a, b string
		eq   bool
	}{
		{"k + 1", "k + 1", true},
		{"k + 1", "k + 2", false},
		{"k + 1", "1 + k", false},
		{"t.id", "t.id", true},
		{"t.id", "u.id", false},
		{"k = ?", "k = ?", true},
		{"CAST(k AS SIGNED)", "CAST(k AS UNSIGNED)", false},
		{"CAST(k AS CHAR)", "CAST(k AS CHAR)", true},
		{"'a'", "'a'", true},
		{"1", "1.0", false},
		{"NULL", "NULL", true},
	} {
		a, b := mustBuild(t, ctx, c.a, schema), mustBuild(t, ctx, c.b, schema)
		if Equal(a, b) != c.eq {
			t.Errorf("Equal(%s, %s) = %v", c.a, c.b, !c.eq)
		}
	}
}

func TestCompareType(t *testing.T) {
	schema, _ := testTable()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(1), types.NewStringDatum("x")}
	for _, c := range []struct {
		expr string
		cls  types.EvalType
		coll string
	}{
		{"t.id = ?", types.ETInt, ""},
		{"k < 1.5", types.ETDecimal, ""},
		{"k = '1'", types.ETReal, ""},
		{"c = 'x'", types.ETString, "utf8mb4_bin"},
		{"ci > 'x'", types.ETString, "utf8mb4_general_ci"},
		{"c = 1", types.ETReal, ""},
		{"dte BETWEEN '2020-01-01' AND '2021-01-01'", types.ETDatetime, ""},
		{"c IN ('a', 'b')", types.ETString, "utf8mb4_bin"},
		{"bin LIKE 'a%'", types.ETString, "binary"},
	} {
		e := mustBuild(t, ctx, c.expr, schema)
		sf, ok := e.(*ScalarFunction)
		if !ok {
			t.Fatalf("%s: %T", c.expr, e)
		}
		cls, coll, ok := sf.CompareType()
		if !ok || cls != c.cls || coll != c.coll {
			t.Errorf("%s: got %s %q %v", c.expr, cls, coll, ok)
		}
	}
	e := mustBuild(t, ctx, "k IN (1, 'a')", schema).(*ScalarFunction)
	if cls, _, _ := e.CompareTypeOfItem(1); cls != types.ETReal {
		t.Errorf("item 1: %s", cls)
	}
	if _, _, ok := mustBuild(t, ctx, "k + 1", schema).(*ScalarFunction).CompareType(); ok {
		t.Error("plus has a compare type")
	}
}

// A plan built at PREPARE, before any value is known, still evaluates its
// parameters correctly.
func TestUntypedParams(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	ctx.Params = nil
	eq := mustBuild(t, ctx, "k = ?", schema)
	plus := mustBuild(t, ctx, "k + ?", schema)
	like := mustBuild(t, ctx, "c LIKE ?", schema)
	ctx.Params = []types.Datum{types.NewStringDatum("42")}
	if d, err := eq.Eval(ctx, chk.GetRow(0)); err != nil || d.GetInt64() != 1 {
		t.Fatalf("k = '42': %v %v", d, err)
	}
	ctx.Params = []types.Datum{types.NewIntDatum(1)}
	if d, err := plus.Eval(ctx, chk.GetRow(0)); err != nil || d.GetInt64() != 43 {
		t.Fatalf("k + 1: %v %v", d, err)
	}
	ctx.Params = []types.Datum{types.NewStringDatum("H%")}
	if d, err := like.Eval(ctx, chk.GetRow(0)); err != nil || d.GetInt64() != 1 {
		t.Fatalf("c LIKE 'H%%': %v %v", d, err)
	}
}

// A built expression is shared by goroutines, each with its own context
// (run with -race).
func TestConcurrentEval(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewStringDatum("H%")}
	exprs := []Expression{
		mustBuild(t, ctx, "c LIKE ?", schema),
		mustBuild(t, ctx, "CONCAT(c, k, '1abc' + d)", schema),
		mustBuild(t, ctx, "CASE WHEN ci = 'ABC' THEN DATE_ADD(dt, INTERVAL 1 MONTH) END", schema),
	}
	done := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			c := newTestContext()
			c.Params = ctx.Params
			for i := 0; i < 200; i++ {
				for _, e := range exprs {
					if _, err := e.Eval(c, chk.GetRow(0)); err != nil {
						done <- err
						return
					}
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestStrictContext(t *testing.T) {
	schema, chk := testTable()
	base := newTestContext()
	base.Mode = modeStrictTransTables
	ctx := NewStrictContext(base)
	e := mustBuild(t, ctx, "k + c", schema) // 'Hello' as DOUBLE: 1292
	if _, err := e.Eval(ctx, chk.GetRow(0)); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(ctx.Err(), sqlerr.New(sqlerr.ErrTruncatedWrongValue)) || len(base.Warnings) != 0 {
		t.Fatalf("err %v, warnings %v", ctx.Err(), base.Warnings)
	}
	// Division by zero is an error only with ERROR_FOR_DIVISION_BY_ZERO.
	ctx.Reset()
	div := mustBuild(t, ctx, "k / 0", schema)
	_, _ = div.Eval(ctx, chk.GetRow(0))
	if ctx.Err() != nil || len(base.Warnings) != 1 {
		t.Fatalf("err %v, warnings %v", ctx.Err(), base.Warnings)
	}
	base.Mode |= modeErrorForDivisionByZero
	_, _ = div.Eval(ctx, chk.GetRow(0))
	if !errors.Is(ctx.Err(), sqlerr.New(sqlerr.ErrDivisionByZero)) {
		t.Fatalf("err %v", ctx.Err())
	}
	// Not strict: warnings pass through.
	base.Mode, base.Warnings = 0, nil
	ctx.Reset()
	_, _ = e.Eval(ctx, chk.GetRow(0))
	if ctx.Err() != nil || len(base.Warnings) != 1 {
		t.Fatalf("err %v, warnings %v", ctx.Err(), base.Warnings)
	}
}

// TestRegexpFnConstantPattern checks that REGEXP_LIKE and friends compile
// a constant pattern and match type once, at build time, and still
// compile a pattern that varies per row.
func TestRegexpFnConstantPattern(t *testing.T) {
	schema, chk := testTable()
	ctx := newTestContext()
	for _, c := range []struct {
		expr       string
		fixed, err bool
	}{
		{"REGEXP_LIKE(c, 'B')", true, false},
		{"REGEXP_LIKE(c, 'B', 'c')", true, false},
		{"REGEXP_INSTR(c, 'l', 1, 1, 0, 'i')", true, false},
		{"REGEXP_REPLACE(c, 'l', 'x', 1, 0, 'c')", true, false},
		{"REGEXP_LIKE(c, c)", false, false},
		{"REGEXP_LIKE(c, 'b', c)", false, true},   // match type 'Hello': 1210
		{"REGEXP_LIKE(c, 'b', 'z')", false, true}, // a bad match type is 1210 at evaluation
	} {
		sf, ok := mustBuild(t, ctx, c.expr, schema).(*ScalarFunction)
		if !ok {
			t.Fatalf("%s: not a function", c.expr)
		}
		if got := sf.fn.(*regexpFn).fixed != nil; got != c.fixed {
			t.Errorf("%s: compiled at build %v, want %v", c.expr, got, c.fixed)
		}
		if _, err := sf.Eval(ctx, chk.GetRow(0)); (err != nil) != c.err {
			t.Errorf("%s: error %v, want one: %v", c.expr, err, c.err)
		}
	}
}
