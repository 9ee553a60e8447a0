package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// deleteExec reads every row to delete, then removes each with its index
// entries.
type deleteExec struct {
	base
	p     *planner.Delete
	done  bool
	fkUse fkUse
}

func (e *deleteExec) Open(ctx context.Context) error {
	e.done = false
	return e.openChild(ctx)
}

func (e *deleteExec) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	t := e.p.Table
	fts := e.child.FieldTypes()
	hIdx := len(fts) - 1
	type victim struct {
		handle int64
		row    []types.Datum
	}
	var todo []victim
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			r := c.GetRow(i)
			row := make([]types.Datum, len(t.Columns))
			for j := range row {
				row[j] = r.GetDatum(j, fts[j]).Clone()
			}
			e.ectx.rowToStored(t, row)
			todo = append(todo, victim{handle: r.GetInt64(hIdx), row: row})
		}
		return nil
	})
	if err != nil {
		return err
	}
	fk := e.fkUse.state(e.ectx, e.p.InfoSchema, t)
	referenced := fk != nil && len(fk.is.ReferencingFKs(fk.dbOf(t), t.Name)) > 0
	for _, v := range todo {
		if referenced {
			// A cascade of an earlier row may have changed or deleted
			// this one (a self-referencing table).
			cur, ok, err := readRow(ctx, e.ectx.Txn, t, v.handle)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			v.row = cur
			if err := fk.onDelete(ctx, t, v.handle, v.row, 0); err != nil {
				return err
			}
		}
		if err := removeRow(e.ectx.Txn, t, v.handle, v.row); err != nil {
			return err
		}
		e.ectx.AffectedRows++
	}
	return nil
}
