package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Window computes window functions over its child's rows, which a Sort
// below orders by PartitionBy then OrderBy. Its output is the child's
// columns followed by one column per function. Frame nil is MySQL's
// default: the whole partition without ORDER BY, else from the partition's
// start to the current row's last peer.
type Window struct {
	Child       Plan
	PartitionBy []expr.Expression
	OrderBy     []ByItem
	Frame       *WindowFrame
	Funcs       []*WindowFunc
	cols        []OutCol
}

// Schema implements Plan.
func (p *Window) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *Window) Children() []Plan { return []Plan{p.Child} }

func (p *Window) explainInfo() (name, obj, info string) {
	var fs []string
	for _, f := range p.Funcs {
		fs = append(fs, f.Name+"("+exprList(f.Args)+")")
	}
	info = strings.Join(fs, ", ") + " over("
	if len(p.PartitionBy) > 0 {
		info += "partition by " + exprList(p.PartitionBy)
	}
	if len(p.OrderBy) > 0 {
		if len(p.PartitionBy) > 0 {
			info += " "
		}
		info += "order by " + byList(p.OrderBy)
	}
	return "Window", "", info + ")"
}

// WindowFunc is one window function: a ranking or value function
// (Name) or an aggregate (Agg) over the frame.
type WindowFunc struct {
	Name string
	Args []expr.Expression
	Agg  *AggFunc
	Ft   *types.FieldType
}

// WindowFrame is ROWS or RANGE between two bounds.
type WindowFrame struct {
	Rows       bool
	Start, End FrameBound
}

// FrameBound is UNBOUNDED, CURRENT ROW or an offset PRECEDING /
// FOLLOWING.
type FrameBound struct {
	Unbounded bool
	Current   bool
	Preceding bool
	Offset    expr.Expression
}

// Window function names (besides the aggregates).
const (
	WinRowNumber   = "row_number"
	WinRank        = "rank"
	WinDenseRank   = "dense_rank"
	WinPercentRank = "percent_rank"
	WinCumeDist    = "cume_dist"
	WinNtile       = "ntile"
	WinLag         = "lag"
	WinLead        = "lead"
	WinFirstValue  = "first_value"
	WinLastValue   = "last_value"
	WinNthValue    = "nth_value"
)

// resolveSpec returns the window specification of f: its own, or the
// named window it refers to, extended.
func resolveSpec(f *ast.WindowFuncExpr, named []ast.WindowSpec) (ast.WindowSpec, error) {
	spec := f.Spec
	find := func(name ast.CIStr) (ast.WindowSpec, error) {
		for _, w := range named {
			if w.Name.L == name.L {
				return w, nil
			}
		}
		return ast.WindowSpec{}, sqlerr.New(mysql.ErrWindowNoSuchWindow, name.O)
	}
	switch {
	case spec.OnlyAlias || (spec.Name.L != "" && spec.PartitionBy == nil && spec.OrderBy == nil && spec.Frame == nil && spec.Ref.L == ""):
		return find(spec.Name)
	case spec.Ref.L != "":
		base, err := find(spec.Ref)
		if err != nil {
			return spec, err
		}
		if spec.PartitionBy == nil {
			spec.PartitionBy = base.PartitionBy
		}
		if spec.OrderBy == nil {
			spec.OrderBy = base.OrderBy
		}
		if spec.Frame == nil {
			spec.Frame = base.Frame
		}
	}
	return spec, nil
}

// buildWindows adds a Sort and a Window per distinct specification over
// p (extra resolves the aggregate calls over its columns) and returns the
// plan and the resolver of the window function calls to their result
// columns.
func (q *qbuilder) buildWindows(p Plan, extra func(ast.ExprNode) (expr.Expression, bool, error), funcs []*ast.WindowFuncExpr, named []ast.WindowSpec) (Plan, func(ast.ExprNode) (expr.Expression, bool, error), error) {
	type group struct {
		key   string
		spec  ast.WindowSpec
		funcs []*ast.WindowFuncExpr
	}
	var groups []*group
	for _, f := range funcs {
		spec, err := resolveSpec(f, named)
		if err != nil {
			return nil, nil, err
		}
		var sb strings.Builder
		spec.Name = ast.CIStr{}
		spec.OnlyAlias = false
		spec.Ref = ast.CIStr{}
		_ = spec.Restore(newRestoreCtx(&sb))
		key := sb.String()
		var g *group
		for _, x := range groups {
			if x.key == key {
				g = x
			}
		}
		if g == nil {
			g = &group{key: key, spec: spec}
			groups = append(groups, g)
		}
		g.funcs = append(g.funcs, f)
	}
	where := map[*ast.WindowFuncExpr]int{}
	for _, g := range groups {
		in := p.Schema()
		s := &schema{cols: in, clause: "window", nodes: extra}
		w := &Window{Child: p}
		var sortBy []ByItem
		if g.spec.PartitionBy != nil {
			for _, it := range g.spec.PartitionBy.Items {
				e, err := expr.Build(q.ctx, it.Expr, s)
				if err != nil {
					return nil, nil, err
				}
				w.PartitionBy = append(w.PartitionBy, e)
				sortBy = append(sortBy, ByItem{Expr: e})
			}
		}
		if g.spec.OrderBy != nil {
			for _, it := range g.spec.OrderBy.Items {
				e, err := expr.Build(q.ctx, it.Expr, s)
				if err != nil {
					return nil, nil, err
				}
				w.OrderBy = append(w.OrderBy, ByItem{Expr: e, Desc: it.Desc})
				sortBy = append(sortBy, ByItem{Expr: e, Desc: it.Desc})
			}
		}
		if g.spec.Frame != nil {
			fr, err := q.frame(g.spec.Frame, w.OrderBy)
			if err != nil {
				return nil, nil, err
			}
			w.Frame = fr
		}
		w.cols = append([]OutCol(nil), in...)
		for _, f := range g.funcs {
			wf, err := q.windowFunc(f, s)
			if err != nil {
				return nil, nil, err
			}
			where[f] = len(w.cols)
			w.Funcs = append(w.Funcs, wf)
			w.cols = append(w.cols, OutCol{Name: f.Name, Ft: wf.Ft, Hidden: true})
		}
		if len(sortBy) > 0 {
			w.Child = &Sort{Child: p, By: sortBy}
		}
		p = w
	}
	cols := p.Schema()
	resolve := func(n ast.ExprNode) (expr.Expression, bool, error) {
		f, ok := n.(*ast.WindowFuncExpr)
		if !ok {
			return nil, false, nil
		}
		if i, ok := where[f]; ok {
			return columnOf(cols, i), true, nil
		}
		return nil, false, nil
	}
	return p, resolve, nil
}

func (q *qbuilder) frame(fc *ast.FrameClause, order []ByItem) (*WindowFrame, error) {
	fr := &WindowFrame{Rows: fc.Type == ast.Rows}
	bound := func(b ast.FrameBound) (FrameBound, error) {
		out := FrameBound{Unbounded: b.UnBounded, Current: b.Type == ast.CurrentRow, Preceding: b.Type == ast.Preceding}
		if b.Expr != nil && !b.UnBounded {
			if b.Unit != ast.TimeUnitInvalid && !fr.Rows {
				return out, sqlerr.New(sqlerr.ErrNotSupportedYet, "INTERVAL frame bounds")
			}
			e, err := expr.Build(q.ctx, b.Expr, nil)
			if err != nil {
				return out, err
			}
			out.Offset = e
		}
		return out, nil
	}
	var err error
	if fr.Start, err = bound(fc.Extent.Start); err != nil {
		return nil, err
	}
	if fr.End, err = bound(fc.Extent.End); err != nil {
		return nil, err
	}
	if !fr.Rows && (fr.Start.Offset != nil || fr.End.Offset != nil) && len(order) != 1 {
		return nil, sqlerr.New(mysql.ErrWindowRangeFrameOrderType, "<unnamed window>")
	}
	return fr, nil
}

// windowFunc resolves one call.
func (q *qbuilder) windowFunc(f *ast.WindowFuncExpr, s *schema) (*WindowFunc, error) {
	build := func(n ast.ExprNode) (expr.Expression, error) { return expr.Build(q.ctx, n, s) }
	name := strings.ToLower(f.Name)
	if a, ok := aggAliases[name]; ok {
		name = a
	}
	switch name {
	case AggCount, AggSum, AggAvg, AggMin, AggMax, AggStddevPop, AggStddevSamp, AggVarPop, AggVarSamp,
		AggBitAnd, AggBitOr, AggBitXor:
		// The aggregate of GROUP BY, over the frame.
		agg, err := buildAggFunc(&ast.AggregateFuncExpr{F: f.Name, Args: f.Args, Distinct: f.Distinct}, build)
		if err != nil {
			return nil, err
		}
		if agg.Distinct {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "DISTINCT in window functions")
		}
		return &WindowFunc{Name: name, Args: agg.Args, Agg: agg, Ft: agg.Ft}, nil
	}
	wf := &WindowFunc{Name: name}
	for _, a := range f.Args {
		e, err := build(a)
		if err != nil {
			return nil, err
		}
		wf.Args = append(wf.Args, e)
	}
	argc := func(lo, hi int) error {
		if len(wf.Args) < lo || len(wf.Args) > hi {
			return sqlerr.New(mysql.ErrWrongParamcountToNativeFct, f.Name)
		}
		return nil
	}
	bigint := func() *types.FieldType {
		ft := types.NewFieldType(mysql.TypeLonglong)
		ft.Flen = 21
		ft.Flag |= mysql.NotNullFlag
		return ft
	}
	switch name {
	case WinRowNumber, WinRank, WinDenseRank:
		wf.Ft = bigint()
		return wf, argc(0, 0)
	case WinNtile:
		wf.Ft = bigint()
		return wf, argc(1, 1)
	case WinPercentRank, WinCumeDist:
		wf.Ft = types.NewFieldType(mysql.TypeDouble)
		wf.Ft.Flen, wf.Ft.Decimal = 22, -1
		wf.Ft.Flag |= mysql.NotNullFlag
		return wf, argc(0, 0)
	case WinLag, WinLead:
		if err := argc(1, 3); err != nil {
			return nil, err
		}
		if len(wf.Args) == 3 {
			wf.Ft = expr.MergeTypes(wf.Args[0].Type(), wf.Args[2].Type())
		} else {
			wf.Ft = nullableType(wf.Args[0].Type())
		}
		return wf, nil
	case WinFirstValue, WinLastValue:
		if err := argc(1, 1); err != nil {
			return nil, err
		}
		wf.Ft = nullableType(wf.Args[0].Type())
		return wf, nil
	case WinNthValue:
		if err := argc(2, 2); err != nil {
			return nil, err
		}
		wf.Ft = nullableType(wf.Args[0].Type())
		return wf, nil
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "window function "+f.Name)
}
