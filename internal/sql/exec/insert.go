package exec

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// insert runs INSERT, INSERT IGNORE, REPLACE and INSERT ... ON DUPLICATE
// KEY UPDATE: every row is completed with defaults, converted to the
// column types, given a handle (and an AUTO_INCREMENT value), checked
// for duplicates against the transaction's view and written with its
// index entries.
type insert struct {
	base
	p      *planner.Insert
	rowNum int
	done   bool
	// dupChk holds the conflicting row followed by the new one, for the
	// ON DUPLICATE KEY UPDATE assignments.
	dupChk *chunk.Chunk
	writeRules
}

func (e *insert) Open(ctx context.Context) error {
	e.rowNum, e.done = 0, false
	return e.openChild(ctx)
}

func (e *insert) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	t := e.p.Table
	if err := e.prepare(e.ectx, e.p.InfoSchema, t); err != nil {
		return err
	}
	batch := !e.p.Replace && len(e.p.OnDup) == 0
	var built []builtRow
	vals := make([]types.Datum, len(e.p.Columns))
	for _, exprs := range e.p.Rows {
		e.rowNum++
		for i, x := range exprs {
			if x == nil {
				vals[i] = types.Datum{}
				continue
			}
			d, err := x.Eval(e.ectx.Eval, chunk.Row{})
			if err == nil {
				err = e.ectx.strictErr()
			}
			if err != nil {
				return err
			}
			vals[i] = d
		}
		if !batch {
			if err := e.insertRow(ctx, t, vals, exprs); err != nil {
				return err
			}
			continue
		}
		row, h, err := e.buildRow(ctx, t, vals, exprs)
		if errors.Is(err, errSkipRow) {
			continue
		}
		if err != nil {
			return err
		}
		built = append(built, builtRow{row: row, handle: h})
	}
	if e.child == nil {
		if batch {
			return e.insertBatch(ctx, t, built)
		}
		return nil
	}
	// INSERT ... SELECT: read everything first (the select may read the
	// table being written).
	var rows [][]types.Datum
	fts := e.child.FieldTypes()
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			r := c.GetRow(i).GetDatums(fts)
			for j := range r {
				r[j] = r[j].Clone()
			}
			rows = append(rows, r)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range rows {
		e.rowNum++
		if !batch {
			if err := e.insertRow(ctx, t, r, nil); err != nil {
				return err
			}
			continue
		}
		row, h, err := e.buildRow(ctx, t, r, nil)
		if errors.Is(err, errSkipRow) {
			continue
		}
		if err != nil {
			return err
		}
		built = append(built, builtRow{row: row, handle: h})
	}
	if batch {
		return e.insertBatch(ctx, t, built)
	}
	return nil
}

// insertRow inserts one row given the values of the statement's columns
// (exprs, when given, marks DEFAULT by a nil entry).
func (e *insert) insertRow(ctx context.Context, t *catalog.TableInfo, vals []types.Datum, exprs []expr.Expression) error {
	row, handle, err := e.buildRow(ctx, t, vals, exprs)
	if errors.Is(err, errSkipRow) {
		return nil
	}
	if err != nil {
		return err
	}
	return e.writeNew(ctx, t, row, handle)
}

// buildRow completes one row with defaults and its AUTO_INCREMENT value,
// converts it to the column types and gives it a handle.
func (e *insert) buildRow(ctx context.Context, t *catalog.TableInfo, vals []types.Datum, exprs []expr.Expression) ([]types.Datum, int64, error) {
	row := make([]types.Datum, len(t.Columns))
	given := make([]bool, len(t.Columns))
	for i, off := range e.p.Columns {
		if exprs != nil && exprs[i] == nil {
			continue
		}
		if t.Columns[off].IsGenerated() {
			return nil, 0, badGeneratedValue(t, t.Columns[off])
		}
		row[off], given[off] = vals[i], true
	}
	for _, c := range t.Columns {
		if given[c.Offset] || c.IsGenerated() {
			continue
		}
		d, ok := c.GetDefault(e.ectx.Now)
		if !ok && !c.AutoIncrement {
			err := sqlerr.New(sqlerr.ErrNoDefaultForField, c.Name)
			if e.ectx.Strict && !e.p.Ignore {
				return nil, 0, err
			}
			e.ectx.Eval.AppendWarning(err)
			d = c.ZeroValue()
		}
		row[c.Offset] = d
	}
	if err := e.autoIncrement(ctx, t, row); err != nil {
		return nil, 0, err
	}
	// INSERT IGNORE stores adjusted values with warnings, as non-strict
	// mode does.
	strict := e.ectx.Strict
	e.ectx.Strict = strict && !e.p.Ignore
	defer func() { e.ectx.Strict = strict }()
	for _, c := range t.Columns {
		if c.IsGenerated() {
			continue
		}
		d, err := castValue(e.ectx, c, row[c.Offset], e.rowNum)
		if err != nil {
			return nil, 0, err
		}
		row[c.Offset] = d
	}
	if err := e.rules.apply(e.ectx, row, e.rowNum, true); err != nil {
		if e.p.Ignore && errors.Is(err, errCheckViolated) {
			e.ectx.Eval.AppendWarning(err)
			return nil, 0, errSkipRow
		}
		return nil, 0, err
	}
	handle, ok := t.Handle(row)
	if !ok {
		h, _, err := e.ectx.Alloc.Alloc(ctx, t.ID, 1)
		if err != nil {
			return nil, 0, err
		}
		handle = h
	}
	return row, handle, nil
}

// writeNew writes a built row, resolving a duplicate key as the statement
// says (REPLACE, ON DUPLICATE KEY UPDATE, IGNORE, or 1062).
func (e *insert) writeNew(ctx context.Context, t *catalog.TableInfo, row []types.Datum, handle int64) error {
	for attempt := 0; ; attempt++ {
		other, idx, found, err := findConflict(ctx, e.ectx.Txn, t, handle, row, t.PKIsHandle)
		if err != nil {
			return err
		}
		if !found {
			break
		}
		switch {
		case e.p.Replace && attempt < 64:
			old, ok, err := readRow(ctx, e.ectx.Txn, t, other)
			if err != nil {
				return err
			}
			if ok {
				if rowsEqual(old, row) && other == handle {
					e.ectx.AffectedRows++
					return nil
				}
				// REPLACE deletes the old row: its children are acted on.
				if err := e.fk.onDelete(ctx, t, other, old, 0); err != nil {
					return err
				}
				if err := removeRow(e.ectx.Txn, t, other, old); err != nil {
					return err
				}
				e.ectx.AffectedRows++
			}
			continue
		case len(e.p.OnDup) > 0:
			return e.onDuplicate(ctx, t, other, row)
		}
		return e.ignorable(dupError(t, idx, row))
	}
	if err := e.fk.checkChild(ctx, t, nil, row); err != nil {
		return e.ignorable(err)
	}
	if err := writeRow(e.ectx.Txn, t, handle, row); err != nil {
		return err
	}
	e.ectx.AffectedRows++
	return nil
}

// ignorable turns err into a warning for INSERT IGNORE (the row is
// skipped).
func (e *insert) ignorable(err error) error {
	if !e.p.Ignore {
		return err
	}
	e.ectx.Eval.AppendWarning(err)
	return nil
}

// autoIncrement fills a NULL (or 0) AUTO_INCREMENT value from the
// allocator, or moves the allocator past an explicit one.
func (e *insert) autoIncrement(ctx context.Context, t *catalog.TableInfo, row []types.Datum) error {
	c := t.AutoIncrementColumn()
	if c == nil {
		return nil
	}
	d := row[c.Offset]
	if !d.IsNull() {
		v, err := d.ToInt64()
		if err == nil && (v != 0 || e.ectx.NoAutoValueOnZero) {
			if v > 0 {
				return e.ectx.Alloc.Rebase(ctx, t.ID, v)
			}
			return nil
		}
	}
	id, _, err := e.ectx.Alloc.Alloc(ctx, t.ID, 1)
	if err != nil {
		return err
	}
	if e.ectx.LastInsertID == 0 {
		e.ectx.LastInsertID = uint64(id)
	}
	if c.FieldType.IsUnsigned() {
		row[c.Offset] = types.NewUintDatum(uint64(id))
	} else {
		row[c.Offset] = types.NewIntDatum(id)
	}
	return nil
}

// onDuplicate applies the ON DUPLICATE KEY UPDATE assignments to the row
// stored under handle: 2 affected rows when it changed, 0 otherwise.
func (e *insert) onDuplicate(ctx context.Context, t *catalog.TableInfo, handle int64, newRow []types.Datum) error {
	old, ok, err := readRow(ctx, e.ectx.Txn, t, handle)
	if err != nil || !ok {
		return err
	}
	if e.dupChk == nil {
		fts := make([]*types.FieldType, 0, 2*len(t.Columns)+1)
		for _, c := range t.Columns {
			fts = append(fts, &c.FieldType)
		}
		fts = append(fts, types.NewFieldType(8))
		for _, c := range t.Columns {
			fts = append(fts, &c.FieldType)
		}
		e.dupChk = chunk.New(fts, 1)
	}
	e.dupChk.Reset()
	for i := range old {
		e.dupChk.AppendDatum(i, &old[i])
	}
	e.dupChk.AppendInt64(len(old), handle)
	for i := range newRow {
		e.dupChk.AppendDatum(len(old)+1+i, &newRow[i])
	}
	r := e.dupChk.GetRow(0)
	upd := append([]types.Datum(nil), old...)
	for _, a := range e.p.OnDup {
		c := t.Columns[a.Col]
		var d types.Datum
		if c.IsGenerated() {
			if a.Expr != nil {
				return badGeneratedValue(t, c)
			}
			continue
		}
		if a.Expr == nil {
			d, _ = c.GetDefault(e.ectx.Now)
		} else if d, err = a.Expr.Eval(e.ectx.Eval, r); err != nil {
			return err
		} else if err = e.ectx.strictErr(); err != nil {
			return err
		}
		if upd[a.Col], err = castValue(e.ectx, c, d, e.rowNum); err != nil {
			return err
		}
		upd[a.Col] = upd[a.Col].Clone()
	}
	touchOnUpdate(e.ectx, t, old, upd, func(off int) bool {
		for _, a := range e.p.OnDup {
			if a.Col == off {
				return true
			}
		}
		return false
	})
	if err := e.rules.apply(e.ectx, upd, e.rowNum, true); err != nil {
		return e.ignorable(err)
	}
	if e.fk != nil && !rowsEqual(old, upd) {
		if err := e.fk.checkChild(ctx, t, old, upd); err != nil {
			return e.ignorable(err)
		}
		if err := e.fk.onUpdate(ctx, t, handle, old, upd, 0); err != nil {
			return err
		}
	}
	changed, err := updateRow(ctx, e.ectx, t, handle, old, upd)
	if err != nil {
		return e.ignorable(err)
	}
	if changed {
		e.ectx.AffectedRows += 2
	}
	return nil
}
