// Package session is the one package that wires the SQL layer (DESIGN.md):
// it implements the protocol server's Backend and Session on top of the
// parser, the system variables, the catalog, the planner and executors,
// and the transaction client.
//
// A Domain is the per-process state every session shares (transaction
// client, global variables, catalog, connection registry); a Session is
// one connection's state (variables, current database, open transaction,
// prepared statements, warnings). The protocol server calls a Session from
// its connection's goroutine only, one command at a time, so a Session
// needs no lock of its own; Domain state is safe for concurrent use.
//
// Transactions: autocommit statements run in their own optimistic
// transaction, re-run in the server when they lose a write conflict
// (stmt_txn.go). BEGIN, or a statement with autocommit off, opens an
// explicit one that COMMIT or ROLLBACK ends; it is pessimistic unless
// tidb_txn_mode (or BEGIN OPTIMISTIC) says otherwise. A pessimistic
// statement (stmt_pessimistic.go) runs at a fresh for_update_ts (a point
// UPDATE / DELETE first at the txn's current one, point_dml.go) over a
// staging buffer, then locks the rows and unique entries it wrote and the
// keys its point gets read (SELECT ... FOR UPDATE: the rows it returned);
// a write conflict drops the staged writes and runs it again, a deadlock
// rolls the transaction back (1213), a lock wait past
// innodb_lock_wait_timeout fails the statement (1205). Errors stay Go
// errors with identity inside; the protocol server maps them to MySQL
// codes through sqlerr at the boundary.
package session
