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

// SELECT SQL_CALC_FOUND_ROWS ... LIMIT: FOUND_ROWS() afterwards is the
// number of rows without the LIMIT. As MySQL does, the statement reads
// them all: it runs without its LIMIT, and the session applies the LIMIT
// to the rows it sends while counting every row.

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
	return &limitedResult{Result: res, skip: skip, left: count}, nil
}

// limitValue evaluates a LIMIT or OFFSET value (def when absent), with
// the LIMIT operator's rule: a non-negative integer, else 1210.
func limitValue(q *queryCtx, n ast.ExprNode, def uint64) (uint64, error) {
	if n == nil {
		return def, nil
	}
	e, err := expr.Build(q, n, nil)
	if err != nil {
		return 0, err
	}
	d, err := e.Eval(q, chunk.Row{})
	if err != nil {
		return 0, err
	}
	v, err := d.ToInt64()
	if err != nil || d.IsNull() || v < 0 {
		return 0, sqlerr.New(sqlerr.ErrWrongArguments, "LIMIT")
	}
	return uint64(v), nil
}

// limitedResult passes on the rows of its window (skip, then left) and
// reads the rest, counting every row.
type limitedResult struct {
	server.Result
	skip, left uint64
	total      int64
}

// Next implements server.Result.
func (l *limitedResult) Next(ctx context.Context) ([]server.Row, error) {
	for {
		rows, err := l.Result.Next(ctx)
		if err != nil || len(rows) == 0 {
			return nil, err
		}
		l.total += int64(len(rows))
		if l.skip >= uint64(len(rows)) {
			l.skip -= uint64(len(rows))
			continue
		}
		rows, l.skip = rows[l.skip:], 0
		if uint64(len(rows)) > l.left {
			rows = rows[:l.left]
		}
		if len(rows) == 0 {
			continue // past the window: count the rest
		}
		l.left -= uint64(len(rows))
		return rows, nil
	}
}

// foundRows is FOUND_ROWS() after the result was read.
func (l *limitedResult) foundRows() int64 { return l.total }
