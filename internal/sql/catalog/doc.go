// Package catalog keeps Strata's schemas in the cluster and runs DDL
// (DESIGN.md "catalog/": schemas, DDL, information_schema).
//
// # Model
//
// DBInfo, TableInfo, ColumnInfo and IndexInfo (model.go) are stored as
// JSON under metadata keys built with codec's meta-key helpers (meta.go):
//
//	MetaKey("NextGlobalID")                  global ID counter (databases, tables)
//	MetaKey("SchemaVersionKey")              schema version
//	MetaHash("DBs")["DB:{id}"]               DBInfo
//	MetaHash("DB:{dbID}")["Table:{id}"]      TableInfo
//	MetaKey("TID:{tableID}")                 auto-ID counter of a table (autoid.go)
//
// Column IDs and index IDs are per table (MaxColumnID, MaxIndexID) and
// never reused, so a dropped column's values left in old rows are simply
// ignored, and an added column is absent from old rows, which decode to
// its origin default (codec's row format looks columns up by ID).
//
// Rows and index entries are laid out by tables.go on codec's keys, and
// DML must use the same helpers (EncodeRecord, IndexKey, IndexValue):
//
//	t{tableID}_r{handle}                    → row value (handle column not stored)
//	t{tableID}_i{indexID}{values}           → handle      (unique, no NULL)
//	t{tableID}_i{indexID}{values}{handle}   → "0"         (otherwise)
//
// A single-column integer primary key is the handle (PKIsHandle,
// tidb_enable_clustered_index); other tables get _tidb_rowid handles from
// the Allocator and keep their primary key as a unique index.
//
// AddRecord, UpdateRecord and RemoveRecord (records.go) write a row with
// all its writable index entries and check unique keys first (1062).
//
// # Files
//
//	model.go, default.go      the model; defaults (DEFAULT, origin defaults of added columns)
//	meta.go                   metadata keys and JSON
//	infoschema.go, catalog.go snapshots, Catalog, Refresh, the DDL transaction loop
//	build_table.go, charset.go, default_expr.go   CREATE TABLE's AST → TableInfo
//	ddl_*.go                  one file per kind of DDL
//	rangedel.go               batched deletion of key ranges
//	tables.go, records.go     row and index encoding, DML writes
//	autoid.go                 Allocator
//	show.go                   SHOW CREATE TABLE, DESCRIBE, SHOW INDEX
//	view.go, view_show.go     views: a TableInfo with a ViewInfo (no rows, no key range),
//	                          CREATE / ALTER / DROP VIEW, SHOW CREATE VIEW
//	generated.go, check.go, fk.go, fk_lookup.go   generated columns, CHECK constraints, foreign keys
//	exprtext.go               their expressions printed (and stored) as MySQL 8 prints them
//	ddl_constraint.go, show_constraint.go, errors_constraint.go   their DDL, SHOW text, errors
//
// # Generated columns, CHECK constraints, foreign keys
//
// A generated column keeps its expression as text (ExprText: MySQL's
// printed form, "(`a` + `b`)", which SHOW CREATE TABLE and
// information_schema show); init parses it once per TableInfo. VIRTUAL
// and STORED columns are both stored in the row value and recomputed by
// every write of the row (exec's rowRules, ADD COLUMN's backfill), so a
// read always sees the value computed from the row's current columns and
// indexes on either kind are plain indexes. CHECK constraints are
// expression texts too, verified by writers (exec) and by the DDL that
// adds or re-enforces one. A foreign key lives in its child table and
// names its parent (database, table, columns); InfoSchema.ReferencingFKs
// maps a parent to the keys that reference it. Work these DDLs do on
// existing rows runs in the DDL transaction itself (atomic, bounded by
// the transaction size limit).
//
// # DDL
//
// Each DDL statement runs in KV transactions (catalog.go runDDL): the
// transaction bumps the schema version, reads the schema at its own
// snapshot, checks and writes the change. Every DDL writes the version
// key, so concurrent DDLs from any SQL server conflict and the loser
// retries on a fresh snapshot (up to Options.MaxRetries): DDL is
// serialised cluster-wide without a lock service. Work on data runs in
// further transactions of BatchSize rows or keys:
//
//   - DROP TABLE / DROP DATABASE / TRUNCATE: the metadata change first
//     (TRUNCATE gives the table a new ID), then the old key range is
//     deleted in batches (rangedel.go). Data of a dropped table is
//     unreachable as soon as the first transaction commits.
//   - ADD INDEX: the index is added write-only (writers maintain it,
//     readers ignore it), backfilled in batches (a unique conflict is 1062
//     and removes the index and its entries again), then made public.
//   - DROP INDEX / DROP COLUMN of an indexed column: the index leaves the
//     schema, then its entries are deleted.
//
// This is not yet the online F1 protocol: a server that has not refreshed
// since the write-only step does not maintain the new index. Until schema
// leases exist, SQL servers must refresh before each statement (cheap:
// RefreshFrom the statement's own transaction is one point read of the
// version key when nothing changed). A crash between
// steps can leave a write-only index or undeleted data of a dropped table;
// neither is visible to SQL.
//
// # InfoSchema and Catalog
//
// InfoSchema (infoschema.go) is an immutable snapshot of all databases and
// tables at one version, looked up case-insensitively
// (lower_case_table_names=2: names are stored as written). Catalog holds
// the current one in an atomic pointer; Refresh reloads it when the
// version key changed.
//
// # Lock order
//
// Catalog.loadMu (serialises reloads) is taken alone and never across a
// DDL. In the Allocator, Allocator.mu (the table map) comes before a
// table's tableIDs.mu; only the latter is held across KV I/O. No lock is
// held while calling the BeginFunc of another component.
package catalog
