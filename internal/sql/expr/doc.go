// Package expr is Strata's scalar expression layer: the parser driver that
// makes github.com/pingcap/tidb/pkg/parser build literals as our Datums,
// and (in the files that follow) expressions over chunk rows, their
// builder from the AST and MySQL's evaluation rules.
//
// The parser driver (driver.go) is registered at init, so every package
// that parses SQL imports this one, at least blank:
//
//	import _ "github.com/strata-db/strata/internal/sql/expr"
//
// For that reason the package stays light: it imports types, chunk, sqlerr
// and the parser, never catalog, planner, exec or session.
//
// Literals: ValueExpr carries the parser's field type (charset, collation,
// IsBooleanFlag for TRUE/FALSE) and a types.Datum. Hex (x'41', 0x41) and
// bit (b'1', 0b1) literals are byte strings marked by Lit, because MySQL
// reads them as unsigned integers in numeric context. ParamMarkerExpr is a
// '?'; the parser does not number markers, ParamMarkers does.
package expr
