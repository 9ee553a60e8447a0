// Package codec holds Strata's encodings of SQL values into KV keys and
// values (DESIGN.md "Keys, timestamps, transactions").
//
// Keys are memcomparable: bytes.Compare of two encodings orders them as
// the SQL values they encode, so index and row ranges are key ranges.
//
//	bytes.go    byte strings: 8-byte groups + marker (used by MVCC too)
//	number.go   int (sign bit flipped, big endian), uint, float (order-preserving)
//	decimal.go  decimals: sign marker, exponent, digit pairs, terminator, scale
//	datum.go    EncodeKey/DecodeOne: one kind flag per datum (TiDB's flag values)
//	table.go    t{tableID}_r{handle} and t{tableID}_i{indexID}{values}[{handle}]
//	meta.go     metadata keys under 'm'
//	row.go, rowdecode.go  the row value format (after TiDB's row format v2)
//
// Key layout:
//
//	'm' ...                                  metadata (sorts before tables)
//	't' int(tableID) '_i' int(indexID) datum... [int-datum(handle)]
//	't' int(tableID) '_r' int(handle)
//
// Invariants:
//
//   - Within one kind, bytes.Compare(EncodeKey(a), EncodeKey(b)) has the
//     sign of a.Compare(b) (tested with random datums); NULL sorts first,
//     MinNotNull after NULL, MaxValue last. Datums of different kinds
//     order by kind flag, not by value: encode a column's values after
//     converting them to the column type. Decimals that are equal but of
//     different scales order by scale (a column has one scale).
//   - No encoded datum is a prefix of another of the same kind, so tuples
//     order lexicographically and a handle may follow the values.
//   - Times encode as their packed uint and durations as int nanoseconds;
//     DecodeKeyValue restores the column type from a FieldType.
//   - A row value stores non-NULL values by column ID and lists NULL IDs;
//     a column not in the row (added later) decodes to its default, and
//     the integer primary-key handle is not stored at all (it is the key).
//
// The package imports internal/kv, internal/types and internal/chunk,
// never internal/sql. No locks: RowEncoder is per goroutine.
package codec
