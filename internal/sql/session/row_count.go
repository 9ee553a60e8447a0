package session

import "github.com/strata-db/strata/internal/sql/server"

// rowCount is ROW_COUNT()'s state. MySQL's ROW_COUNT() is what the
// previous statement did: the rows a DML statement changed (as its OK
// packet reports them), 0 after DDL and other statements without a result
// set, and -1 after a statement that returned a result set or failed, and
// on a new connection.
type rowCount struct {
	last int64 // of the last finished statement
	prev int64 // what ROW_COUNT() returns while a statement runs
}

func newRowCount() rowCount { return rowCount{last: -1, prev: -1} }

// start begins a statement: ROW_COUNT() in it sees the one before.
func (r *rowCount) start() { r.prev = r.last }

// finish records what the statement that returned res and err did.
func (r *rowCount) finish(res server.Result, err error) {
	if err != nil || res == nil || res.Columns() != nil {
		r.last = -1
		return
	}
	r.last = int64(res.AffectedRows())
}
