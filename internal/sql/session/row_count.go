package session

import (
	"context"

	"github.com/strata-db/strata/internal/sql/server"
)

// rowCount is the state of ROW_COUNT() and FOUND_ROWS().
//
// MySQL's ROW_COUNT() is what the previous statement did: the rows a DML
// statement changed (as its OK packet reports them), 0 after DDL and other
// statements without a result set, and -1 after a statement that returned
// a result set or failed, and on a new connection.
//
// FOUND_ROWS() is the number of rows the last statement that returned a
// result set sent (SELECT, SHOW, ...), or without its LIMIT for a SELECT
// SQL_CALC_FOUND_ROWS; statements without a result set leave it.
// The rows are counted as the server reads them, so the count is taken
// when the next statement starts.
type rowCount struct {
	last int64 // of the last finished statement
	prev int64 // what ROW_COUNT() returns while a statement runs

	found     int64          // what FOUND_ROWS() returns while a statement runs
	lastFound int64          // rows of the last result set already counted
	counting  *countedResult // the last result set, while it may be read
}

func newRowCount() rowCount { return rowCount{last: -1, prev: -1} }

// start begins a statement: ROW_COUNT() and FOUND_ROWS() in it see the
// statements before.
func (r *rowCount) start() {
	r.prev = r.last
	if r.counting != nil {
		r.lastFound, r.counting = r.counting.n, nil
	}
	r.found = r.lastFound
}

// finish records what the statement that returned res and err did, and
// returns the result to send: a result set comes back wrapped, to count
// its rows.
func (r *rowCount) finish(res server.Result, err error) server.Result {
	if err != nil || res == nil {
		r.last = -1
		return res
	}
	if res.Columns() != nil {
		r.last = -1
		c, ok := res.(*countedResult) // windowed by applyLimit
		if !ok {
			c = &countedResult{Result: res}
		}
		r.counting = c
		return c
	}
	r.last = int64(res.AffectedRows())
	return res
}

// countedResult is a result set that counts the rows read from it. When
// windowed (SQL_CALC_FOUND_ROWS), it sends only the rows of its window
// (skip, then left) and reads the rest, counting them too.
type countedResult struct {
	server.Result
	n int64

	windowed   bool
	skip, left uint64
}

// Next implements server.Result.
func (c *countedResult) Next(ctx context.Context) ([]server.Row, error) {
	for {
		rows, err := c.Result.Next(ctx)
		c.n += int64(len(rows))
		if !c.windowed || err != nil || len(rows) == 0 {
			return rows, err
		}
		if c.skip >= uint64(len(rows)) {
			c.skip -= uint64(len(rows))
			continue
		}
		rows, c.skip = rows[c.skip:], 0
		rows = rows[:min(uint64(len(rows)), c.left)]
		if len(rows) == 0 {
			continue // past the window: count the rest
		}
		c.left -= uint64(len(rows))
		return rows, nil
	}
}
