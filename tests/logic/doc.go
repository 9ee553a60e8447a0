// Package logic runs SQL logic tests: tests/logic/testdata/*.test files
// executed against a real `strata server` process through
// go-sql-driver/mysql, one connection per file.
//
// File format (sqllogictest's, as CockroachDB uses it):
//
//	# a comment
//	statement ok
//	CREATE TABLE t (a INT PRIMARY KEY)
//
//	statement error <regexp matched against "Error NNNN: message">
//	INSERT INTO t VALUES (1), (1)
//
//	query <one letter per column: I int, R real, T text> [rowsort]
//	SELECT a FROM t
//	----
//	1
//
// Statements run until a blank line; result rows are the values of a row
// separated by single spaces, NULL for NULL; rowsort sorts the rows before
// comparing. Run with -rewrite to rewrite the expected results of queries
// from what the server answers (read the diff before committing).
package logic
