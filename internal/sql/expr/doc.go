// Package expr is Strata's scalar expression layer: the parser driver that
// makes github.com/pingcap/tidb/pkg/parser build literals as our Datums,
// expressions over chunk rows, their builder from the AST, and MySQL's
// evaluation rules (result types, comparison classes, collations,
// three-valued logic, overflow and conversion warnings).
//
// # Parser driver
//
// driver.go registers ast.NewValueExpr, ast.NewParamMarkerExpr,
// ast.NewDecimal, ast.NewHexLiteral and ast.NewBitLiteral at init, so every
// package that parses SQL imports this one, at least blank:
//
//	import _ "github.com/strata-db/strata/internal/sql/expr"
//
// For that reason the package stays light: it imports types, chunk,
// sqlerr, apd and the parser, never catalog, planner, exec or session.
// ValueExpr carries the parser's field type (charset and collation of
// string literals come from the charset/collation the caller passes to
// Parse: pass the session's character_set_connection and
// collation_connection) and a types.Datum. Hex (x'41') and bit (b'1')
// literals are byte strings marked by Lit, because MySQL reads them as
// unsigned integers in numeric context. The parser does not number '?'
// markers: ParamMarkers does (PREPARE calls it once).
//
// # Expressions
//
//	Expression  Eval(ctx, row) / Type() / String()
//	├── *Column          row's column Index, typed Ft
//	├── *Constant        a value, or parameter ParamIndex read from ctx
//	└── *ScalarFunction  Name (Fn* constants), Args, Ft, and a builtin
//
// A builtin holds what Build decided once (arithmetic class, comparison
// class and collation, target type, compiled LIKE pattern) and reads its
// arguments from the ScalarFunction, so the planner may rewrite Args
// (WithArgs, Transform) without rebuilding. Build folds deterministic
// functions whose arguments are all literals into Constants, unless the
// fold fails or raises a warning that fails the statement (1/0 in a
// strict INSERT: StrictDMLContext), left to each execution; parameters,
// NOW(), variables and the session functions are never folded, so a built
// expression can be cached with its plan (a param-backed Constant is typed
// by the value it had at build: cache per parameter kinds).
//
// # Evaluation rules (MySQL 8)
//
//   - Eval returns a datum of Type().EvalType(); string, bytes and decimal
//     results may alias the chunk (Clone to keep them).
//   - Arithmetic (arith.go): integers stay BIGINT (UNSIGNED if an operand
//     is; NO_UNSIGNED_SUBTRACTION honoured), overflow is error 1690;
//     decimals keep MySQL scales ('/' adds 4 digits); strings and doubles
//     compute as DOUBLE; x/0, x DIV 0, x%0 are NULL with warning 1365.
//   - Comparison (compare.go): one class per operand pair (string by
//     collation, int, decimal, datetime when a date meets a string,
//     otherwise double: 1 = '1abc' with warning 1292).
//   - Collations (collation.go): binary, *_bin (PAD SPACE) and the *_ci
//     family (case- and Latin-1-accent-insensitive; 0900 is NO PAD), with
//     MySQL's coercibility (COLLATE > column > literal). collation_key.go
//     gives each collation a memcomparable sort key (SortKey) and the
//     Order by which exec sorts, groups, deduplicates and takes MIN/MAX,
//     and the index key datum of _ci columns (IndexKeyDatum).
//   - Conversions inside expressions never fail: bad text is 0 or its
//     numeric prefix with warning 1292 (convert.go). In a data-changing
//     statement under strict sql_mode MySQL fails instead: wrap the
//     context in a StrictContext and check its Err after each row.
//
// # Concurrency
//
// No locks. A built Expression is immutable and may be evaluated by many
// goroutines at once, each with its own EvalContext (warnings are appended
// to the context). The compiled forms of vec_int.go (IntVec, IntFilter,
// ChunkFilter) hold scratch buffers: each belongs to one executor.
//
// # Files
//
//	driver.go, params.go        parser driver, '?' numbering
//	context.go, simplectx.go    EvalContext, BuildContext, SimpleContext
//	expression.go               Expression, Column, Constant, ScalarFunction, ExtractColumns, Transform
//	schema.go                   Schema, NodeResolver, Columns, 1054/1052 errors
//	builder.go, builder_funcs.go  Build: AST to Expression, type inference, folding
//	typeinfer.go                result types, type merging, collation derivation
//	convert.go                  conversions between evaluation classes with warnings
//	arith.go, compare.go, logic.go, like.go, control.go,
//	strfuncs*.go, mathfuncs*.go, timefuncs*.go, regexp*.go, cast.go, infofuncs.go,
//	format.go, dateformat.go, strtodate.go   the builtins
//	jsonfuncs.go                JSON_* functions, ->, ->> (JSON values are KindJSON datums)
//	funcreg.go                  the function table (name, argument counts, builder) newer builtins register in
//	interval.go, timeunit.go    INTERVAL values (compound units), DATE_ADD, EXTRACT, TIMESTAMPDIFF
//	calendar.go, clock.go       MySQL's day numbers and week modes; reading values as TIMEs
//	equal.go, cmpinfo.go        Equal; comparison class for range building
//	evalhelpers.go              EvalBool/EvalInt/..., Filter, VecEval, fast paths
//	vec_int.go                  IntVec, IntFilter, ChunkFilter: signed integer
//	                            expressions and comparisons a chunk at a time
//	strict.go                   StrictContext: strict-mode warnings as errors
//	names.go                    Fn* names, IsComparison, ReverseComparison
package expr
