package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

func newRestoreCtx(sb *strings.Builder) *format.RestoreCtx {
	return format.NewRestoreCtx(format.DefaultRestoreFlags, sb)
}

// aggCollector gathers the aggregate calls of a SELECT (not descending
// into an aggregate's arguments).
type aggCollector struct{ aggs []*ast.AggregateFuncExpr }

func (c *aggCollector) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.AggregateFuncExpr:
		c.aggs = append(c.aggs, x)
		return n, true
	case *ast.SelectStmt, *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (c *aggCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func collectAggs(st *ast.SelectStmt) []*ast.AggregateFuncExpr {
	c := &aggCollector{}
	for _, f := range st.Fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(c)
		}
	}
	if st.Having != nil {
		st.Having.Expr.Accept(c)
	}
	if st.OrderBy != nil {
		for _, it := range st.OrderBy.Items {
			it.Expr.Accept(c)
		}
	}
	return c.aggs
}

// buildAgg plans the aggregation of p's rows.
func buildAgg(ctx Context, p Plan, gb *ast.GroupByClause, aggs []*ast.AggregateFuncExpr) (*Agg, error) {
	in := p.Schema()
	agg := &Agg{Child: p, Stream: gb == nil}
	if gb != nil {
		for _, item := range gb.Items {
			e, err := buildExpr(ctx, item.Expr, in, "group statement")
			if err != nil {
				return nil, err
			}
			agg.GroupBy = append(agg.GroupBy, e)
		}
	}
	agg.cols = append(agg.cols, in...)
	for _, a := range aggs {
		f := &AggFunc{Name: strings.ToLower(a.F), Distinct: a.Distinct}
		switch f.Name {
		case AggCount, AggSum, AggAvg, AggMin, AggMax:
		default:
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "aggregate function "+a.F)
		}
		for _, arg := range a.Args {
			e, err := buildExpr(ctx, arg, in, "field list")
			if err != nil {
				return nil, err
			}
			f.Args = append(f.Args, e)
		}
		if len(f.Args) != 1 && !(f.Name == AggCount && len(f.Args) > 1 && f.Distinct) {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this aggregate call")
		}
		f.Ft = aggType(f)
		agg.Funcs = append(agg.Funcs, f)
		agg.cols = append(agg.cols, OutCol{Name: f.String(), Ft: f.Ft, Hidden: true})
	}
	return agg, nil
}

// aggSchema resolves names over the aggregation's output: columns to the
// group's first row, aggregate calls to their results.
func aggSchema(agg *Agg, aggs []*ast.AggregateFuncExpr) *schema {
	cols := agg.Schema()
	base := len(agg.Child.Schema())
	return &schema{cols: cols, nodes: func(n ast.ExprNode) (expr.Expression, bool, error) {
		a, ok := n.(*ast.AggregateFuncExpr)
		if !ok {
			return nil, false, nil
		}
		for i, x := range aggs {
			if x == a {
				return columnOf(cols, base+i), true, nil
			}
		}
		return nil, false, nil
	}}
}

// aggType is MySQL's result type of an aggregate.
func aggType(f *AggFunc) *types.FieldType {
	arg := f.Args[0].Type()
	switch f.Name {
	case AggCount:
		ft := types.NewFieldType(mysql.TypeLonglong)
		ft.Flen = 21
		ft.Flag |= mysql.NotNullFlag
		return ft
	case AggSum, AggAvg:
		switch arg.EvalType() {
		case types.ETInt, types.ETDecimal:
			ft := types.NewFieldType(mysql.TypeNewDecimal)
			dec := max(arg.Decimal, 0)
			if f.Name == AggAvg {
				dec = min(dec+4, 30)
			}
			ft.Flen = min(max(arg.Flen, 1)+22, 65)
			ft.Decimal = dec
			return ft
		}
		ft := types.NewFieldType(mysql.TypeDouble)
		ft.Flen, ft.Decimal = 22, -1
		return ft
	}
	ft := arg.Clone()
	ft.Flag &^= mysql.NotNullFlag | mysql.PriKeyFlag | mysql.AutoIncrementFlag
	return ft
}
