package exec

import (
	"bytes"
	"context"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// updateRow replaces row old (stored under handle) by row new, keeping
// the index entries in step; changed is false when the values are equal
// (nothing written). A new value colliding with another row on the
// primary key or a unique index is 1062.
func updateRow(ctx context.Context, ectx *Context, t *catalog.TableInfo, handle int64, old, new []types.Datum) (changed bool, err error) {
	if rowsEqual(old, new) {
		return false, nil
	}
	txn := ectx.Txn
	newHandle := handle
	if h, ok := t.Handle(new); ok {
		newHandle = h
	}
	if newHandle != handle {
		if _, ok, err := exists(ctx, txn, t.RecordKey(newHandle)); err != nil || ok {
			if ok {
				err = dupError(t, nil, new)
			}
			return false, err
		}
		if err := txn.Delete(t.RecordKey(handle)); err != nil {
			return false, err
		}
	}
	for _, ix := range t.WritableIndices() {
		oldKey, oldDistinct := t.IndexKey(ix, old, handle)
		newKey, distinct := t.IndexKey(ix, new, newHandle)
		if bytes.Equal(oldKey, newKey) && newHandle == handle {
			continue
		}
		if !bytes.Equal(oldKey, newKey) {
			if distinct {
				if _, ok, err := exists(ctx, txn, newKey); err != nil || ok {
					if ok {
						err = dupError(t, ix, new)
					}
					return false, err
				}
			}
			if err := txn.Delete(oldKey); err != nil {
				return false, err
			}
			if !oldDistinct {
				noLock(txn, oldKey)
			}
		}
		if err := txn.Set(newKey, catalog.IndexValue(newHandle, distinct)); err != nil {
			return false, err
		}
		if !distinct {
			noLock(txn, newKey)
		}
	}
	key, val := t.EncodeRecord(newHandle, new)
	return true, txn.Set(key, val)
}

// touchOnUpdate sets the ON UPDATE CURRENT_TIMESTAMP columns the
// statement did not assign, when the row changed.
func touchOnUpdate(ectx *Context, t *catalog.TableInfo, old, new []types.Datum, assigned func(off int) bool) {
	if rowsEqual(old, new) {
		return
	}
	for _, c := range t.Columns {
		if c.OnUpdateNow && !assigned(c.Offset) {
			now := types.NewTimeDatum(types.FromGoTime(ectx.Now.In(ectx.Eval.Location()), c.FieldType.Tp, c.FieldType.Fsp()))
			new[c.Offset] = ectx.toStoredTS(&c.FieldType, now)
		}
	}
}
