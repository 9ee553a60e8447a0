package exec

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// MemTables builds the rows of memory tables (information_schema) at
// execution time. The session implements it; the executor only reads
// the rows.
type MemTables interface {
	// Rows returns every row of db.table the session's user may see, one
	// datum per column of the table (handle excluded).
	Rows(ctx context.Context, db, table string) ([][]types.Datum, error)
}

var errNoMemTables = errors.New("exec: no memory tables in this context")

// memTableScan returns the rows of a memory table, then the row's
// position as its handle.
type memTableScan struct {
	base
	p    *planner.MemTableScan
	rows [][]types.Datum
	pos  int
}

func (e *memTableScan) Open(ctx context.Context) error {
	e.rows, e.pos = nil, 0
	if e.ectx.MemTables == nil {
		return errNoMemTables
	}
	rows, err := e.ectx.MemTables.Rows(ctx, e.p.DB, e.p.Table.Name)
	if err != nil {
		return err
	}
	e.rows = rows
	return nil
}

func (e *memTableScan) Next(_ context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	handle := e.p.HandleIndex()
	for ; e.pos < len(e.rows) && !chk.IsFull(); e.pos++ {
		row := e.rows[e.pos]
		for i := 0; i < handle; i++ {
			chk.AppendDatum(i, &row[i])
		}
		h := types.NewIntDatum(int64(e.pos + 1))
		chk.AppendDatum(handle, &h)
	}
	return nil
}

func (e *memTableScan) Close() error {
	e.rows = nil
	return nil
}
