package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// schema resolves column names against a plan's output columns; it
// implements expr.Schema and, when nodes is set, expr.NodeResolver (the
// aggregate results, VALUES(col) of ON DUPLICATE KEY UPDATE).
type schema struct {
	cols   []OutCol
	clause string
	nodes  func(ast.ExprNode) (expr.Expression, bool, error)
}

// Resolve implements expr.Schema.
func (s *schema) Resolve(db, table, column string) (int, *types.FieldType, error) {
	found := -1
	for i, c := range s.cols {
		if !strings.EqualFold(c.Name, column) || (c.QualifiedOnly && table == "") ||
			(table != "" && !strings.EqualFold(c.Table, table)) ||
			(db != "" && !strings.EqualFold(c.DB, db)) {
			continue
		}
		if found >= 0 && !sameSource(s.cols[found], c) {
			return 0, nil, expr.ErrAmbiguousColumn(column, s.clauseName())
		}
		if found < 0 {
			found = i
		}
	}
	if found < 0 {
		name := column
		if table != "" {
			name = table + "." + column
		}
		if db != "" {
			name = db + "." + name
		}
		return 0, nil, expr.ErrUnknownColumn(name, s.clauseName())
	}
	return found, s.cols[found].Ft, nil
}

// sameSource: a column repeated in a schema (a projected column also kept
// hidden) is not ambiguous.
func sameSource(a, b OutCol) bool {
	return strings.EqualFold(a.Table, b.Table) && strings.EqualFold(a.DB, b.DB)
}

// ResolveNode implements expr.NodeResolver.
func (s *schema) ResolveNode(n ast.ExprNode) (expr.Expression, bool, error) {
	if s.nodes == nil {
		return nil, false, nil
	}
	return s.nodes(n)
}

func (s *schema) clauseName() string {
	if s.clause == "" {
		return "field list"
	}
	return s.clause
}

// buildExpr builds node over cols.
func buildExpr(ctx Context, node ast.ExprNode, cols []OutCol, clause string) (expr.Expression, error) {
	return expr.Build(ctx, node, &schema{cols: cols, clause: clause})
}

// columnOf returns the expression reading output column i of cols.
func columnOf(cols []OutCol, i int) *expr.Column {
	return &expr.Column{Index: i, Name: cols[i].Name, Ft: cols[i].Ft}
}

// splitAnd flattens a conjunction.
func splitAnd(e expr.Expression, out []expr.Expression) []expr.Expression {
	if f, ok := e.(*expr.ScalarFunction); ok && f.Name == expr.FnAnd && len(f.Args) == 2 {
		out = splitAnd(f.Args[0], out)
		return splitAnd(f.Args[1], out)
	}
	return append(out, e)
}
