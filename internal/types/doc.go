// Package types holds MySQL's value types as Strata represents them: field
// types (type code, flags, length, decimals, charset and collation, with the
// constants of github.com/pingcap/tidb/pkg/parser/mysql), and the values
// of those types (Datum; Decimal, Time, Duration).
//
// It sits beside internal/kv at the bottom of the SQL side's dependency
// graph, outside internal/sql, because internal/codec (key and row
// encodings) and every SQL package need it, and codec may not import SQL
// packages (DESIGN.md lists "MySQL types" under expr; they moved here for
// that reason). It imports nothing of ours.
//
// Files:
//
//	fieldtype.go, evaltype.go  FieldType, FromParser, defaults, EvalType, integer ranges
//	datum.go, compare.go       Datum (tagged value) and MySQL comparison
//	decimal.go                 Decimal over apd: parse, format, arithmetic, rounding
//	time.go, duration.go       DATE/DATETIME/TIMESTAMP and TIME: parse, format, pack
//	strconv.go                 string → number with MySQL's truncation rules; float printing
//	convert.go                 ConvertDatum: a value to a column type, as INSERT does
//	enumset.go                 ENUM (index + name), SET (bitmask + names), BIT(n), YEAR conversions
//	json*.go                   JSON: value tree, text parser/printer (MySQL's format and
//	                           errors), binary form (EncodeJSON/DecodeJSON, what columns
//	                           store), comparison, paths, JSON_SET/REMOVE/CONTAINS/MERGE
//	errors.go                  sentinel errors the SQL layer maps to MySQL codes
//
// Invariants:
//
//   - A Datum is a value: copying it is cheap and safe, but String/Bytes
//     datums alias their bytes and Decimal datums their *Decimal; Clone
//     before keeping one whose source may change (chunk rows are reused).
//   - Time.Pack is order-preserving and independent of Type and Fsp, which
//     come from the column; zero dates and zero-part dates pack too.
//   - Decimal results carry MySQL's scale: max(scale) for + and -, the sum
//     for ×, scale(dividend)+4 for ÷, rounded half away from zero.
//   - Conversions never fail without a value: they return what MySQL would
//     store in non-strict mode plus a sentinel error (ErrOverflow,
//     ErrTruncated, ErrDataTooLong, ErrIncorrectValue, ErrWrongTimeValue);
//     strict mode turns the error into the statement's error.
//
// No locks: every type here is a value or is owned by one goroutine.
package types
