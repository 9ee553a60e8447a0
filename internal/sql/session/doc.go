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
// Transactions: autocommit statements run in their own transaction; BEGIN
// opens an explicit one that COMMIT or ROLLBACK ends. Errors stay Go errors
// with identity inside; the protocol server maps them to MySQL codes
// through sqlerr at the boundary.
package session
