package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// buildSelect plans a SELECT (or a set operation).
func buildSelect(ctx Context, st *ast.SelectStmt) (Plan, error) {
	return (&qbuilder{ctx: ctx}).selectStmt(st)
}

// selectStmt plans one SELECT: FROM and WHERE (wherePlan), FOR UPDATE,
// aggregation and HAVING, the field list, DISTINCT, ORDER BY and LIMIT.
func (q *qbuilder) selectStmt(st *ast.SelectStmt) (Plan, error) {
	if st.Kind != ast.SelectStmtKindSelect || st.SelectIntoOpt != nil {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this SELECT")
	}
	defer func(c *cteScope) { q.ctes = c }(q.ctes)
	if st.With != nil {
		if err := q.with(st.With); err != nil {
			return nil, err
		}
	}
	q.hints = parseHints(st)
	var ln *lnode
	if st.From == nil {
		ln = &lnode{plan: &Dual{Rows: 1}}
	} else {
		var err error
		if ln, err = q.from(st.From.TableRefs, map[string]bool{}); err != nil {
			return nil, err
		}
	}
	p, err := q.fromWhere(ln, st.Where)
	if err != nil {
		return nil, err
	}
	if st.LockInfo != nil && st.LockInfo.LockType != ast.SelectLockNone {
		tables := ln.lockTargets()
		if len(tables) == 0 {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "FOR UPDATE of this query")
		}
		for _, t := range tables {
			p = &Lock{Child: p, Table: t.src.Table, Handle: t.handle}
		}
	}
	aggs, wins := collectFuncs(st)
	// What the field list and ORDER BY resolve against: cols, and extra
	// for aggregate calls and window functions.
	var cols []OutCol
	var extra func(ast.ExprNode) (expr.Expression, bool, error)
	if len(aggs) > 0 || st.GroupBy != nil {
		var agg *Agg
		var rollupBy []ByItem
		var rollupExprs func(ast.ExprNode) (expr.Expression, bool, error)
		if st.GroupBy != nil && st.GroupBy.Rollup {
			agg, rollupBy, rollupExprs, err = q.rollup(p, st, aggs)
		} else {
			agg, err = buildAgg(q.ctx, p, st.GroupBy, aggs, st.Fields.Fields)
		}
		if err != nil {
			return nil, err
		}
		p = agg
		res := aggSchema(agg, aggs)
		if rollupExprs != nil {
			aggNodes := res.nodes
			res.nodes = func(n ast.ExprNode) (expr.Expression, bool, error) {
				if e, ok, err := rollupExprs(n); ok || err != nil {
					return e, ok, err
				}
				return aggNodes(n)
			}
		}
		cols, extra = res.cols, res.nodes
		if st.Having != nil {
			res.clause = "having clause"
			sq := q.newSubqueries(res.cols)
			c, err := q.buildExpr(st.Having.Expr, res.cols, "having clause", sq, havingNodes(q.ctx, res, st.Fields.Fields))
			if err != nil {
				return nil, err
			}
			p = &Selection{Child: sq.apply(p), Conds: splitAnd(c, nil)}
			p = trimTo(p, len(res.cols))
		}
		if rollupBy != nil {
			p = &Sort{Child: p, By: rollupBy}
		}
	} else {
		if st.Having != nil {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "HAVING without aggregation")
		}
		cols = p.Schema()
	}
	if len(wins) > 0 {
		wp, wres, err := q.buildWindows(p, extra, wins, st.WindowSpecs)
		if err != nil {
			return nil, err
		}
		p = wp
		prev := extra
		extra = func(n ast.ExprNode) (expr.Expression, bool, error) {
			if e, ok, err := wres(n); ok || err != nil {
				return e, ok, err
			}
			if prev != nil {
				return prev(n)
			}
			return nil, false, nil
		}
		cols = p.Schema()
	}
	sq := q.newSubqueries(cols)
	res := q.schemaFor(cols, "field list", sq, extra)
	proj, nVisible, err := buildFields(q.ctx, p, res, st.Fields.Fields)
	if err != nil {
		return nil, err
	}
	by, err := buildOrderBy(q.ctx, proj, res, st.Fields.Fields, st.OrderBy)
	if err != nil {
		return nil, err
	}
	proj.Child = sq.apply(proj.Child)
	p = proj
	if st.Distinct {
		p = distinct(p, nVisible)
	}
	if p, err = buildSortLimit(q.ctx, p, by, st.Limit); err != nil {
		return nil, err
	}
	if !st.Distinct {
		p = eliminateSort(p)
	}
	p = trimHidden(p, nVisible)
	markCovering(p, nil)
	return p, nil
}

// fromWhere plans the FROM items ln filtered by where: conjuncts that
// are EXISTS / IN / ANY / ALL subqueries become semi joins; the others
// are built (their subqueries as Apply or joins) and pushed down where
// they can go (wherePlan).
func (q *qbuilder) fromWhere(ln *lnode, where ast.ExprNode) (Plan, error) {
	sq := q.newSubqueries(ln.cols)
	var conds []expr.Expression
	var semis []func(Plan) Plan
	conjuncts, err := ln.onSubqueries(nil)
	if err != nil {
		return nil, err
	}
	if where != nil {
		conjuncts = splitAndAST(where, conjuncts)
	}
	if len(conjuncts) > 0 {
		s := q.schemaFor(ln.cols, "where clause", sq, nil)
		for _, c := range conjuncts {
			if pred, ok := asSubqueryPred(c); ok {
				w, err := q.semiJoin(pred, pred.kind(false), ln.cols, s)
				if err != nil {
					return nil, err
				}
				semis = append(semis, w)
				continue
			}
			e, err := expr.Build(q.ctx, c, s)
			if err != nil {
				return nil, err
			}
			conds = splitAnd(e, conds)
		}
	}
	p, err := q.wherePlan(ln, conds, sq)
	if err != nil {
		return nil, err
	}
	for _, w := range semis {
		p = w(p)
	}
	return p, nil
}

// wherePlan plans ln filtered by conds (built over ln.cols, with the
// subqueries they use in sq): conditions that read no subquery go down to
// the tables, the others filter above the subqueries' operators, whose
// columns are then dropped again.
func (q *qbuilder) wherePlan(ln *lnode, conds []expr.Expression, sq *subqueries) (Plan, error) {
	if len(sq.wraps) == 0 {
		return q.physical(ln, conds), nil
	}
	n := len(ln.cols)
	var down, above []expr.Expression
	for _, c := range conds {
		if readsFrom(c, n) {
			above = append(above, c)
		} else {
			down = append(down, c)
		}
	}
	p := sq.apply(q.physical(ln, down))
	if len(above) > 0 {
		p = &Selection{Child: p, Conds: above}
	}
	return trimTo(p, n), nil
}

// readsFrom reports whether e reads a column at position n or after.
func readsFrom(e expr.Expression, n int) bool {
	for _, c := range expr.ExtractColumns(e) {
		if c.Index >= n {
			return true
		}
	}
	return false
}

// trimTo keeps the first n columns of p.
func trimTo(p Plan, n int) Plan {
	cols := p.Schema()
	if len(cols) == n {
		return p
	}
	return &Projection{Child: p, Exprs: identityExprs(cols[:n]), Cols: cols[:n:n]}
}

// buildFields projects the field list over p; ORDER BY may append hidden
// columns to the projection later. nVisible is the field count.
func buildFields(ctx Context, p Plan, res *schema, fields []*ast.SelectField) (*Projection, int, error) {
	proj := &Projection{Child: p}
	res.clause = "field list"
	in := p.Schema()
	for _, f := range fields {
		if f.WildCard != nil {
			n := 0
			for i, c := range in {
				if c.Hidden || (f.WildCard.Table.O != "" && !strings.EqualFold(c.Table, f.WildCard.Table.O)) {
					continue
				}
				proj.Exprs = append(proj.Exprs, columnOf(in, i))
				proj.Cols = append(proj.Cols, OutCol{DB: c.DB, Table: c.Table, Name: c.Name, Ft: c.Ft})
				n++
			}
			if n == 0 && f.WildCard.Table.O != "" {
				return nil, 0, sqlerr.New(sqlerr.ErrBadTable, f.WildCard.Table.O)
			}
			continue
		}
		e, err := expr.Build(ctx, f.Expr, res)
		if err != nil {
			return nil, 0, err
		}
		col := OutCol{Name: fieldName(f), Ft: e.Type()}
		if c, ok := e.(*expr.Column); ok && c.Index < len(in) {
			col.DB, col.Table = in[c.Index].DB, in[c.Index].Table
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, col)
	}
	return proj, len(proj.Cols), nil
}

// fieldName is the result column name of a field.
func fieldName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return f.AsName.O
	}
	if c, ok := f.Expr.(*ast.ColumnNameExpr); ok {
		return c.Name.Name.O
	}
	if t := f.Text(); t != "" {
		return t
	}
	var sb strings.Builder
	_ = f.Expr.Restore(newRestoreCtx(&sb))
	return sb.String()
}

// buildOrderBy resolves ORDER BY items to columns of proj: a position, a
// field's alias or column name, else an expression over the projection's
// input appended as a hidden column.
func buildOrderBy(ctx Context, proj *Projection, res *schema, fields []*ast.SelectField, ob *ast.OrderByClause) ([]ByItem, error) {
	if ob == nil {
		return nil, nil
	}
	res.clause = "order clause"
	by := make([]ByItem, 0, len(ob.Items))
	nFields := len(proj.Cols) // positions name these, not hidden helpers
	for _, item := range ob.Items {
		idx, err := orderTarget(proj, fields, item.Expr, nFields)
		if err != nil {
			return nil, err
		}
		if idx < 0 {
			e, err := expr.Build(ctx, item.Expr, res)
			if err != nil {
				return nil, err
			}
			proj.Exprs = append(proj.Exprs, e)
			proj.Cols = append(proj.Cols, OutCol{Name: "order_" + strconv.Itoa(len(proj.Cols)), Ft: e.Type(), Hidden: true})
			idx = len(proj.Cols) - 1
		}
		by = append(by, ByItem{Expr: columnOf(proj.Cols, idx), Desc: item.Desc})
	}
	return by, nil
}

// orderTarget finds the projected column an ORDER BY item names, -1 if
// none.
func orderTarget(proj *Projection, fields []*ast.SelectField, e ast.ExprNode, nFields int) (int, error) {
	switch n := e.(type) {
	case *ast.PositionExpr:
		if n.N < 1 || n.N > nFields {
			return 0, sqlerr.New(sqlerr.ErrBadField, strconv.Itoa(n.N), "order clause")
		}
		return n.N - 1, nil
	case *ast.ColumnNameExpr:
		if n.Name.Table.O != "" {
			return -1, nil
		}
		hasWild := false
		for _, f := range fields {
			hasWild = hasWild || f.WildCard != nil
		}
		for i, c := range proj.Cols {
			if c.Hidden || !strings.EqualFold(c.Name, n.Name.Name.O) {
				continue
			}
			if _, isCol := proj.Exprs[i].(*expr.Column); isCol || !hasWild {
				return i, nil
			}
		}
	}
	return -1, nil
}

// distinct keeps one row per distinct value of the first n columns.
func distinct(p Plan, n int) Plan {
	cols := p.Schema()
	agg := &Agg{Child: p}
	for i := 0; i < n; i++ {
		agg.GroupBy = append(agg.GroupBy, columnOf(cols, i))
	}
	agg.cols = append([]OutCol(nil), cols...)
	return agg
}

// buildSortLimit adds Sort, TopN or Limit.
func buildSortLimit(ctx Context, p Plan, by []ByItem, lim *ast.Limit) (Plan, error) {
	var off, cnt expr.Expression
	if lim != nil {
		var err error
		if cnt, err = buildExpr(ctx, lim.Count, nil, "limit clause"); err != nil {
			return nil, err
		}
		if lim.Offset != nil {
			if off, err = buildExpr(ctx, lim.Offset, nil, "limit clause"); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case len(by) > 0 && cnt != nil:
		return &TopN{Child: p, By: by, Offset: off, Count: cnt}, nil
	case len(by) > 0:
		return &Sort{Child: p, By: by}, nil
	case cnt != nil:
		return &Limit{Child: p, Offset: off, Count: cnt}, nil
	}
	return p, nil
}

// trimHidden drops the hidden columns ORDER BY added.
func trimHidden(p Plan, n int) Plan {
	cols := p.Schema()
	if len(cols) == n {
		return p
	}
	proj := &Projection{Child: p, Cols: cols[:n:n]}
	for i := 0; i < n; i++ {
		proj.Exprs = append(proj.Exprs, columnOf(cols, i))
	}
	return proj
}

// havingNodes resolves HAVING's names as MySQL does: aggregates and
// columns of the aggregation, then the aliases of the field list.
func havingNodes(ctx Context, res *schema, fields []*ast.SelectField) func(ast.ExprNode) (expr.Expression, bool, error) {
	return func(n ast.ExprNode) (expr.Expression, bool, error) {
		if e, ok, err := res.ResolveNode(n); ok || err != nil {
			return e, ok, err
		}
		cn, ok := n.(*ast.ColumnNameExpr)
		if !ok || cn.Name.Table.O != "" {
			return nil, false, nil
		}
		if _, _, err := res.Resolve("", "", cn.Name.Name.O); err == nil {
			return nil, false, nil
		}
		for _, f := range fields {
			if f.WildCard == nil && strings.EqualFold(f.AsName.O, cn.Name.Name.O) {
				e, err := expr.Build(ctx, f.Expr, res)
				return e, err == nil, err
			}
		}
		return nil, false, nil
	}
}
