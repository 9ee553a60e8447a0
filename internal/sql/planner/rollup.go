package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Expand feeds GROUP BY ... WITH ROLLUP: every child row comes out
// len(Cols)+1 times, at levels 0..len(Cols), with the last `level` of the
// grouping columns Cols set to NULL, and the level as a last column. An
// aggregation grouped by (level, Cols...) then computes the groups and
// every super-aggregate; its first rows show NULL in the rolled-up
// columns, as MySQL does.
type Expand struct {
	Child Plan
	Cols  []int
	cols  []OutCol
}

// Schema implements Plan.
func (p *Expand) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *Expand) Children() []Plan { return []Plan{p.Child} }

func (p *Expand) explainInfo() (name, obj, info string) {
	return "Expand", "", "rollup levels:" + strconv.Itoa(len(p.Cols)+1)
}

// rollup plans GROUP BY ... WITH ROLLUP over p. A grouping item that is
// not a column is computed into a hidden column below the Expand (so
// that the rolled-up rows show it NULL, as MySQL does); exprNodes then
// resolves the select list's and HAVING's expressions equal to such an
// item to its column. It returns the aggregation and the order of its
// rows (groups, each level's super-aggregate after the groups it sums).
func (q *qbuilder) rollup(p Plan, st *ast.SelectStmt, aggs []*ast.AggregateFuncExpr) (agg *Agg, by []ByItem, exprNodes func(ast.ExprNode) (expr.Expression, bool, error), err error) {
	in := p.Schema()
	ex := &Expand{}
	var exprs []expr.Expression // the grouping items that are not columns
	var texts []string          // and their SQL text
	for _, item := range st.GroupBy.Items {
		node, err := groupTarget(item.Expr, in, st.Fields.Fields)
		if err != nil {
			return nil, nil, nil, err
		}
		if cn, ok := node.(*ast.ColumnNameExpr); ok {
			idx, _, err := (&schema{cols: in, clause: "group statement"}).Resolve(cn.Name.Schema.O, cn.Name.Table.O, cn.Name.Name.O)
			if err != nil {
				return nil, nil, nil, err
			}
			ex.Cols = append(ex.Cols, idx)
			continue
		}
		e, err := buildExpr(q.ctx, node, in, "group statement")
		if err != nil {
			return nil, nil, nil, err
		}
		ex.Cols = append(ex.Cols, len(in)+len(exprs))
		exprs = append(exprs, e)
		texts = append(texts, nodeText(node))
	}
	ex.Child = p
	if len(exprs) > 0 {
		proj := &Projection{Child: p, Cols: append([]OutCol(nil), in...)}
		for i := range in {
			proj.Exprs = append(proj.Exprs, columnOf(in, i))
		}
		for i, e := range exprs {
			proj.Exprs = append(proj.Exprs, e)
			proj.Cols = append(proj.Cols, OutCol{Name: texts[i], Ft: e.Type(), Hidden: true, QualifiedOnly: true})
		}
		ex.Child = proj
	}
	cin := ex.Child.Schema()
	ex.cols = append(nullable(cin), OutCol{Name: "rollup_level", Ft: types.NewFieldType(mysql.TypeLonglong), Hidden: true})
	agg, err = buildAgg(q.ctx, ex, nil, aggs, st.Fields.Fields)
	if err != nil {
		return nil, nil, nil, err
	}
	level := columnOf(ex.cols, len(cin))
	agg.Stream = false
	agg.GroupBy = []expr.Expression{level}
	for _, c := range ex.Cols {
		agg.GroupBy = append(agg.GroupBy, columnOf(ex.cols, c))
	}
	// Order: by each grouping column, its rolled-up rows (level high
	// enough) after the others.
	n := len(ex.Cols)
	for i, c := range ex.Cols {
		rolled, err := q.opExpr(opcode.GE, level, intConst(int64(n-i)))
		if err != nil {
			return nil, nil, nil, err
		}
		by = append(by, ByItem{Expr: rolled}, ByItem{Expr: columnOf(ex.cols, c)})
	}
	// The grouping items over in, as GROUPING() matches its arguments.
	items := make([]expr.Expression, len(ex.Cols))
	for i, c := range ex.Cols {
		if c < len(in) {
			items[i] = columnOf(in, c)
		} else {
			items[i] = exprs[c-len(in)]
		}
	}
	cols := agg.Schema()
	outLevel := columnOf(cols, len(cin))
	exprNodes = func(n ast.ExprNode) (expr.Expression, bool, error) {
		switch x := n.(type) {
		case *ast.FuncCallExpr:
			if x.FnName.L == "grouping" {
				e, err := q.grouping(x, in, items, outLevel)
				return e, err == nil, err
			}
		case *ast.ColumnNameExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr, ast.ValueExpr:
			return nil, false, nil
		}
		if len(exprs) == 0 {
			return nil, false, nil
		}
		// Equal to a grouping expression when built over the same columns
		// (whatever the spelling: case, qualification).
		e, err := buildExpr(q.ctx, n, in, "field list")
		if err != nil {
			return nil, false, nil // not over the FROM columns alone
		}
		for i, g := range exprs {
			if expr.Equal(e, g) {
				return columnOf(cols, len(in)+i), true, nil
			}
		}
		return nil, false, nil
	}
	return agg, by, exprNodes, nil
}

// grouping builds GROUPING(args...) of a ROLLUP whose grouping items over
// in are items and whose output level column is level: bit k (from the
// last argument) is 1 when argument k is rolled up in the row, that is
// when the level is at least len(items) minus its item's position. An
// argument that is not a grouping item is 3580.
func (q *qbuilder) grouping(f *ast.FuncCallExpr, in []OutCol, items []expr.Expression, level expr.Expression) (expr.Expression, error) {
	if len(f.Args) == 0 {
		return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, "GROUPING")
	}
	var out expr.Expression
	for j, a := range f.Args {
		e, err := buildExpr(q.ctx, a, in, "field list")
		if err != nil {
			return nil, err
		}
		pos := -1
		for i, it := range items {
			if expr.Equal(e, it) {
				pos = i
				break
			}
		}
		if pos < 0 {
			return nil, sqlerr.New(sqlerr.ErrFieldInGroupingNotGroupBy, j+1)
		}
		bit, err := q.opExpr(opcode.GE, level, intConst(int64(len(items)-pos)))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = bit
			continue
		}
		if out, err = q.opExpr(opcode.Mul, out, intConst(2)); err != nil {
			return nil, err
		}
		if out, err = q.opExpr(opcode.Plus, out, bit); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func intConst(v int64) expr.Expression {
	return expr.NewConstant(types.NewIntDatum(v), types.NewFieldType(mysql.TypeLonglong))
}

// nodeText is an expression's SQL text, which tells equal grouping
// expressions apart from others.
func nodeText(n ast.ExprNode) string {
	var sb strings.Builder
	if err := n.Restore(newRestoreCtx(&sb)); err != nil {
		return ""
	}
	return sb.String()
}
