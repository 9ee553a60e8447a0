package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// setOpr plans UNION / INTERSECT / EXCEPT [ALL | DISTINCT] (INTERSECT
// first, then the others left to right, as MySQL),
// with the ORDER BY and LIMIT of the whole. Result columns are named by
// the first query; their types are the aggregate types of each position.
func (q *qbuilder) setOpr(st *ast.SetOprStmt) (Plan, error) {
	defer func(c *cteScope) { q.ctes = c }(q.ctes)
	if st.With != nil {
		if err := q.with(st.With); err != nil {
			return nil, err
		}
	}
	// Plan the operands, then apply INTERSECT first (it binds tighter
	// than UNION and EXCEPT, as in MySQL), then the rest left to right.
	var plans []Plan
	var ops []ast.SetOprType // ops[i] joins plans[i] to what is before it
	for i, sel := range st.SelectList.Selects {
		var cp Plan
		var err error
		op := ast.Union
		var afterOp *ast.SetOprType
		switch x := sel.(type) {
		case *ast.SelectStmt:
			afterOp = x.AfterSetOperator
			cp, err = q.selectStmt(x)
		case *ast.SetOprSelectList:
			afterOp = x.AfterSetOperator
			cp, err = q.setOpr(&ast.SetOprStmt{SelectList: x, Limit: x.Limit, OrderBy: x.OrderBy})
		default:
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this set operation")
		}
		if err != nil {
			return nil, err
		}
		if afterOp != nil {
			op = *afterOp
		}
		if i > 0 && len(visible(cp.Schema())) != len(visible(plans[0].Schema())) {
			return nil, sqlerr.New(mysql.ErrWrongNumberOfColumnsInSelect)
		}
		plans, ops = append(plans, cp), append(ops, op)
	}
	var terms []Plan
	var termOps []ast.SetOprType
	for i, cp := range plans {
		if i > 0 && (ops[i] == ast.Intersect || ops[i] == ast.IntersectAll) {
			terms[len(terms)-1] = newSetOp(ops[i], terms[len(terms)-1], cp)
			continue
		}
		terms, termOps = append(terms, cp), append(termOps, ops[i])
	}
	p := terms[0]
	for i := 1; i < len(terms); i++ {
		p = newSetOp(termOps[i], p, terms[i])
	}
	if st.OrderBy == nil && st.Limit == nil {
		return p, nil
	}
	cols := p.Schema()
	var by []ByItem
	if st.OrderBy != nil {
		for _, item := range st.OrderBy.Items {
			idx := -1
			switch x := item.Expr.(type) {
			case *ast.PositionExpr:
				if x.N < 1 || x.N > len(cols) {
					return nil, sqlerr.New(sqlerr.ErrBadField, x.N, "order clause")
				}
				idx = x.N - 1
			}
			var e expr.Expression
			if idx >= 0 {
				e = columnOf(cols, idx)
			} else {
				var err error
				if e, err = buildExpr(q.ctx, item.Expr, cols, "order clause"); err != nil {
					return nil, err
				}
			}
			by = append(by, ByItem{Expr: e, Desc: item.Desc})
		}
	}
	return buildSortLimit(q.ctx, p, by, st.Limit)
}

// newSetOp combines two inputs by op.
func newSetOp(op ast.SetOprType, l, r Plan) *SetOp {
	s := &SetOp{Inputs: []Plan{l, r}}
	switch op {
	case ast.Union:
		s.Op = Union
	case ast.UnionAll:
		s.Op, s.All = Union, true
	case ast.Intersect:
		s.Op = Intersect
	case ast.IntersectAll:
		s.Op, s.All = Intersect, true
	case ast.Except:
		s.Op = Except
	case ast.ExceptAll:
		s.Op, s.All = Except, true
	}
	s.initSchema()
	return s
}

// initSchema types the result columns: names from the first input, each
// type the union of the inputs' types at that position.
func (p *SetOp) initSchema() {
	first := visible(p.Inputs[0].Schema())
	p.cols = make([]OutCol, len(first))
	for i, c := range first {
		p.cols[i] = OutCol{Name: c.Name, Ft: c.Ft}
	}
	for _, in := range p.Inputs[1:] {
		for i, c := range visible(in.Schema()) {
			p.cols[i].Ft = expr.MergeTypes(p.cols[i].Ft, c.Ft)
		}
	}
}
