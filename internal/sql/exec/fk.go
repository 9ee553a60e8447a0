package exec

import (
	"context"
	"strings"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// Foreign keys, enforced as InnoDB does, row by row while the statement
// writes, when foreign_key_checks is on:
//
//   - a child row written (INSERT, or UPDATE changing its key columns)
//     needs a parent row holding its non-NULL key values, found through
//     the parent's index in the statement's transaction (1452). A row may
//     be its own parent. In a pessimistic transaction the keys read to
//     find the parent are added to Context.LockKeys, so the session locks
//     them with the statement's writes: a concurrent delete of the parent
//     waits for this transaction, then sees the child (as TiDB does).
//   - a parent row deleted, or updated on referenced columns, has its
//     children found through the child's index: RESTRICT and NO ACTION
//     refuse (1451), CASCADE deletes or updates them and SET NULL clears
//     their key columns, recursively, nesting at most 15 deep (3008).
//     Cascaded child rows get their generated columns recomputed; CHECK
//     constraints are not evaluated on them (MySQL forbids CHECKs on
//     columns a referential action changes).
//
// With foreign_key_checks off nothing is checked and nothing cascades.

// fkState is the foreign-key work of one statement execution (nil when
// foreign_key_checks is off).
type fkState struct {
	ectx  *Context
	is    *catalog.InfoSchema
	rules map[int64]*rowRules // of tables changed by cascades
}

// newFKState returns the statement's FK state: nil when
// foreign_key_checks is off or the plan carries no schema.
func newFKState(ectx *Context, is *catalog.InfoSchema) *fkState {
	if is == nil || !fkChecksOn(ectx) {
		return nil
	}
	return &fkState{ectx: ectx, is: is}
}

// fkUse is a write executor's knowledge of whether its table takes part
// in a foreign key, as child or parent: learnt on the first execution
// (the plan, and so its schema, is the executor's for life), so that
// the writes of a table without foreign keys, the common case, read no
// system variable and look up no referencing keys.
type fkUse struct {
	known, used bool
}

// state returns this execution's FK state for writes to t: nil when t
// takes no part in a foreign key, or as newFKState.
func (u *fkUse) state(ectx *Context, is *catalog.InfoSchema, t *catalog.TableInfo) *fkState {
	if !u.known {
		u.known = true
		u.used = is != nil && (len(t.ForeignKeys) > 0 || len(is.ReferencingFKs(dbName(is, t), t.Name)) > 0)
	}
	if !u.used {
		return nil
	}
	return newFKState(ectx, is)
}

// fkChecksOn reads foreign_key_checks (ON when it cannot be read).
func fkChecksOn(ectx *Context) bool {
	v, err := ectx.Eval.GetSysVar("foreign_key_checks", false)
	if err != nil {
		return true
	}
	switch strings.ToUpper(v) {
	case "0", "OFF":
		return false
	}
	return true
}

func (f *fkState) dbOf(t *catalog.TableInfo) string { return dbName(f.is, t) }

// dbName names t's database in is ("" when it is not there).
func dbName(is *catalog.InfoSchema, t *catalog.TableInfo) string {
	if db, ok := is.DatabaseByID(t.DBID); ok {
		return db.Name
	}
	return ""
}

// fkValues returns row's values at offs, false when one is NULL (a key
// with a NULL references nothing) or a column is missing.
func fkValues(row []types.Datum, offs []int) ([]types.Datum, bool) {
	vals := make([]types.Datum, len(offs))
	for i, off := range offs {
		if off < 0 || row[off].IsNull() {
			return nil, false
		}
		vals[i] = row[off]
	}
	return vals, true
}

// fkChanged reports whether old and new differ at offs.
func fkChanged(old, new []types.Datum, offs []int) bool {
	for _, off := range offs {
		if off < 0 {
			continue
		}
		if old[off].IsNull() != new[off].IsNull() {
			return true
		}
		if !old[off].IsNull() && old[off].Compare(&new[off]) != 0 {
			return true
		}
	}
	return false
}

// selfReference reports whether row holds vals in its own referenced
// columns (refOffs): a row that is its own parent.
func selfReference(row []types.Datum, refOffs []int, vals []types.Datum) bool {
	for i, off := range refOffs {
		if off < 0 || row[off].IsNull() || row[off].Compare(&vals[i]) != 0 {
			return false
		}
	}
	return true
}

// checkChild returns 1452 unless every foreign key of t whose columns
// row sets (old nil: a new row; else the columns changed) has a parent
// row.
func (f *fkState) checkChild(ctx context.Context, t *catalog.TableInfo, old, row []types.Datum) error {
	if f == nil || len(t.ForeignKeys) == 0 {
		return nil
	}
	db := f.dbOf(t)
	for _, fk := range t.ForeignKeys {
		offs := t.FKColumnOffsets(fk.Cols)
		vals, ok := fkValues(row, offs)
		if !ok || (old != nil && !fkChanged(old, row, offs)) {
			continue
		}
		parent, err := f.is.Table(fk.RefDB, fk.RefTable)
		if err != nil {
			return catalog.NoReferencedRowError(db, t, fk)
		}
		refOffs := parent.FKColumnOffsets(fk.RefCols)
		if parent.ID == t.ID && selfReference(row, refOffs, vals) {
			continue // the row references itself
		}
		li, ok := parent.IndexFor(fk.RefCols)
		if !ok {
			return catalog.NoReferencedRowError(db, t, fk)
		}
		_, keys, found, err := parent.FindRow(ctx, f.ectx.Txn, li, refOffs, vals)
		if err != nil {
			return err
		}
		if !found {
			return catalog.NoReferencedRowError(db, t, fk)
		}
		if f.ectx.LockPointReads {
			f.ectx.LockKeys = append(f.ectx.LockKeys, keys...)
		}
	}
	return nil
}

// eachChild calls fn for every row of ref's child table that references
// vals (t's row under handle excepted: a row that is its own parent),
// with the child's key column offsets.
func (f *fkState) eachChild(ctx context.Context, t *catalog.TableInfo, handle int64, ref catalog.FKRef, vals []types.Datum,
	fn func(h int64, crow []types.Datum, offs []int) error) error {
	child := ref.Child
	offs := child.FKColumnOffsets(ref.FK.Cols)
	li, ok := child.IndexFor(ref.FK.Cols)
	if !ok {
		return nil
	}
	var hs []int64
	err := child.ScanRows(ctx, f.ectx.Txn, li, offs, vals, func(h int64) (bool, error) {
		hs = append(hs, h)
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, h := range hs {
		if child.ID == t.ID && h == handle {
			continue
		}
		crow, ok, err := readRow(ctx, f.ectx.Txn, child, h)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := fn(h, crow, offs); err != nil {
			return err
		}
	}
	return nil
}

// onDelete applies the foreign keys referencing t to the children of
// row (stored under handle), which is about to be deleted; depth counts
// the cascades that led here.
func (f *fkState) onDelete(ctx context.Context, t *catalog.TableInfo, handle int64, row []types.Datum, depth int) error {
	if f == nil {
		return nil
	}
	for _, ref := range f.is.ReferencingFKs(f.dbOf(t), t.Name) {
		vals, ok := fkValues(row, t.FKColumnOffsets(ref.FK.RefCols))
		if !ok {
			continue
		}
		err := f.eachChild(ctx, t, handle, ref, vals, func(h int64, crow []types.Datum, offs []int) error {
			switch ref.FK.OnDelete {
			case catalog.FKCascade:
				if depth+1 > catalog.MaxFKDepth {
					return catalog.FKDepthError()
				}
				if err := f.onDelete(ctx, ref.Child, h, crow, depth+1); err != nil {
					return err
				}
				return removeRow(f.ectx.Txn, ref.Child, h, crow)
			case catalog.FKSetNull:
				upd := append([]types.Datum(nil), crow...)
				for _, off := range offs {
					upd[off] = types.NewNullDatum()
				}
				return f.updateChild(ctx, ref.Child, h, crow, upd, depth+1)
			}
			return catalog.RowIsReferencedError(ref.ChildDB, ref.Child, ref.FK)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// onUpdate applies the foreign keys referencing t to the children of a
// row changed from old to new on referenced columns.
func (f *fkState) onUpdate(ctx context.Context, t *catalog.TableInfo, handle int64, old, new []types.Datum, depth int) error {
	if f == nil {
		return nil
	}
	for _, ref := range f.is.ReferencingFKs(f.dbOf(t), t.Name) {
		refOffs := t.FKColumnOffsets(ref.FK.RefCols)
		if !fkChanged(old, new, refOffs) {
			continue
		}
		vals, ok := fkValues(old, refOffs)
		if !ok {
			continue
		}
		err := f.eachChild(ctx, t, handle, ref, vals, func(h int64, crow []types.Datum, offs []int) error {
			upd := append([]types.Datum(nil), crow...)
			switch ref.FK.OnUpdate {
			case catalog.FKCascade:
				for i, off := range offs {
					upd[off] = new[refOffs[i]]
				}
			case catalog.FKSetNull:
				for _, off := range offs {
					upd[off] = types.NewNullDatum()
				}
			default:
				return catalog.RowIsReferencedError(ref.ChildDB, ref.Child, ref.FK)
			}
			return f.updateChild(ctx, ref.Child, h, crow, upd, depth+1)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// updateChild writes a child row changed by a cascade: its generated
// columns recomputed, its own children acted on.
func (f *fkState) updateChild(ctx context.Context, child *catalog.TableInfo, h int64, old, new []types.Datum, depth int) error {
	if depth > catalog.MaxFKDepth {
		return catalog.FKDepthError()
	}
	r, err := f.rulesOf(child)
	if err != nil {
		return err
	}
	if err := r.apply(f.ectx, new, 0, false); err != nil {
		return err
	}
	if err := f.onUpdate(ctx, child, h, old, new, depth); err != nil {
		return err
	}
	_, err = updateRow(ctx, f.ectx, child, h, old, new)
	return err
}

func (f *fkState) rulesOf(t *catalog.TableInfo) (*rowRules, error) {
	if r, ok := f.rules[t.ID]; ok {
		return r, nil
	}
	r, err := compileRules(f.ectx, t)
	if err != nil {
		return nil, err
	}
	if f.rules == nil {
		f.rules = make(map[int64]*rowRules)
	}
	f.rules[t.ID] = r
	return r, nil
}
