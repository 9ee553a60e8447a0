package exec

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
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
	// fresh marks assignments reading earlier-assigned columns.
	fresh []bool
	writeRules
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
	if err := e.prepareRules(); err != nil {
		return err
	}
	fts := e.child.FieldTypes()
	hIdx := len(fts) - 1
	type pending struct {
		handle   int64
		old, new []types.Datum
	}
	var todo []pending
	rowNum := 0
	if e.fresh == nil {
		e.fresh = freshAssigns(e.p.Assigns)
	}
	fresh := e.fresh
	var scratch *chunk.Chunk
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			rowNum++
			r := c.GetRow(i)
			old := make([]types.Datum, len(t.Columns))
			for j := range old {
				old[j] = r.GetDatum(j, fts[j]).Clone()
			}
			e.ectx.rowToStored(t, old)
			upd := append([]types.Datum(nil), old...)
			for ai, a := range e.p.Assigns {
				col := t.Columns[a.Col]
				var d types.Datum
				if a.Expr == nil {
					d, _ = col.GetDefault(e.ectx.Now)
				} else {
					// MySQL evaluates assignments left to right: a later
					// one reads the new values of earlier ones.
					src := r
					if fresh[ai] {
						if scratch == nil {
							scratch = chunk.New(fts, 1)
						}
						scratch.Reset()
						for j := range upd {
							scratch.AppendDatum(j, &upd[j])
						}
						// A multi-table UPDATE's input has the join's
						// columns between the table's and the handle.
						for j := len(upd); j < hIdx; j++ {
							d := r.GetDatum(j, fts[j])
							scratch.AppendDatum(j, &d)
						}
						scratch.AppendInt64(hIdx, r.GetInt64(hIdx))
						src = scratch.GetRow(0)
					}
					v, err := a.Expr.Eval(e.ectx.Eval, src)
					if err == nil {
						err = e.ectx.strictErr()
					}
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
			touchOnUpdate(e.ectx, t, old, upd, e.assigned)
			if err := e.rules.apply(e.ectx, upd, rowNum, true); err != nil {
				if e.p.Ignore && errors.Is(err, errCheckViolated) {
					e.ectx.Eval.AppendWarning(err)
					continue
				}
				return err
			}
			todo = append(todo, pending{handle: r.GetInt64(hIdx), old: old, new: upd})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range todo {
		changed, err := e.writeRow(ctx, p.handle, p.old, p.new)
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

// freshAssigns marks the assignments that read a column assigned before
// them (evaluated over the partly updated row).
func freshAssigns(as []planner.Assignment) []bool {
	out := make([]bool, len(as))
	assigned := map[int]bool{}
	for i, a := range as {
		if a.Expr != nil {
			for _, c := range expr.ExtractColumns(a.Expr) {
				if assigned[c.Index] {
					out[i] = true
				}
			}
		}
		assigned[a.Col] = true
	}
	return out
}

// assigned reports whether the statement assigns column off.
func (e *update) assigned(off int) bool {
	for _, a := range e.p.Assigns {
		if a.Col == off {
			return true
		}
	}
	return false
}

// prepareRules readies the table's rules (3105 for an assignment to a
// generated column other than DEFAULT).
func (e *update) prepareRules() error {
	t := e.p.Table
	for _, a := range e.p.Assigns {
		if c := t.Columns[a.Col]; c.IsGenerated() && a.Expr != nil {
			return badGeneratedValue(t, c)
		}
	}
	return e.prepare(e.ectx, e.p.InfoSchema, t)
}

// writeRow checks the new row's foreign keys, acts on the children of
// the old one, and writes it.
func (e *update) writeRow(ctx context.Context, handle int64, old, new []types.Datum) (bool, error) {
	t := e.p.Table
	if e.fk != nil && !rowsEqual(old, new) {
		if err := e.fk.checkChild(ctx, t, old, new); err != nil {
			return false, err
		}
		if err := e.fk.onUpdate(ctx, t, handle, old, new, 0); err != nil {
			return false, err
		}
	}
	return updateRow(ctx, e.ectx, t, handle, old, new)
}
