// Package types holds MySQL's value types as Strata represents them: field
// types (type code, flags, length, decimals, charset and collation, with the
// constants of github.com/pingcap/tidb/pkg/parser/mysql), and the values
// of those types (Datum; Decimal, Time, Duration).
//
// It sits beside internal/kv at the bottom of the SQL side's dependency
// graph, outside internal/sql, because internal/codec (key and row
// encodings) and every SQL package need it, and codec may not import SQL
// packages (DESIGN.md lists "MySQL types" under expr; they moved here for
// that reason).
package types
