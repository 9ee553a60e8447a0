package codec

import (
	"bytes"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// Table key layout (DESIGN.md "Keys, timestamps, transactions"):
//
//	row:    't' EncodeInt(tableID) "_r" EncodeInt(handle)
//	index:  't' EncodeInt(tableID) "_i" EncodeInt(indexID) EncodeKey(values...) [EncodeKey(handle)]
//
// Integers are memcomparable, so a table's rows sort by handle and an
// index's entries by value; a non-unique index appends the handle as one
// more encoded datum (intFlag + EncodeInt) to keep its keys distinct.
const (
	tablePrefix     = 't'
	recordSep       = "_r"
	indexSep        = "_i"
	tablePrefixLen  = 1 + 8
	recordPrefixLen = tablePrefixLen + 2
	indexPrefixLen  = tablePrefixLen + 2 + 8
	// RecordKeyLen is the length of every row key.
	RecordKeyLen = recordPrefixLen + 8
)

// TablePrefix returns 't'+tableID: every key of the table (rows and
// indexes) starts with it.
func TablePrefix(tableID int64) kv.Key {
	return EncodeInt(append(make([]byte, 0, tablePrefixLen), tablePrefix), tableID)
}

// TableRecordPrefix returns the prefix of the table's row keys.
func TableRecordPrefix(tableID int64) kv.Key {
	b := make([]byte, 0, RecordKeyLen)
	b = EncodeInt(append(b, tablePrefix), tableID)
	return append(b, recordSep...)
}

// TableRecordKey returns the key of row handle of table tableID.
func TableRecordKey(tableID, handle int64) kv.Key {
	return EncodeInt(TableRecordPrefix(tableID), handle)
}

// AppendTableRecordKey appends the row key to dst (no allocation when dst
// has room).
func AppendTableRecordKey(dst []byte, tableID, handle int64) []byte {
	dst = EncodeInt(append(dst, tablePrefix), tableID)
	return EncodeInt(append(dst, recordSep...), handle)
}

// IndexPrefix returns the prefix of index indexID's keys.
func IndexPrefix(tableID, indexID int64) kv.Key {
	b := make([]byte, 0, indexPrefixLen+16)
	b = EncodeInt(append(b, tablePrefix), tableID)
	return EncodeInt(append(b, indexSep...), indexID)
}

// TableIndexKey returns the key of a unique index entry: the prefix then
// encodedValues (EncodeKey of the indexed column values).
func TableIndexKey(tableID, indexID int64, encodedValues []byte) kv.Key {
	return append(IndexPrefix(tableID, indexID), encodedValues...)
}

// TableIndexKeyWithHandle returns the key of a non-unique index entry: the
// unique form followed by the handle as an encoded int datum.
func TableIndexKeyWithHandle(tableID, indexID int64, encodedValues []byte, handle int64) kv.Key {
	k := TableIndexKey(tableID, indexID, encodedValues)
	return EncodeInt(append(k, intFlag), handle)
}

// DecodeRecordKey splits a row key into table ID and handle.
func DecodeRecordKey(key []byte) (tableID, handle int64, err error) {
	if len(key) != RecordKeyLen || key[0] != tablePrefix || string(key[tablePrefixLen:recordPrefixLen]) != recordSep {
		return 0, 0, fmt.Errorf("%w: not a record key %x", ErrCorrupt, key)
	}
	_, tableID, _ = DecodeInt(key[1:])
	_, handle, _ = DecodeInt(key[recordPrefixLen:])
	return tableID, handle, nil
}

// DecodeIndexKey splits an index key into table ID, index ID and the
// encoded values after the prefix (for a non-unique index, the handle datum
// is the last of them: see CutDatums).
func DecodeIndexKey(key []byte) (tableID, indexID int64, values []byte, err error) {
	if len(key) < indexPrefixLen || key[0] != tablePrefix || string(key[tablePrefixLen:tablePrefixLen+2]) != indexSep {
		return 0, 0, nil, fmt.Errorf("%w: not an index key %x", ErrCorrupt, key)
	}
	_, tableID, _ = DecodeInt(key[1:])
	_, indexID, _ = DecodeInt(key[tablePrefixLen+2:])
	return tableID, indexID, key[indexPrefixLen:], nil
}

// DecodeIndexHandle returns the handle at the end of a non-unique index
// key's values, after numCols column datums.
func DecodeIndexHandle(values []byte, numCols int) (int64, error) {
	_, rest, err := CutDatums(values, numCols)
	if err != nil {
		return 0, err
	}
	if len(rest) != 9 || rest[0] != intFlag {
		return 0, fmt.Errorf("%w: no handle after index values", ErrCorrupt)
	}
	_, h, _ := DecodeInt(rest[1:])
	return h, nil
}

// IsRecordKey reports whether key has the row key shape.
func IsRecordKey(key []byte) bool {
	return len(key) == RecordKeyLen && key[0] == tablePrefix && string(key[tablePrefixLen:recordPrefixLen]) == recordSep
}

// PrefixEnd returns the smallest key greater than every key starting with
// prefix (the exclusive end of a prefix scan), or nil (+infinity) when the
// prefix is all 0xFF.
func PrefixEnd(prefix []byte) kv.Key {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}
