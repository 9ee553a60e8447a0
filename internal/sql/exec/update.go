package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// update reads every row to change first (so that its own writes never
// feed back into the scan), then evaluates the assignments over each old
// row and writes the rows that changed (MySQL counts only those).
type update struct {
	base
	p    *planner.Update
	done bool
}

func (e *update) Open(ctx context.Context) error {
	e.done = false
	return e.openChild(ctx)
}

func (e *update) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	t := e.p.Table
	fts := e.child.FieldTypes()
	hIdx := len(fts) - 1
	type pending struct {
		handle   int64
		old, new []types.Datum
	}
	var todo []pending
	rowNum := 0
	err := Drain(ctx, e.child, e.ectx.chunkSize(), func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			rowNum++
			r := c.GetRow(i)
			old := make([]types.Datum, len(t.Columns))
			for j := range old {
				old[j] = r.GetDatum(j, fts[j]).Clone()
			}
			upd := append([]types.Datum(nil), old...)
			for _, a := range e.p.Assigns {
				col := t.Columns[a.Col]
				var d types.Datum
				if a.Expr == nil {
					d, _ = col.GetDefault(e.ectx.Now)
				} else {
					v, err := a.Expr.Eval(e.ectx.Eval, r)
					if err != nil {
						return err
					}
					d = v
				}
				v, err := castValue(e.ectx, col, d, rowNum)
				if err != nil {
					return err
				}
				upd[a.Col] = v.Clone()
			}
			todo = append(todo, pending{handle: r.GetInt64(hIdx), old: old, new: upd})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range todo {
		changed, err := updateRow(ctx, e.ectx, t, p.handle, p.old, p.new)
		if err != nil {
			if e.p.Ignore {
				e.ectx.Eval.AppendWarning(err)
				continue
			}
			return err
		}
		if changed {
			e.ectx.AffectedRows++
		}
	}
	return nil
}
