package expr

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// TestSysbenchExpressions builds and evaluates the expressions of
// sysbench's statements (WHERE, SET, VALUES) over an sbtest row, as the
// planner and executors will.
func TestSysbenchExpressions(t *testing.T) {
	schema, chk := sbtestChunk()
	row := chk.GetRow(150)
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(100), types.NewIntDatum(199), types.NewStringDatum("x"), types.NewStringDatum("y")}
	want := map[string][]string{
		"SELECT c FROM sbtest1 WHERE id=?":                                      {"0"},
		"SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?":                        {"1"},
		"SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?":                   {"1"},
		"SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c":    {"1"},
		"UPDATE sbtest1 SET k=k+1 WHERE id=?":                                   {"51", "0"},
		"UPDATE sbtest1 SET c=? WHERE id=?":                                     {"100", "0"},
		"DELETE FROM sbtest1 WHERE id=?":                                        {"0"},
		"INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)":               {"100", "199", "x", "y"},
		"SELECT c FROM sbtest1 WHERE id IN (?, ?) AND c LIKE '0%' OR k IS NULL": {"0"},
	}
	p := parser.New()
	for sql, results := range want {
		stmt, err := p.ParseOneStmt(sql, "", "")
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		ParamMarkers(stmt)
		var exprs []ast.ExprNode
		switch s := stmt.(type) {
		case *ast.SelectStmt:
			exprs = append(exprs, s.Where)
		case *ast.UpdateStmt:
			for _, a := range s.List {
				exprs = append(exprs, a.Expr)
			}
			exprs = append(exprs, s.Where)
		case *ast.DeleteStmt:
			exprs = append(exprs, s.Where)
		case *ast.InsertStmt:
			exprs = append(exprs, s.Lists[0]...)
		}
		if len(exprs) != len(results) {
			t.Fatalf("%s: %d expressions", sql, len(exprs))
		}
		for i, n := range exprs {
			e, err := Build(ctx, n, schema)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			d, err := e.Eval(ctx, row)
			if err != nil {
				t.Fatalf("%s: %s: %v", sql, e, err)
			}
			if d.String() != results[i] {
				t.Errorf("%s: %s = %s, want %s", sql, e, d.String(), results[i])
			}
		}
	}
}

// The result of k+1 converts to k's INT column type as UPDATE stores it.
func TestUpdateResultFitsColumn(t *testing.T) {
	schema, chk := sbtestChunk()
	ctx := newTestContext()
	e := mustBuild(t, ctx, "k + 1", schema)
	d, err := e.Eval(ctx, chk.GetRow(3))
	if err != nil {
		t.Fatal(err)
	}
	v, err := types.ConvertDatum(d, types.NewFieldType(mysql.TypeLong))
	if err != nil || v.GetInt64() != 22 {
		t.Fatalf("got %v %v", v, err)
	}
	out := chunk.NewColumn(e.Type(), 1)
	out.AppendDatum(&d)
	if out.GetInt64(0) != 22 {
		t.Fatal("column value")
	}
}
