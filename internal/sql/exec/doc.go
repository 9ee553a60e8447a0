// Package exec runs the plans of internal/sql/planner: a tree of
// executors, each Open / Next(ctx, chunk) / Close over columnar chunks
// (internal/chunk), reading and writing through a kv.Transaction with the
// key and row layout of internal/codec and the catalog's helpers.
//
// # Contract
//
// Next resets the chunk it is given and fills it with up to its capacity
// of rows; a chunk with no rows means the end. Operators with one input
// keep one chunk for it (allocated at Open, reused on every call), so a
// steady-state read allocates per chunk, not per row. Expressions are
// evaluated with the statement's expr.EvalContext (Context.Eval), which
// also supplies the parameters of a prepared statement: plans are
// immutable and shared by executions.
//
// # Reads
//
// pointGet: one Get (or a BatchGet for an IN list) of record keys; with
// a unique index, a Get of each index entry first. tableScan: an Iter (or
// IterReverse) over a handle range. indexLookUp: an Iter per index range,
// then a BatchGet of the rows of each batch of entries, in index order.
// Rows are decoded straight into chunks (codec.DecodeRowToChunk) in the
// planner's TableSource layout: all columns, then the handle.
//
// # Writes
//
// DML executors first read every row they will change (so their own
// writes never feed back into their scan), then write: a row and all its
// index entries (public and write-only) are written or deleted together
// (writeRow, removeRow, updateRow). Duplicate keys are checked against the
// transaction's view with a Get of the record key and of each distinct
// unique-index key (1062 via catalog.DupEntryError). Values are converted
// to the column types by castValue: in strict sql_mode a bad value is the
// statement's error (1048, 1264, 1366, 1406), otherwise a warning with the
// adjusted value. AUTO_INCREMENT values come from the catalog Allocator;
// Context.LastInsertID records the first generated value, and explicit
// values rebase the allocator. Affected rows follow MySQL: changed rows
// for UPDATE, 2 per updated row of ON DUPLICATE KEY UPDATE, deleted plus
// inserted rows for REPLACE.
//
// SELECT ... FOR UPDATE (lock) re-writes each returned row with its
// current value, putting its key in the write set: a concurrent
// transaction writing the row conflicts with this one at commit.
//
// No locks are taken inside this package; an execution tree is used by
// one goroutine.
package exec
