package planner

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// qbuilder plans one query level (a SELECT, a derived table, a
// subquery). outer is the enclosing level's scope for correlated names.
type qbuilder struct {
	ctx   Context
	outer *scope
	hints *hints
	ctes  *cteScope
}

// resultSet plans a SELECT or a set operation.
func (q *qbuilder) resultSet(n ast.ResultSetNode) (Plan, error) {
	switch x := n.(type) {
	case *ast.SelectStmt:
		return q.selectStmt(x)
	case *ast.SetOprStmt:
		return q.setOpr(x)
	case *ast.SubqueryExpr:
		return q.resultSet(x.Query)
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this query")
}

// subqueries collects the operators that compute the subqueries of the
// expressions built over one plan: each wrap puts an Apply or a join on
// the plan, adding a column (at position width, then width+1, ...) the
// expression reads.
type subqueries struct {
	cols  []OutCol // the plan's columns the expressions resolve against
	width int      // the plan's width once the wraps so far are applied
	wraps []func(Plan) Plan
}

func (q *qbuilder) newSubqueries(cols []OutCol) *subqueries {
	return &subqueries{cols: cols, width: len(cols)}
}

// apply puts the collected operators on p.
func (sq *subqueries) apply(p Plan) Plan {
	for _, w := range sq.wraps {
		p = w(p)
	}
	sq.wraps = nil
	return p
}

// buildExpr builds node over cols: subqueries become operators collected
// in sq (nil: subqueries are refused), names not in cols are looked up in
// the enclosing queries, extra maps nodes first (aggregates, aliases).
func (q *qbuilder) buildExpr(node ast.ExprNode, cols []OutCol, clause string, sq *subqueries,
	extra func(ast.ExprNode) (expr.Expression, bool, error)) (expr.Expression, error) {
	return expr.Build(q.ctx, node, q.schemaFor(cols, clause, sq, extra))
}

// schemaFor is the name resolution of buildExpr.
func (q *qbuilder) schemaFor(cols []OutCol, clause string, sq *subqueries,
	extra func(ast.ExprNode) (expr.Expression, bool, error)) *schema {
	s := &schema{cols: cols, clause: clause}
	s.nodes = func(n ast.ExprNode) (expr.Expression, bool, error) {
		if extra != nil {
			if e, ok, err := extra(n); ok || err != nil {
				return e, ok, err
			}
		}
		switch x := n.(type) {
		case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr, *ast.PatternInExpr:
			if in, ok := x.(*ast.PatternInExpr); ok && in.Sel == nil {
				return nil, false, nil // an IN list: the builder's
			}
			if sq == nil {
				return nil, false, sqlerr.New(sqlerr.ErrNotSupportedYet, "subqueries here")
			}
			e, err := q.subqueryValue(x, sq, s)
			return e, err == nil, err
		case *ast.ColumnNameExpr:
			if q.outer == nil {
				return nil, false, nil
			}
			_, _, err := s.Resolve(x.Name.Schema.O, x.Name.Table.O, x.Name.Name.O)
			var se *sqlerr.Error
			if err == nil || !errors.As(err, &se) || se.Code != sqlerr.ErrBadField {
				return nil, false, nil
			}
			return q.outer.resolveOuter(x)
		}
		return nil, false, nil
	}
	return s
}

// placeholder is an AST node standing for an already built expression
// inside an AST built by the planner (IN's comparison, USING's equality),
// so that expr.Build types it as MySQL would the written operator.
type placeholder struct {
	ast.ColumnNameExpr
	e expr.Expression
}

// opExpr builds `a op b` (a comparison) over already built operands.
func (q *qbuilder) opExpr(op opcode.Op, a, b expr.Expression) (expr.Expression, error) {
	pa, pb := &placeholder{e: a}, &placeholder{e: b}
	pa.Name, pb.Name = &ast.ColumnName{}, &ast.ColumnName{}
	node := &ast.BinaryOperationExpr{Op: op, L: pa, R: pb}
	return expr.Build(q.ctx, node, &schema{nodes: resolvePlaceholders})
}

// eqExpr builds a = b.
func (q *qbuilder) eqExpr(a, b expr.Expression) (expr.Expression, error) {
	return q.opExpr(opcode.EQ, a, b)
}

func resolvePlaceholders(n ast.ExprNode) (expr.Expression, bool, error) {
	if p, ok := n.(*placeholder); ok {
		return p.e, true, nil
	}
	return nil, false, nil
}

// splitAndAST flattens an AST conjunction.
func splitAndAST(e ast.ExprNode, out []ast.ExprNode) []ast.ExprNode {
	switch x := e.(type) {
	case *ast.BinaryOperationExpr:
		if x.Op == opcode.LogicAnd {
			return splitAndAST(x.R, splitAndAST(x.L, out))
		}
	case *ast.ParenthesesExpr:
		return splitAndAST(x.Expr, out)
	}
	return append(out, e)
}
