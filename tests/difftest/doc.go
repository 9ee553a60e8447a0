// Package difftest is a randomized differential test of Strata's SQL layer
// against MariaDB (issue 5, "SQL layer II").
//
// TestDifferential starts a `strata server` (tests/testproc) and its own
// mariadbd (Debian's mariadb-server: mariadb-install-db into a temporary
// datadir, then mariadbd --no-defaults --skip-grant-tables on a free
// loopback port, stopped at the end; the test skips when mariadbd is not
// installed). Then, round after round, it generates a schema of four tables
// (an INT primary key and 3-6 columns of INT, INT UNSIGNED, BIGINT,
// DECIMAL(10,2), DOUBLE, VARCHAR utf8mb4_bin, VARCHAR utf8mb4_general_ci,
// DATE, DATETIME; some secondary indexes) holding 0-12 rows drawn from small
// value domains with NULLs everywhere, loads it into both servers and runs
// generated queries on both:
//
//   - joins of 1-4 tables: [INNER] JOIN, LEFT, RIGHT, CROSS and comma joins,
//     ON with equalities across numeric types, non-equalities, ORs, filters;
//   - WHERE trees of AND/OR/NOT over comparisons (<=> included), IS [NOT]
//     NULL, [NOT] IN lists with NULLs, [NOT] BETWEEN, [NOT] LIKE;
//   - aggregates (COUNT(*), COUNT([DISTINCT] x), SUM, AVG, MIN, MAX) with
//     GROUP BY and HAVING, DISTINCT, ORDER BY over every select column with
//     LIMIT / OFFSET;
//   - scalar subqueries (aggregates, primary-key lookups), [NOT] IN, [NOT]
//     EXISTS, ANY / SOME / ALL, correlated and not, nested two deep; derived
//     tables (plain, aggregated, UNION, ORDER BY + LIMIT); UNION [ALL] of 2-3
//     SELECTs at the top, in derived tables and in IN subqueries.
//
// Results are compared as multisets, in order only where the query's ORDER
// BY names every select column. Cells are normalised first: DOUBLE columns
// (by MariaDB's column type) rounded to 10 significant digits; strings
// lower-cased and right-trimmed, because which of 'a', 'A', 'a ' a GROUP BY,
// DISTINCT, UNION, MIN or MAX picks under a case-insensitive or PAD SPACE
// collation is not determined. (LIKE, which sees the bytes, is only applied
// to base-table columns for the same reason.) Both servers failing counts as
// agreement; one failing is a mismatch.
//
// A mismatch is minimised before it is reported: clauses, select items,
// tables, UNION branches and predicate operands are dropped while the query
// keeps failing the same way (same outcome, same error number), then rows
// are deleted from both servers while it still fails. The report prints the
// schema and remaining rows of the tables the query reads, the minimised and
// the original query, and both servers' answers.
//
// # Running it
//
// CI runs a fixed seed briefly (the defaults: seed 1, 500 queries, stopped
// at 50 s in any case; about 10 s with the servers' start):
//
//	go test -count=1 ./tests/difftest/
//
// Longer on demand, with other seeds, every query logged, or with the
// constructs of known Strata bugs generated too (see FINDINGS.md):
//
//	go test -count=1 -timeout 0 ./tests/difftest/ -difftest.seed 7 -difftest.queries 0 -difftest.duration 30m
//	go test -count=1 -v ./tests/difftest/ -difftest.queries 50 -difftest.v
//	go test -count=1 ./tests/difftest/ -difftest.knownbugs -difftest.mismatches 20
//
// Other flags: -difftest.perround (queries per schema, 50) and
// -difftest.mismatches (stop after this many, 3). STRATA_BIN names a
// prebuilt strata binary instead of building cmd/strata.
//
// # MySQL 8 versus MariaDB
//
// The expected answers are MySQL 8's; MariaDB is the oracle only where the
// two agree. Its session runs with MySQL 8's default sql_mode. These are
// the places where MariaDB 10.11 answers differently from MySQL 8, each
// found by this test; the generator avoids them:
//
//   - Derived tables merged into an outer join do not null-extend their
//     constant columns (SELECT MIN(d.x) FROM (SELECT 1 AS x FROM t) d RIGHT
//     JOIN u ON ... gives 1 where MySQL gives NULL): the MariaDB session sets
//     optimizer_switch='derived_merge=off', which materialises them.
//   - The range optimizer rounds a fractional constant compared with an
//     indexed integer column (i = 1.5 finds i = 2), and an IN subquery over
//     an indexed integer column looks 2.25 up as 2: integer-typed values
//     only meet integral literals, and IN/ANY/ALL subqueries return a
//     column of exactly the left operand's type.
//   - NOT IN / ANY / ALL subqueries lose their NULLs when the two sides
//     differ in signedness or range (-2 NOT IN (SELECT u) with u in (NULL, 3)
//     is TRUE; BIGINT 9000000000 NOT IN (SELECT int_col) likewise), when
//     the subquery aggregates (MIN/MAX of NULL per group, or an aggregate
//     over no rows which MariaDB treats as no row: x < ALL (SELECT MAX(y)
//     FROM empty) is TRUE), or when the column is NULL-typed (SELECT NULL AS
//     x): such subqueries are not generated, nor NULL-only first UNION
//     branches, nor bare NULL select items.
//   - NOT (NOT (x < ANY (subquery))) drops rows that x < ANY (subquery)
//     keeps: no double negation is generated or kept by the minimiser.
//   - x < ANY (SELECT ... UNION ALL SELECT ... correlated) is evaluated once,
//     not per outer row: no UNION under ANY/ALL.
//   - HAVING over an aggregate without GROUP BY is not applied to the one
//     group of an empty input (it returns the row): HAVING only with GROUP BY.
//   - SELECT DISTINCT <constants> ... LIMIT n OFFSET m ignores the OFFSET:
//     no OFFSET after DISTINCT.
//   - A qualified d.x1 in GROUP BY is read as the select alias x1 when there
//     is one (error 1052): derived-table column names are unique per query.
//   - A qualified grouping column in HAVING is resolved by its bare name and
//     fails (1463) when two grouped columns share it: HAVING names a grouping
//     column only when there is one.
//   - MySQL 8 compares utf8mb4_bin with PAD SPACE, as MariaDB does; both
//     order and group utf8mb4_general_ci the same way. Functional
//     dependencies under ONLY_FULL_GROUP_BY differ (MySQL 8 knows more), so
//     the generator groups by every plain column it selects.
package difftest
