package catalog

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/types"
)

// Row lookups by the values of some columns, through LookupIndex: what
// foreign-key checks use to find a parent row (FindRow) or a parent's
// children (ScanRows) in the statement's transaction.

// lookupRow is a row of t with only the columns at offs set to vals, for
// building index keys.
func (t *TableInfo) lookupRow(offs []int, vals []types.Datum) []types.Datum {
	row := make([]types.Datum, len(t.Columns))
	for i, off := range offs {
		row[off] = vals[i]
	}
	return row
}

// FindRow returns the handle of a row of t whose columns at offs hold
// vals (the first in index order), with the keys read to find it (those
// a pessimistic transaction locks so the row cannot go away).
func (t *TableInfo) FindRow(ctx context.Context, txn kv.Snapshot, li LookupIndex, offs []int, vals []types.Datum) (handle int64, keys []kv.Key, found bool, err error) {
	switch {
	case li.Handle:
		h, ok := handleOf(vals[0])
		if !ok {
			return 0, nil, false, nil
		}
		key := t.RecordKey(h)
		if _, err := txn.Get(ctx, key); err != nil {
			if errors.Is(err, kv.ErrNotExist) {
				return 0, nil, false, nil
			}
			return 0, nil, false, err
		}
		return h, []kv.Key{key}, true, nil
	case li.Exact:
		key, _ := t.IndexKey(li.Index, t.lookupRow(offs, vals), 0)
		v, err := txn.Get(ctx, key)
		if err != nil {
			if errors.Is(err, kv.ErrNotExist) {
				return 0, nil, false, nil
			}
			return 0, nil, false, err
		}
		h, err := IndexEntryHandle(li.Index, key, v)
		if err != nil {
			return 0, nil, false, err
		}
		return h, []kv.Key{key, t.RecordKey(h)}, true, nil
	}
	err = t.ScanRows(ctx, txn, li, offs, vals, func(h int64) (bool, error) {
		handle, found = h, true
		keys = []kv.Key{t.RecordKey(h)}
		return false, nil
	})
	return handle, keys, found, err
}

// ScanRows calls fn with the handle of every row of t whose columns at
// offs hold vals, until fn returns false.
func (t *TableInfo) ScanRows(ctx context.Context, txn kv.Snapshot, li LookupIndex, offs []int, vals []types.Datum, fn func(handle int64) (bool, error)) error {
	if li.Handle || li.Exact {
		h, _, found, err := t.FindRow(ctx, txn, li, offs, vals)
		if err != nil || !found {
			return err
		}
		_, err = fn(h)
		return err
	}
	prefix := t.IndexPrefixKey(li.Index, vals)
	it, err := txn.Iter(ctx, prefix, PrefixEnd(prefix))
	if err != nil {
		return err
	}
	defer it.Close()
	var handles []int64
	for it.Valid() {
		h, err := IndexEntryHandle(li.Index, it.Key(), it.Value())
		if err != nil {
			return err
		}
		handles = append(handles, h)
		if err := it.Next(); err != nil {
			return err
		}
	}
	for _, h := range handles {
		more, err := fn(h)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// handleOf converts an integer primary-key value to a handle.
func handleOf(d types.Datum) (int64, bool) {
	switch d.Kind() {
	case types.KindInt64:
		return d.GetInt64(), true
	case types.KindUint64:
		return int64(d.GetUint64()), true
	}
	v, err := d.ToInt64()
	return v, err == nil
}
