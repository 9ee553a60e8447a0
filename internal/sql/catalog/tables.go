package catalog

import (
	"context"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/types"
)

// Rows and index entries (DESIGN.md "Keys, timestamps, transactions"),
// shared by DML and the DDL backfill so that both write the same bytes:
//
//	row:          t{tableID}_r{handle}  →  codec row value (all columns but the handle column)
//	unique index: t{tableID}_i{indexID}{values}          →  handle (8 bytes, codec.EncodeInt)
//	other index:  t{tableID}_i{indexID}{values}{handle}  →  "0"
//
// A unique index entry whose values contain a NULL is not distinct (NULLs
// never collide) and takes the non-unique form. Row datums are indexed by
// column offset and must already be converted to their column types.

// nonUniqueIndexValue is the value of a non-distinct index entry.
var nonUniqueIndexValue = []byte{'0'}

// ColInfos returns the row-decoding descriptions of all columns in offset
// order (for codec.DecodeRowToChunk / DecodeRowToDatums). The slice is
// shared: do not modify it.
func (t *TableInfo) ColInfos() []codec.ColInfo {
	if t.colInfos != nil {
		return t.colInfos
	}
	return t.buildColInfos()
}

func (t *TableInfo) buildColInfos() []codec.ColInfo {
	out := make([]codec.ColInfo, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.ColInfo(t.PKIsHandle)
	}
	return out
}

// ColInfo returns the column's row-decoding description; pkIsHandle is
// the table's PKIsHandle.
func (c *ColumnInfo) ColInfo(pkIsHandle bool) codec.ColInfo {
	return codec.ColInfo{
		ID:         c.ID,
		Ft:         &c.FieldType,
		Default:    c.originDatum,
		IsPKHandle: pkIsHandle && c.InPrimaryKey(),
	}
}

// RecordKey returns the key of row handle.
func (t *TableInfo) RecordKey(handle int64) kv.Key { return codec.TableRecordKey(t.ID, handle) }

// Handle returns the row's handle when the table is keyed by its integer
// primary key (ok false otherwise: the caller allocates a _tidb_rowid).
func (t *TableInfo) Handle(row []types.Datum) (handle int64, ok bool) {
	c := t.PKHandleColumn()
	if c == nil || c.Offset >= len(row) || row[c.Offset].IsNull() {
		return 0, false
	}
	return row[c.Offset].GetInt64(), true
}

// EncodeRecord returns the key and value of row (datums by column offset)
// stored under handle. The handle column is not stored in the value.
func (t *TableInfo) EncodeRecord(handle int64, row []types.Datum) (key kv.Key, value []byte) {
	ids := t.storedIDs
	if ids == nil {
		for _, c := range t.Columns {
			if !(t.PKIsHandle && c.InPrimaryKey()) {
				ids = append(ids, c.ID)
			}
		}
	}
	datums := make([]types.Datum, 0, len(ids))
	for _, c := range t.Columns {
		if !(t.PKIsHandle && c.InPrimaryKey()) {
			datums = append(datums, row[c.Offset])
		}
	}
	enc := rowEncoders.Get().(*codec.RowEncoder)
	value = enc.Encode(nil, ids, datums)
	rowEncoders.Put(enc)
	return t.RecordKey(handle), value
}

// rowEncoders recycles the row encoders' scratch memory.
var rowEncoders = sync.Pool{New: func() any { return new(codec.RowEncoder) }}

// DecodeRecord decodes a row value into datums by column offset (strings
// alias value); columns added after the row was written take their
// origin default.
func (t *TableInfo) DecodeRecord(handle int64, value []byte) ([]types.Datum, error) {
	return codec.DecodeRowToDatums(value, t.ColInfos(), handle)
}

// IndexValues returns the datums idx indexes for row, cut to the prefix
// lengths.
func (idx *IndexInfo) IndexValues(row []types.Datum) []types.Datum {
	vals := make([]types.Datum, len(idx.Columns))
	for i, ic := range idx.Columns {
		vals[i] = TruncatePrefix(row[ic.Offset], ic.Length)
	}
	return vals
}

// TruncatePrefix cuts a string datum to n characters (bytes for byte
// strings), as an index prefix of length n does; n < 0 keeps the whole
// value.
func TruncatePrefix(d types.Datum, n int) types.Datum {
	if n < 0 {
		return d
	}
	switch d.Kind() {
	case types.KindBytes:
		if b := d.GetBytes(); len(b) > n {
			return types.NewBytesDatum(b[:n])
		}
	case types.KindString:
		b := d.GetBytes()
		if utf8.RuneCount(b) <= n {
			return d
		}
		cut := 0
		for i := 0; i < n; i++ {
			_, size := utf8.DecodeRune(b[cut:])
			cut += size
		}
		return types.NewStringDatumBytes(b[:cut])
	}
	return d
}

// IndexKey returns the key of row's entry in idx and whether it is
// distinct (a unique index without NULL values: the key has no handle and
// the value is IndexValue(handle, true)).
func (t *TableInfo) IndexKey(idx *IndexInfo, row []types.Datum, handle int64) (key kv.Key, distinct bool) {
	distinct = idx.Unique
	key = codec.IndexPrefix(t.ID, idx.ID)
	for _, ic := range idx.Columns {
		d := &row[ic.Offset]
		if d.IsNull() {
			distinct = false
		}
		key = codec.EncodeKey(key, IndexKeyValue(&t.Columns[ic.Offset].FieldType, TruncatePrefix(*d, ic.Length)))
	}
	if !distinct {
		// The same bytes as codec.TableIndexKeyWithHandle.
		key = codec.EncodeKey(key, types.NewIntDatum(handle))
	}
	return key, distinct
}

// IndexValue returns the value stored with an index entry.
func IndexValue(handle int64, distinct bool) []byte {
	if distinct {
		return codec.EncodeInt(nil, handle)
	}
	return nonUniqueIndexValue
}

// IndexEntryHandle returns the row handle an index entry of idx points
// to, from the value (distinct entries) or the key.
func IndexEntryHandle(idx *IndexInfo, key, value []byte) (int64, error) {
	if len(value) == 8 {
		_, h, err := codec.DecodeInt(value)
		return h, err
	}
	_, _, vals, err := codec.DecodeIndexKey(key)
	if err != nil {
		return 0, err
	}
	h, err := codec.DecodeIndexHandle(vals, len(idx.Columns))
	if err != nil {
		return 0, fmt.Errorf("catalog: index %s entry %x: %w", idx.Name, key, err)
	}
	return h, nil
}

// RecordRange returns the key range [start, end) of the table's rows.
func (t *TableInfo) RecordRange() (start, end kv.Key) {
	p := codec.TableRecordPrefix(t.ID)
	return p, codec.PrefixEnd(p)
}

// IndexRange returns the key range [start, end) of index idx's entries.
func (t *TableInfo) IndexRange(idx *IndexInfo) (start, end kv.Key) {
	p := codec.IndexPrefix(t.ID, idx.ID)
	return p, codec.PrefixEnd(p)
}

func (t *TableInfo) indexPrefix(indexID int64) kv.Key { return codec.IndexPrefix(t.ID, indexID) }

func prefixEnd(p kv.Key) kv.Key { return codec.PrefixEnd(p) }

func decodeRecordKey(k kv.Key) (tableID, handle int64, err error) { return codec.DecodeRecordKey(k) }

// ScanTable calls fn for every row of t in snap, in handle order, until
// fn returns an error (rows alias the iterator: fn copies what it
// keeps).
func ScanTable(ctx context.Context, snap kv.Snapshot, t *TableInfo, fn func(handle int64, row []types.Datum) error) error {
	start, end := t.RecordRange()
	it, err := snap.Iter(ctx, start, end)
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Valid() {
		_, handle, err := decodeRecordKey(it.Key())
		if err != nil {
			return err
		}
		row, err := t.DecodeRecord(handle, it.Value())
		if err != nil {
			return err
		}
		if err := fn(handle, row); err != nil {
			return err
		}
		if err := it.Next(); err != nil {
			return err
		}
	}
	return nil
}
