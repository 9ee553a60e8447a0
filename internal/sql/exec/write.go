package exec

import (
	"context"
	"errors"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// castValue converts v for column c as INSERT/UPDATE store it: bad values
// are errors in strict mode, warnings (with the adjusted value) otherwise.
func castValue(ectx *Context, c *catalog.ColumnInfo, v types.Datum, rowNum int) (types.Datum, error) {
	out, err := castValueRaw(ectx, c, v, rowNum)
	if err == nil {
		out = ectx.toStoredTS(&c.FieldType, out)
	}
	return out, err
}

// castValueRaw is castValue before a TIMESTAMP goes to UTC.
func castValueRaw(ectx *Context, c *catalog.ColumnInfo, v types.Datum, rowNum int) (types.Datum, error) {
	if v.IsNull() {
		if c.NotNull() {
			err := sqlerr.New(sqlerr.ErrBadNull, c.Name)
			if ectx.Strict {
				return v, err
			}
			ectx.Eval.AppendWarning(err)
			return c.ZeroValue(), nil
		}
		return v, nil
	}
	out, err := types.ConvertDatum(v, &c.FieldType)
	if err == nil {
		return out, nil
	}
	var serr error
	var jerr *types.JSONSyntaxError
	switch {
	case errors.As(err, &jerr):
		// Not a warning even outside strict mode, as in MySQL.
		return out, sqlerr.Newf(mysql.ErrInvalidJSONText,
			"Invalid JSON text: \"%s\" at position %d in value for column '%s'.", jerr.Msg, jerr.Pos, c.Name)
	case errors.Is(err, types.ErrOverflow):
		serr = sqlerr.New(sqlerr.ErrWarnDataOutOfRange, c.Name, rowNum)
	case errors.Is(err, types.ErrDataTooLong):
		serr = sqlerr.New(sqlerr.ErrDataTooLong, c.Name, rowNum)
	case errors.Is(err, types.ErrTruncated):
		serr = sqlerr.New(mysql.WarnDataTruncated, c.Name, rowNum)
	case errors.Is(err, types.ErrWrongTimeValue):
		// MySQL's 1292 with the text of 1366.
		serr = sqlerr.Newf(mysql.ErrTruncatedWrongValue, "Incorrect %s value: '%s' for column '%s' at row %d",
			types.TypeName(c.FieldType.Tp), v.String(), c.Name, rowNum)
	default:
		serr = sqlerr.New(sqlerr.ErrTruncatedWrongValueForField, valueTypeName(&c.FieldType), v.String(), c.Name, rowNum)
	}
	if ectx.Strict {
		return out, serr
	}
	ectx.Eval.AppendWarning(serr)
	return out, nil
}

// valueTypeName names a column type in MySQL's "Incorrect <type> value"
// (1366, 1292): integer for every integer width, double for FLOAT and
// DOUBLE, the type's name otherwise.
func valueTypeName(ft *types.FieldType) string {
	switch ft.Tp {
	case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong, mysql.TypeLonglong:
		return "integer"
	case mysql.TypeFloat, mysql.TypeDouble:
		return "double"
	}
	return types.TypeName(ft.Tp)
}

// exists reports whether key has a value in the transaction's view and
// returns it.
func exists(ctx context.Context, txn kv.Transaction, key kv.Key) ([]byte, bool, error) {
	v, err := txn.Get(ctx, key)
	if errors.Is(err, kv.ErrNotExist) {
		return nil, false, nil
	}
	return v, err == nil, err
}

// dupError is 1062 for row's conflict on the primary handle (idx nil) or
// a unique index.
func dupError(t *catalog.TableInfo, idx *catalog.IndexInfo, row []types.Datum) error {
	if idx == nil {
		pk := t.PKHandleColumn()
		return sqlerr.New(sqlerr.ErrDupEntry, row[pk.Offset].String(), t.Name+".PRIMARY")
	}
	return catalog.DupEntryError(t, idx, row)
}

// findConflict returns the handle of a stored row that row (to be stored
// under handle) collides with on the primary key or a unique index.
func findConflict(ctx context.Context, txn kv.Transaction, t *catalog.TableInfo, handle int64, row []types.Datum, checkHandle bool) (other int64, idx *catalog.IndexInfo, found bool, err error) {
	if checkHandle {
		if _, ok, err := exists(ctx, txn, t.RecordKey(handle)); err != nil || ok {
			return handle, nil, ok, err
		}
	}
	for _, ix := range t.WritableIndices() {
		if !ix.Unique {
			continue
		}
		key, distinct := t.IndexKey(ix, row, handle)
		if !distinct {
			continue
		}
		v, ok, err := exists(ctx, txn, key)
		if err != nil {
			return 0, nil, false, err
		}
		if ok {
			h, err := catalog.IndexEntryHandle(ix, key, v)
			if err != nil {
				return 0, nil, false, err
			}
			if h != handle || !checkHandle {
				return h, ix, true, nil
			}
		}
	}
	return 0, nil, false, nil
}

// writeRow stores row under handle with all its index entries.
func writeRow(txn kv.Transaction, t *catalog.TableInfo, handle int64, row []types.Datum) error {
	key, val := t.EncodeRecord(handle, row)
	if err := txn.Set(key, val); err != nil {
		return err
	}
	for _, ix := range t.WritableIndices() {
		k, distinct := t.IndexKey(ix, row, handle)
		if err := txn.Set(k, catalog.IndexValue(handle, distinct)); err != nil {
			return err
		}
		if !distinct {
			noLock(txn, k)
		}
	}
	return nil
}

// noLockMarker is implemented by StmtTxn: a key marked there needs no
// pessimistic lock of its own.
type noLockMarker interface{ NoLock(k kv.Key) }

// noLock marks a non-distinct index entry written through txn: its key
// holds the row's handle, so the row's lock already covers it (TiDB locks
// rows and unique keys only).
func noLock(txn kv.Transaction, k kv.Key) {
	if m, ok := txn.(noLockMarker); ok {
		m.NoLock(k)
	}
}

// removeRow deletes row (stored under handle) and its index entries.
func removeRow(txn kv.Transaction, t *catalog.TableInfo, handle int64, row []types.Datum) error {
	if err := txn.Delete(t.RecordKey(handle)); err != nil {
		return err
	}
	for _, ix := range t.WritableIndices() {
		k, distinct := t.IndexKey(ix, row, handle)
		if err := txn.Delete(k); err != nil {
			return err
		}
		if !distinct {
			noLock(txn, k)
		}
	}
	return nil
}

// readRow reads the stored row of handle.
func readRow(ctx context.Context, txn kv.Transaction, t *catalog.TableInfo, handle int64) ([]types.Datum, bool, error) {
	v, ok, err := exists(ctx, txn, t.RecordKey(handle))
	if err != nil || !ok {
		return nil, false, err
	}
	row, err := t.DecodeRecord(handle, v)
	if err != nil {
		return nil, false, err
	}
	for i := range row {
		row[i] = row[i].Clone()
	}
	return row, true, nil
}

// rowsEqual reports whether two rows hold the same values.
func rowsEqual(a, b []types.Datum) bool {
	for i := range a {
		if a[i].IsNull() != b[i].IsNull() {
			return false
		}
		if !a[i].IsNull() && (a[i].Kind() != b[i].Kind() || a[i].Compare(&b[i]) != 0) {
			return false
		}
	}
	return true
}

// strictErr is the warning a strict data-changing statement turned into
// its error (its Eval is an expr.StrictContext), or nil: the writers check
// it after evaluating a row's values, so that the statement fails on that
// row before converting them.
func (c *Context) strictErr() error {
	if sc, ok := c.Eval.(*expr.StrictContext); ok {
		return sc.Err()
	}
	return nil
}
