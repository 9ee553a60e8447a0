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
// planner's TableSource layout: all columns, then the handle. An index-only
// read (IndexOnly) decodes the index columns from the entry keys and
// leaves the other columns NULL. The conditions a range read stands for
// (RangeConds) sit in a selection above it that passes chunks through
// untouched when every bound converted exactly, and filters otherwise.
//
// # Expressions a chunk at a time
//
// Most expressions are evaluated row by row. Signed integer ones take a
// chunk at a time where it pays: a selection's integer comparisons
// (expr.ChunkFilter), a projection's integer outputs (expr.IntVec) and
// plain column copies (chunk.Column.AppendColumn), and sort and window
// keys (chunkExprs). A row on which the chunk form would overflow or
// divide by zero goes through Eval, which raises MySQL's error or
// warning; a projection keeps the other expressions row by row, in row
// order.
//
// # Reuse
//
// A prepared statement's cached plan keeps its executor tree: the session
// overwrites the fields of the tree's Context and opens it again. Open
// resets every operator's state; chunks are kept (sized to the reader's
// row bound, so point reads keep small ones); Close releases what a
// finished execution materialized (sorted rows, groups).
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
// In an explicit transaction the session runs a DML statement over a
// StmtTxn, which stages the statement's writes and applies them only when
// the statement succeeds (MySQL's statement atomicity). Plain INSERT reads
// every key that decides a duplicate with one BatchGet per statement.
//
// SELECT ... FOR UPDATE (lock) re-writes each returned row with its
// current value, putting its key in the write set: a concurrent
// transaction writing the row conflicts with this one at commit. In a
// pessimistic transaction (Context.LockOnly) it only collects the rows'
// keys; the session locks them, as it locks the keys a DML statement
// staged (StmtTxn.KeysToLock: rows and unique index entries; a
// non-distinct index entry holds its handle, so its row's lock covers it).
//
// No locks are taken inside this package; an execution tree is used by
// one goroutine.
package exec
