package session

import (
	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/types"
)

// SELECT SQL_CALC_FOUND_ROWS ... LIMIT: FOUND_ROWS() afterwards is the
// number of rows without the LIMIT. As MySQL does, the statement reads
// them all: it runs without its LIMIT, and the session applies the LIMIT
// to the rows it sends (countedResult's window) while counting every row.

// takeCalcFoundRowsLimit takes the LIMIT off stmt when it is a SELECT
// SQL_CALC_FOUND_ROWS with one, and returns it (nil otherwise).
func takeCalcFoundRowsLimit(stmt ast.StmtNode) *ast.Limit {
	sel, ok := stmt.(*ast.SelectStmt)
	if !ok || sel.SelectStmtOpts == nil || !sel.SelectStmtOpts.CalcFoundRows || sel.Limit == nil {
		return nil
	}
	lim := sel.Limit
	sel.Limit = nil
	return lim
}

// applyLimit sends only lim's rows of the result of a statement run
// without lim (params are a prepared statement's), counting every row.
func (s *Session) applyLimit(res server.Result, err error, lim *ast.Limit, params []types.Datum) (server.Result, error) {
	if err != nil || res == nil || res.Columns() == nil {
		return res, err
	}
	q := s.newQueryCtx(params)
	skip, err := limitValue(q, lim.Offset, 0)
	if err != nil {
		res.Close()
		return nil, err
	}
	count, err := limitValue(q, lim.Count, ^uint64(0))
	if err != nil {
		res.Close()
		return nil, err
	}
	return &countedResult{Result: res, windowed: true, skip: skip, left: count}, nil
}

// limitValue evaluates a LIMIT or OFFSET value (def when absent) as the
// LIMIT operator does.
func limitValue(q *queryCtx, n ast.ExprNode, def uint64) (uint64, error) {
	if n == nil {
		return def, nil
	}
	e, err := expr.Build(q, n, nil)
	if err != nil {
		return 0, err
	}
	return exec.EvalLimit(q, e, def)
}
