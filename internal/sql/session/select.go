package session

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// noColumns is the schema of a SELECT without FROM: every column name is
// unknown (1054).
type noColumns struct{}

func (noColumns) Resolve(db, table, column string) (int, *types.FieldType, error) {
	return 0, nil, sqlerr.New(sqlerr.ErrBadField, column, "field list")
}

// execSelectNoFrom runs SELECT of expressions without a table (SELECT
// @@version_comment LIMIT 1, SELECT DATABASE(), SELECT 1+1, ...): one row,
// or none under LIMIT 0.
func (s *Session) execSelectNoFrom(ctx context.Context, st *ast.SelectStmt) (server.Result, error) {
	qc := s.newQueryCtx(nil)
	var (
		names []string
		fts   []*types.FieldType
		row   []types.Datum
	)
	for _, f := range st.Fields.Fields {
		if f.WildCard != nil {
			return nil, errNoTablesUsed
		}
		e, err := expr.Build(qc, f.Expr, noColumns{})
		if err != nil {
			return nil, err
		}
		v, err := e.Eval(qc, chunk.Row{})
		if err != nil {
			return nil, err
		}
		name := f.AsName.O
		if name == "" {
			name = f.Text()
		}
		names = append(names, name)
		fts = append(fts, e.Type())
		row = append(row, v)
	}
	rows := [][]types.Datum{row}
	if st.Limit != nil {
		if c, ok := st.Limit.Count.(ast.ValueExpr); ok && c.GetString() == "0" {
			rows = nil
		}
	}
	return newRowsResult(names, fts, rows), nil
}

// simpleNoFrom reports a SELECT of expressions without a table, WHERE,
// grouping or subquery: the ones execSelectNoFrom evaluates directly.
// Others go through the planner (over a one-row table).
func simpleNoFrom(st *ast.SelectStmt) bool {
	if st.From != nil || st.Where != nil || st.GroupBy != nil || st.Having != nil || st.OrderBy != nil ||
		st.Kind != ast.SelectStmtKindSelect || st.With != nil {
		return false
	}
	v := &subqueryFinder{}
	st.Fields.Accept(v)
	return !v.found
}

// subqueryFinder looks for a subquery or an aggregate.
type subqueryFinder struct{ found bool }

func (v *subqueryFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.SubqueryExpr, *ast.AggregateFuncExpr:
		v.found = true
		return n, true
	}
	return n, v.found
}

func (v *subqueryFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
