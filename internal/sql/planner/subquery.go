package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// A subquery becomes an operator on the plan of the query that contains
// it (TiDB's rewrite): a scalar subquery an Apply returning at most one
// row per outer row; EXISTS, IN and ANY/ALL a semi-family join whose match
// is the value (LeftOuterSemiJoin, a column) or, for a WHERE conjunct, the
// filter (SemiJoin / AntiSemiJoin). A subquery whose correlated names are
// all in top-level conjuncts of its WHERE (and in IN's compared column)
// is decorrelated: those conjuncts become the join's conditions and the
// subquery's rows are read once (a hash join). Any other correlated
// subquery runs once per outer row (Apply).

// subqueryPred describes EXISTS / IN / comparison subqueries: the
// subquery, the left operand (nil for EXISTS), the operator and whether
// the result is negated (NOT EXISTS, NOT IN, ALL).
type subqueryPred struct {
	query ast.ResultSetNode
	left  ast.ExprNode
	op    opcode.Op
	neg   bool
	all   bool
}

// kind is the join that computes the predicate: a filter (semi, anti
// semi) or, asValue, a column holding its three-valued result.
func (p subqueryPred) kind(asValue bool) JoinKind {
	switch {
	case asValue && p.neg:
		return AntiLeftOuterSemiJoin
	case asValue:
		return LeftOuterSemiJoin
	case p.neg:
		return AntiSemiJoin
	}
	return SemiJoin
}

// asSubqueryPred recognizes [NOT] EXISTS, [NOT] IN (subquery) and
// op ANY/ALL (subquery), under any number of NOTs.
func asSubqueryPred(n ast.ExprNode) (subqueryPred, bool) {
	neg := false
	for {
		if u, ok := n.(*ast.UnaryOperationExpr); ok && u.Op == opcode.Not {
			neg, n = !neg, u.V
			continue
		}
		if p, ok := n.(*ast.ParenthesesExpr); ok {
			n = p.Expr
			continue
		}
		break
	}
	switch x := n.(type) {
	case *ast.ExistsSubqueryExpr:
		sub, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			return subqueryPred{}, false
		}
		return subqueryPred{query: sub.Query, neg: neg != x.Not}, true
	case *ast.PatternInExpr:
		sub, ok := x.Sel.(*ast.SubqueryExpr)
		if !ok {
			return subqueryPred{}, false
		}
		return subqueryPred{query: sub.Query, left: x.Expr, op: opcode.EQ, neg: neg != x.Not}, true
	case *ast.CompareSubqueryExpr:
		sub, ok := x.R.(*ast.SubqueryExpr)
		if !ok {
			return subqueryPred{}, false
		}
		// x op ALL (s) is NOT (x !op ANY (s)).
		op := x.Op
		if x.All {
			op = negateCmp(op)
		}
		return subqueryPred{query: sub.Query, left: x.L, op: op, neg: neg != x.All, all: x.All}, true
	}
	return subqueryPred{}, false
}

func negateCmp(op opcode.Op) opcode.Op {
	switch op {
	case opcode.EQ:
		return opcode.NE
	case opcode.NE:
		return opcode.EQ
	case opcode.LT:
		return opcode.GE
	case opcode.GE:
		return opcode.LT
	case opcode.GT:
		return opcode.LE
	case opcode.LE:
		return opcode.GT
	}
	return op
}

// subqueryValue plans a subquery used as a value: it adds an operator to
// sq and returns the column holding the value.
func (q *qbuilder) subqueryValue(n ast.ExprNode, sq *subqueries, s *schema) (expr.Expression, error) {
	if sub, ok := n.(*ast.SubqueryExpr); ok {
		return q.scalarSubquery(sub, sq)
	}
	pred, ok := asSubqueryPred(n)
	if !ok {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this subquery")
	}
	w, err := q.semiJoin(pred, pred.kind(true), sq.cols, s)
	if err != nil {
		return nil, err
	}
	idx := sq.width
	sq.width++
	sq.wraps = append(sq.wraps, w)
	return &expr.Column{Index: idx, Name: "match", Ft: matchType()}, nil
}

// scalarSubquery plans (SELECT ...) as a value: an Apply of the subquery
// (at most one row) adding its one column.
func (q *qbuilder) scalarSubquery(sub *ast.SubqueryExpr, sq *subqueries) (expr.Expression, error) {
	sc := &scope{cols: sq.cols, parent: q.outer}
	inner, err := q.child(sc).resultSet(sub.Query)
	if err != nil {
		return nil, err
	}
	cols := visible(inner.Schema())
	if len(cols) != 1 {
		return nil, sqlerr.New(mysql.ErrOperandColumns, 1)
	}
	binds := sc.bindings(0)
	idx := sq.width
	sq.width++
	sq.wraps = append(sq.wraps, func(p Plan) Plan {
		a := &Apply{Join: Join{Kind: LeftOuterJoin, Left: p, Right: inner}, Corr: binds, MaxOneRow: true}
		a.initSchema()
		return a
	})
	return &expr.Column{Index: idx, Name: cols[0].Name, Ft: nullableType(cols[0].Ft)}, nil
}

func visible(cols []OutCol) []OutCol {
	out := make([]OutCol, 0, len(cols))
	for _, c := range cols {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// semiJoin plans an EXISTS / IN / ANY / ALL subquery over a plan whose
// columns are cols, as a join of the given kind; s resolves the left
// operand.
func (q *qbuilder) semiJoin(pred subqueryPred, kind JoinKind, cols []OutCol, s *schema) (func(Plan) Plan, error) {
	if sel, ok := pred.query.(*ast.SelectStmt); ok && sel.Limit != nil && pred.left != nil {
		// MySQL 8 refuses it too.
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "LIMIT & IN/ALL/ANY/SOME subquery")
	}
	// The left operand: one value, or a row (a, b) IN (SELECT x, y ...)
	// compared column by column.
	var lefts []expr.Expression
	if pred.left != nil {
		nodes := []ast.ExprNode{pred.left}
		if row, ok := pred.left.(*ast.RowExpr); ok {
			if pred.op != opcode.EQ {
				return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "row comparisons other than IN / = ANY / <> ALL with a subquery")
			}
			nodes = row.Values
		}
		for _, n := range nodes {
			l, err := expr.Build(q.ctx, n, s)
			if err != nil {
				return nil, err
			}
			for _, c := range expr.ExtractColumns(l) {
				if c.Index >= len(cols) {
					return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "a subquery compared with another subquery")
				}
			}
			lefts = append(lefts, l)
		}
	}
	if w, ok, err := q.decorrelated(pred, kind, cols, lefts); ok || err != nil {
		return w, err
	}
	sc := &scope{cols: cols, parent: q.outer}
	inner, err := q.child(sc).resultSet(pred.query)
	if err != nil {
		return nil, err
	}
	icols := visible(inner.Schema())
	var cmp []expr.Expression
	if lefts != nil {
		if len(icols) != len(lefts) {
			return nil, sqlerr.New(mysql.ErrOperandColumns, len(lefts))
		}
		for i, l := range lefts {
			c, err := q.opExpr(pred.op, l, &expr.Column{Index: len(cols) + i, Name: icols[i].Name, Ft: icols[i].Ft})
			if err != nil {
				return nil, err
			}
			cmp = append(cmp, c)
		}
	}
	binds := sc.bindings(0)
	return func(p Plan) Plan {
		j := Join{Kind: kind, Left: p, Right: inner, Cmp: shiftRight(cmp, len(cols), len(p.Schema()))}
		if len(binds) == 0 {
			return q.newJoin(j)
		}
		a := &Apply{Join: j, Corr: binds}
		a.initSchema()
		return a
	}, nil
}

// shiftRight moves the right side's columns of conditions built over
// (n left columns, right) to follow width left columns instead.
func shiftRight(conds []expr.Expression, n, width int) []expr.Expression {
	if n == width {
		return conds
	}
	return remapAll(conds, func(i int) int {
		if i >= n {
			return i - n + width
		}
		return i
	})
}

// decorrelated plans a simple subquery (a SELECT without aggregation,
// LIMIT, or set operation) whose correlated names are all in top-level
// WHERE conjuncts or in the compared column as a join of the outer plan
// with the subquery's FROM: ok false when it is not such a subquery.
func (q *qbuilder) decorrelated(pred subqueryPred, kind JoinKind, cols []OutCol, lefts []expr.Expression) (func(Plan) Plan, bool, error) {
	st, ok := pred.query.(*ast.SelectStmt)
	if !ok || st.From == nil || st.GroupBy != nil || st.Having != nil || st.Limit != nil ||
		st.With != nil || len(st.WindowSpecs) > 0 || st.Kind != ast.SelectStmtKindSelect || len(collectAggs(st)) > 0 {
		return nil, false, nil
	}
	if lefts != nil {
		if len(st.Fields.Fields) != len(lefts) {
			return nil, false, nil
		}
		for _, f := range st.Fields.Fields {
			if f.WildCard != nil {
				return nil, false, nil
			}
		}
	}
	sc := &scope{cols: cols, parent: q.outer}
	iq := q.child(sc)
	ln, err := iq.from(st.From.TableRefs, map[string]bool{})
	if err != nil {
		return nil, false, err
	}
	if subs, err := ln.onSubqueries(nil); err != nil || len(subs) > 0 {
		return nil, false, nil // planned with its WHERE by the Apply path
	}
	var pulledE, localE []expr.Expression
	sqIn := iq.newSubqueries(ln.cols)
	if st.Where != nil {
		for _, c := range splitAndAST(st.Where, nil) {
			mark := len(sc.corr)
			e, err := iq.buildExpr(c, ln.cols, "where clause", sqIn, nil)
			if err != nil {
				return nil, false, err
			}
			if len(sc.corr) > mark {
				pulledE = append(pulledE, e)
			} else {
				localE = append(localE, e)
			}
		}
	}
	var fields []expr.Expression
	for i := range lefts {
		f, err := iq.buildExpr(st.Fields.Fields[i].Expr, ln.cols, "field list", nil, nil)
		if err != nil {
			return nil, false, nil // an aggregate or a subquery in the field: not simple
		}
		fields = append(fields, f)
	}
	// Every correlated column must be in the pulled conditions or the
	// field: one made anywhere else (a nested subquery) needs an Apply.
	mine := map[*expr.CorrelatedColumn]int{}
	for _, r := range sc.corr {
		mine[r.col] = r.outer
	}
	found := 0
	for _, e := range append(append([]expr.Expression(nil), pulledE...), fields...) {
		found += countCorrelated(e, mine)
	}
	if found != len(sc.corr) {
		return nil, false, nil
	}
	// The inner WHERE's own subqueries add columns the conditions read:
	// those conditions cannot filter an index join's lookups.
	innerSubqueries := len(sqIn.wraps) > 0
	if innerSubqueries {
		for _, e := range pulledE {
			for _, c := range expr.ExtractColumns(e) {
				if c.Index >= len(ln.cols) {
					return nil, false, nil
				}
			}
		}
	}
	inner, err := iq.wherePlan(ln, localE, sqIn)
	if err != nil {
		return nil, false, err
	}
	n := len(cols)
	rewrite := func(e expr.Expression) expr.Expression {
		out, _ := expr.Transform(e, func(x expr.Expression) (expr.Expression, error) {
			switch c := x.(type) {
			case *expr.CorrelatedColumn:
				if i, ok := mine[c]; ok {
					return &expr.Column{Index: i, Name: c.Name, Ft: c.Ft}, nil
				}
			case *expr.Column:
				return &expr.Column{Index: c.Index + n, Name: c.Name, Ft: c.Ft}, nil
			}
			return x, nil
		})
		return out
	}
	var conds, cmp []expr.Expression
	for _, e := range pulledE {
		conds = append(conds, rewrite(e))
	}
	for i, l := range lefts {
		c, err := q.opExpr(pred.op, l, rewrite(fields[i]))
		if err != nil {
			return nil, false, err
		}
		cmp = append(cmp, c)
	}
	return func(p Plan) Plan {
		w := len(p.Schema())
		j := q.newJoin(Join{Kind: kind, Left: p, Right: inner,
			Other: shiftRight(conds, n, w), Cmp: shiftRight(cmp, n, w)})
		if !innerSubqueries {
			iq.chooseAlgo(j, ln, localE, iq.estimate(p), iq.estimate(inner))
			j.BuildLeft = false
		}
		return j
	}, true, nil
}

// countCorrelated counts the correlated columns of e that are in set.
func countCorrelated(e expr.Expression, set map[*expr.CorrelatedColumn]int) int {
	n := 0
	_, _ = expr.Transform(e, func(x expr.Expression) (expr.Expression, error) {
		if c, ok := x.(*expr.CorrelatedColumn); ok {
			if _, in := set[c]; in {
				n++
			}
		}
		return x, nil
	})
	return n
}
