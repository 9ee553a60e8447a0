package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	parsertypes "github.com/pingcap/tidb/pkg/parser/types"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

func newRestoreCtx(sb *strings.Builder) *format.RestoreCtx {
	return format.NewRestoreCtx(format.DefaultRestoreFlags, sb)
}

// funcCollector gathers, in one walk, the aggregate calls and the window
// functions of a SELECT: not inside subqueries, not an aggregate inside
// another nor a window function inside another (those are the enclosing
// call's arguments), and no window function of HAVING.
type funcCollector struct {
	aggs         []*ast.AggregateFuncExpr
	wins         []*ast.WindowFuncExpr
	inAgg, inWin int
	inHaving     bool
}

func (c *funcCollector) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.AggregateFuncExpr:
		if c.inAgg == 0 {
			c.aggs = append(c.aggs, x)
		}
		c.inAgg++
	case *ast.WindowFuncExpr:
		if c.inWin == 0 && !c.inHaving {
			c.wins = append(c.wins, x)
		}
		c.inWin++
	case *ast.SelectStmt, *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}

func (c *funcCollector) Leave(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.AggregateFuncExpr:
		c.inAgg--
	case *ast.WindowFuncExpr:
		c.inWin--
	}
	return n, true
}

// collectFuncs returns the aggregate calls (of the field list, HAVING and
// ORDER BY) and the window functions (of the field list and ORDER BY) of
// st.
func collectFuncs(st *ast.SelectStmt) ([]*ast.AggregateFuncExpr, []*ast.WindowFuncExpr) {
	c := &funcCollector{}
	for _, f := range st.Fields.Fields {
		if f.Expr != nil {
			f.Expr.Accept(c)
		}
	}
	if st.Having != nil {
		c.inHaving = true
		st.Having.Expr.Accept(c)
		c.inHaving = false
	}
	if st.OrderBy != nil {
		for _, it := range st.OrderBy.Items {
			it.Expr.Accept(c)
		}
	}
	return c.aggs, c.wins
}

// collectAggs returns the aggregate calls of st.
func collectAggs(st *ast.SelectStmt) []*ast.AggregateFuncExpr {
	aggs, _ := collectFuncs(st)
	return aggs
}

// buildAgg plans the aggregation of p's rows.
func buildAgg(ctx Context, p Plan, gb *ast.GroupByClause, aggs []*ast.AggregateFuncExpr, fields []*ast.SelectField) (*Agg, error) {
	in := p.Schema()
	agg := &Agg{Child: p, Stream: gb == nil}
	if gb != nil {
		for _, item := range gb.Items {
			node, err := groupTarget(item.Expr, in, fields)
			if err != nil {
				return nil, err
			}
			e, err := buildExpr(ctx, node, in, "group statement")
			if err != nil {
				return nil, err
			}
			agg.GroupBy = append(agg.GroupBy, e)
		}
	}
	agg.cols = append(agg.cols, in...)
	for _, a := range aggs {
		f, err := buildAggFunc(a, func(n ast.ExprNode) (expr.Expression, error) {
			return buildExpr(ctx, n, in, "field list")
		})
		if err != nil {
			return nil, err
		}
		agg.Funcs = append(agg.Funcs, f)
		agg.cols = append(agg.cols, OutCol{Name: f.String(), Ft: f.Ft, Hidden: true})
	}
	return agg, nil
}

// groupTarget resolves a GROUP BY item as MySQL does: a position names a
// field of the select list; an unqualified name that is not a column of
// the FROM clause names a field's alias. Grouping on an aggregate is 1056.
func groupTarget(e ast.ExprNode, in []OutCol, fields []*ast.SelectField) (ast.ExprNode, error) {
	var f *ast.SelectField
	switch x := e.(type) {
	case *ast.PositionExpr:
		if x.N < 1 || x.N > len(fields) || fields[x.N-1].WildCard != nil {
			return nil, sqlerr.New(sqlerr.ErrBadField, strconv.Itoa(x.N), "group statement")
		}
		f = fields[x.N-1]
	case *ast.ColumnNameExpr:
		if x.Name.Table.O != "" {
			return e, nil
		}
		if _, _, err := (&schema{cols: in}).Resolve("", "", x.Name.Name.O); err == nil {
			return e, nil
		}
		for _, fl := range fields {
			if fl.WildCard == nil && strings.EqualFold(fl.AsName.O, x.Name.Name.O) {
				f = fl
				break
			}
		}
		if f == nil {
			return e, nil
		}
	default:
		return e, nil
	}
	c := &funcCollector{}
	f.Expr.Accept(c)
	if len(c.aggs) > 0 {
		return nil, sqlerr.New(mysql.ErrWrongGroupField, fieldName(f))
	}
	return f.Expr, nil
}

// JSON_ARRAYAGG(v) and JSON_OBJECTAGG(k, v): a JSON array of the group's
// values (NULLs as null), an object of its key/value pairs (the last of
// a duplicated key wins; a NULL key is 3158); NULL for no rows.
const (
	AggJSONArrayAgg  = "json_arrayagg"
	AggJSONObjectAgg = "json_objectagg"
)

// aggAliases maps the parser's aggregate names to ours.
var aggAliases = map[string]string{
	"std": AggStddevPop, "stddev": AggStddevPop, "variance": AggVarPop,
}

// buildAggFunc resolves one aggregate call, its arguments built by build
// (over the aggregation's input, or a window's).
func buildAggFunc(a *ast.AggregateFuncExpr, build func(ast.ExprNode) (expr.Expression, error)) (*AggFunc, error) {
	f := &AggFunc{Name: strings.ToLower(a.F), Distinct: a.Distinct}
	if n, ok := aggAliases[f.Name]; ok {
		f.Name = n
	}
	args := a.Args
	switch f.Name {
	case AggCount, AggSum, AggAvg, AggMin, AggMax, AggStddevPop, AggStddevSamp, AggVarPop, AggVarSamp, AggJSONArrayAgg, AggJSONObjectAgg:
	case AggBitAnd, AggBitOr, AggBitXor:
		// The argument counts as BIGINT UNSIGNED (-1 is all ones, 2.5 is
		// 3, text its number), as MySQL's val_uint reads it.
		if len(args) == 1 {
			tp := parsertypes.NewFieldType(mysql.TypeLonglong)
			tp.AddFlag(mysql.UnsignedFlag)
			args = []ast.ExprNode{&ast.FuncCastExpr{Expr: args[0], Tp: tp, FunctionType: ast.CastFunction}}
		}
	case AggGroupConcat:
		// The parser appends the separator to the arguments.
		if len(args) < 2 {
			return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, a.F)
		}
		sep, ok := args[len(args)-1].(ast.ValueExpr)
		if !ok {
			return nil, sqlerr.New(mysql.ErrWrongArguments, "GROUP_CONCAT")
		}
		f.Separator = sep.GetString()
		args = args[:len(args)-1]
		if a.Order != nil {
			args = append([]ast.ExprNode{}, args...)
			for _, it := range a.Order.Items {
				args = append(args, it.Expr)
				f.OrderDesc = append(f.OrderDesc, it.Desc)
			}
		}
	default:
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "aggregate function "+a.F)
	}
	for _, arg := range args {
		e, err := build(arg)
		if err != nil {
			return nil, err
		}
		f.Args = append(f.Args, e)
	}
	nvals := len(f.ValueArgs())
	switch {
	case f.Name == AggGroupConcat && nvals >= 1:
	case f.Name == AggCount && f.Distinct && nvals >= 1:
	case f.Name == AggJSONObjectAgg && nvals == 2:
	case f.Name == AggJSONObjectAgg:
		return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, a.F)
	case nvals != 1:
		return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, a.F)
	}
	f.Ft = aggType(f)
	return f, nil
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
	case AggBitAnd, AggBitOr, AggBitXor:
		ft := types.NewFieldType(mysql.TypeLonglong)
		ft.Flen = 21
		ft.Flag |= mysql.UnsignedFlag | mysql.NotNullFlag
		return ft
	case AggStddevPop, AggStddevSamp, AggVarPop, AggVarSamp:
		ft := types.NewFieldType(mysql.TypeDouble)
		ft.Flen, ft.Decimal = 23, -1
		return ft
	case AggJSONArrayAgg, AggJSONObjectAgg:
		return types.NewFieldType(mysql.TypeJSON)
	case AggGroupConcat:
		ft := types.NewFieldType(mysql.TypeVarString)
		ft.Charset, ft.Collate, ft.Flen = "utf8mb4", "utf8mb4_bin", 1024
		for _, a := range f.ValueArgs() {
			if a.Type().IsBinaryString() {
				ft.Charset, ft.Collate = "binary", "binary"
				ft.Flag |= mysql.BinaryFlag
			} else if t := a.Type(); t.EvalType() == types.ETString && t.Collate != "" && ft.Collate != "binary" {
				ft.Charset, ft.Collate = t.Charset, t.Collate
			}
		}
		return ft
	}
	ft := arg.Clone()
	ft.Flag &^= mysql.NotNullFlag | mysql.PriKeyFlag | mysql.AutoIncrementFlag
	return ft
}
