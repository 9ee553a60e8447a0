// Package sqlerr is the one table of MySQL error numbers, SQLSTATEs and
// message formats that Strata sends to clients.
//
// Every layer below the MySQL protocol returns ordinary Go errors with
// identity (sentinels and typed errors of internal/kv, context errors, or a
// *sqlerr.Error built where a MySQL error is the natural result, such as a
// duplicate entry found by the executor). Only the boundary, the protocol
// server, turns an error into a wire error with From, which:
//
//   - returns a *Error found in the chain (errors.As) unchanged;
//   - maps the storage errors of internal/kv to the numbers TiDB uses, so
//     that client-side retry logic written for TiDB works unchanged
//     (write conflict 1213/40001, lock wait timeout 1205, deadlock 1213, duplicate
//     key 1062, transaction too large 8004, undetermined commit 1105 with
//     TiDB's message "execution result undetermined");
//   - maps context cancellation (KILL QUERY) to 1317 and a deadline
//     (max_execution_time) to 3024;
//   - maps anything else to 1105 (ER_UNKNOWN_ERROR) with the error's text.
//
// Numbers, SQLSTATEs and message formats come from
// github.com/pingcap/tidb/pkg/parser/mysql (MySQL's own list); the few
// TiDB-specific numbers (8xxx, 9xxx), which live in TiDB's errno package
// rather than in the parser, are declared in tidb.go with TiDB's values and
// messages.
//
// Write conflicts: TiDB answers an optimistic commit conflict with 9007
// (SQLSTATE HY000, "Write conflict, txnStartTS=..., conflictStartTS=...,
// conflictCommitTS=..., key=..."). Strata sends that text under MySQL's
// 1213 with SQLSTATE 40001 instead: 40001 is the standard "serialization
// failure, restart the transaction", the code MySQL clients, ORMs and
// sysbench (its --mysql-ignore-errors default is 1213,1020,1205) retry on
// their own, while 9007 aborts them.
package sqlerr
