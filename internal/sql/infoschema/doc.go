// Package infoschema implements the information_schema database: the
// definitions of its tables (names, columns, types and order as in MySQL
// 8) and the builders of their rows.
//
// # Design
//
// As in TiDB, information_schema tables are memory tables: nothing is
// stored, every read builds the rows at query time from a Source, which
// the session fills for the statement:
//
//	catalog.InfoSchema snapshot ─┐
//	current account, accounts  ──┤
//	sessions (process list)    ──┼─> Source ─> Rows(src, "TABLES") ─> [][]types.Datum
//	charsets, collations, now  ──┘
//
// The planner resolves a name in information_schema to the TableInfo of
// Lookup (TableInfo gives catalog-shaped definitions, so SHOW COLUMNS,
// SHOW CREATE TABLE and name resolution work unchanged) and plans a
// memory-table read; the executor asks its MemTables hook for the rows,
// which the session answers with Rows. WHERE, ORDER BY, GROUP BY and LIMIT
// run above the read as over any table: the builders return every row
// the user may see.
//
// # Invariants
//
//   - Every row has one datum per column of its table, of a kind its
//     column's type holds (ints for integer columns, strings for string
//     columns, times for TIMESTAMP/DATETIME), or NULL.
//   - Privileges filter rows as in MySQL: a user sees a database (or a
//     table) only if it holds some privilege on it (or on one of its
//     tables); information_schema itself is visible to everyone. A nil
//     Source.Account sees everything.
//   - Table and column names are case-insensitive (Lookup, and the
//     planner's usual name resolution).
//
// The package holds no state and takes no locks; Source values are built
// per statement and only read.
package infoschema
