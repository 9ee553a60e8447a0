// Package sysvar is the registry of system variables (@@autocommit,
// @@sql_mode, @@tidb_enable_1pc, ...) and their values: per session (Vars)
// and global, persisted in the cluster (GlobalStore).
//
// # Design
//
//	Registry ── definitions (SysVar): name, scope, type, default, checks
//	   │          built-ins = MySQL 8's names/defaults + TiDB's tidb_* names
//	   ▼
//	GlobalStore ── SET GLOBAL: validate, write m/sysvar/<name> and bump
//	   │            m/sysvar_version in one kv transaction (retry conflicts)
//	   │           Refresh: read m/sysvar_version; reload all if it moved
//	   │           Globals(): immutable *Globals snapshot (atomic pointer)
//	   ▼
//	Vars (one per session) ── session overrides over the *Globals snapshot
//	                          taken when the session started
//
// Values are strings in normalized form (ON/OFF for booleans, canonical
// enum spelling, sql_mode in bit order, "+08:00" time zones), the form
// SELECT @@x shows; Normalize turns user input into that form and returns
// MySQL's warnings (clamped integers, no-op variables). The variables read
// on every statement or transaction (autocommit, isolation, sql_mode, the
// commit protocol switches, ...) are also kept typed, so Vars.Autocommit()
// and friends cost a field load.
//
// # Scopes (MySQL's rules)
//
//   - @@name reads the session value if the variable has one, else the
//     current global value. @@session.name of a global-only variable and
//     @@global.name of a session-only one are ErrIncorrectScope.
//   - SET SESSION of a global-only variable is ErrIncorrectScope; of a
//     read-only one (ScopeNone, ReadOnly, SessionReadOnly) ErrReadOnly.
//   - SET GLOBAL changes the global value for sessions that start later
//     (on every server after its next Refresh); existing sessions keep
//     their values, as in MySQL.
//
// # Invariants
//
//   - Every stored value (session or global) is normalized; a persisted
//     value is normalized again when loaded, and one this server does not
//     know or rejects is skipped (reported by Refresh), never fatal.
//   - m/sysvar_version increases with every SET GLOBAL, in the same
//     transaction as the value, so a Refresh that sees an unchanged
//     version has nothing to reload.
//   - A Globals snapshot is never modified after it is published.
//
// # Concurrency and lock order
//
// Registry is read-only once shared. Globals are immutable. Vars belongs
// to one session goroutine. GlobalStore.mu serializes Refresh and Set
// (methods needing it end in Locked); Globals() takes no lock. There is
// no other lock, so no lock order to keep.
//
// # Choices
//
//   - lower_case_table_names = 2 (TiDB's; MySQL on Linux says 0).
//   - tidb_txn_mode defaults to pessimistic (TiDB's default); "" means
//     optimistic, as in TiDB.
//   - tidb_enable_clustered_index defaults to INT_ONLY.
//   - collation defaults to utf8mb4_bin (TiDB's) rather than MySQL 8's
//     utf8mb4_0900_ai_ci, which is accepted by name.
//   - max_connections defaults to 0 (unlimited, TiDB's) so 1000-thread
//     sysbench runs work out of the box.
//   - sql_mode accepts MySQL 5.7's removed modes (ORACLE,
//     NO_AUTO_CREATE_USER, ...) with no effect, as TiDB does, so 5.7 dumps
//     load.
//   - READ-UNCOMMITTED and SERIALIZABLE are errors unless
//     tidb_skip_isolation_level_check is ON (TiDB's rule).
package sysvar
