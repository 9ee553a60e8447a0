package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// innerOnSubqueries takes from the ON condition of outer join n the
// conjuncts with subqueries that read only the inner side, when that
// side is a table: they filter the inner rows before the join, which is
// what they do in the ON of an outer join (an inner row failing them
// matches no outer row). The table's rows are read through that filter
// (n's inner lnode gets a plan; its table stays for DML and hints). It
// returns the remaining conjuncts (nil: none). A conjunct with a
// subquery that also reads the outer side is still 1235.
func (q *qbuilder) innerOnSubqueries(n *lnode, on ast.ExprNode) (ast.ExprNode, error) {
	inner, outer := n.r, n.l
	if n.rightJn {
		inner, outer = n.l, n.r
	}
	var rest, sub []ast.ExprNode
	for _, c := range splitAndAST(on, nil) {
		switch {
		case !hasSubquery(c):
			rest = append(rest, c)
		case inner.isJoin() || inner.table == nil || inner.plan != nil || IsMemTable(inner.table.DB) || readsCols(c, outer.cols):
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "subqueries in ON under an outer join")
		default:
			sub = append(sub, c)
		}
	}
	if len(sub) == 0 {
		return on, nil
	}
	sq := q.newSubqueries(inner.cols)
	cond, err := q.buildExpr(andAST(sub), inner.cols, "on clause", sq, nil)
	if err != nil {
		return nil, err
	}
	base := q.physical(inner, nil)
	inner.plan = trimTo(&Selection{Child: sq.apply(base), Conds: splitAnd(cond, nil)}, len(inner.cols))
	if len(rest) == 0 {
		return nil, nil
	}
	return andAST(rest), nil
}

// readsCols reports whether any column name in e (subqueries included)
// names one of cols: conservative, as a name inside a subquery may be
// its own table's.
func readsCols(e ast.ExprNode, cols []OutCol) bool {
	s := &schema{cols: cols}
	return anyNode(e, func(n ast.Node) bool {
		c, ok := n.(*ast.ColumnNameExpr)
		if !ok {
			return false
		}
		_, _, err := s.Resolve(c.Name.Schema.O, c.Name.Table.O, c.Name.Name.O)
		return err == nil
	})
}

// andAST joins conjuncts with AND.
func andAST(cs []ast.ExprNode) ast.ExprNode {
	out := cs[0]
	for _, c := range cs[1:] {
		out = &ast.BinaryOperationExpr{Op: opcode.LogicAnd, L: out, R: c}
	}
	return out
}
