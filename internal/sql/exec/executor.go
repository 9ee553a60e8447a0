package exec

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// Executor is one operator of an execution tree: Open, then Next until it
// returns a chunk with no rows, then Close. Next resets chk and fills it
// with up to chk.Capacity() rows of FieldTypes(). A closed tree may be
// opened again for another execution of the same plan (after the fields
// of its Context were set for that execution): operators keep their
// chunks across executions.
type Executor interface {
	Open(ctx context.Context) error
	Next(ctx context.Context, chk *chunk.Chunk) error
	Close() error
	FieldTypes() []*types.FieldType
}

// Context is what one statement's execution needs: the transaction it
// reads and writes, the evaluation context (parameters, sql_mode,
// warnings), the auto-increment allocator; it collects the statement's
// affected rows and first auto-generated id.
type Context struct {
	Eval  expr.EvalContext
	Txn   kv.Transaction
	Alloc *catalog.Allocator
	// Strict: STRICT_TRANS_TABLES / STRICT_ALL_TABLES (errors instead of
	// warnings for bad values).
	Strict bool
	// NoAutoValueOnZero: a 0 stored in an AUTO_INCREMENT column is kept.
	NoAutoValueOnZero bool
	// Now is the statement time (DEFAULT CURRENT_TIMESTAMP).
	Now time.Time
	// MemTables builds the rows of information_schema tables.
	MemTables MemTables

	// AffectedRows counts rows as MySQL does (ON DUPLICATE KEY UPDATE: 2
	// per updated row).
	AffectedRows uint64
	// LastInsertID is the first AUTO_INCREMENT value the statement
	// generated (0: none).
	LastInsertID uint64
	// Chunk is the capacity of the chunks operators allocate.
	ChunkSize int

	// PresumeNotExists: a plain INSERT (not IGNORE) reads nothing to find
	// duplicate keys; it marks its rows' and unique entries' keys as
	// presumed absent (the prewrite checks them) and records in Presumed
	// the error each would be. Only for autocommit statements, whose
	// commit ends the statement.
	PresumeNotExists bool
	Presumed         map[string]PresumedKey

	// LockOnly: SELECT ... FOR UPDATE in a pessimistic transaction does
	// not re-write its rows; it collects their record keys in LockKeys
	// for the session to lock.
	LockOnly bool
	LockKeys []kv.Key

	// MemQuota is tidb_mem_quota_query (<= 0: none). Mem, the statement's
	// root memory tracker, is made from it when an operator first
	// materializes rows (memRoot), so statements that hold nothing (point
	// reads, writes) allocate no tracker.
	MemQuota int64
	Mem      *MemTracker
	// Stats, when set (EXPLAIN ANALYZE), collects every operator's
	// runtime figures by plan node.
	Stats *RuntimeStats

	// mats are the shared materialized joins of multi-table DML.
	mats map[*planner.Materialize]*materialize
	// ctes holds the statement's materialized CTEs (cte.go).
	ctes map[*planner.CTEDef]*cteResult
	// LockPointReads: a DML statement of a pessimistic transaction also
	// locks every key its point gets read, present or not (TiDB does), so
	// that a row absent when the statement ran cannot appear before the
	// transaction ends: DELETE of a missing id then INSERT of that id
	// cannot fail with a duplicate key.
	LockPointReads bool
}

// PresumedKey is a key an INSERT presumed absent, with what to report
// if the prewrite finds it.
type PresumedKey struct {
	Table *catalog.TableInfo
	Index *catalog.IndexInfo // nil: the primary key
	Row   []types.Datum
}

// DupError is the MySQL 1062 error for the key.
func (p PresumedKey) DupError() error { return dupError(p.Table, p.Index, p.Row) }

func (c *Context) chunkSize() int {
	if c.ChunkSize <= 0 {
		return 256
	}
	return c.ChunkSize
}

// base holds what every operator has: its context, output types and
// (for operators with one input) the child with a chunk to read it into.
type base struct {
	node  planner.Plan // the plan node the operator runs
	ectx  *Context
	fts   []*types.FieldType
	child Executor
	buf   *chunk.Chunk
}

func (b *base) FieldTypes() []*types.FieldType { return b.fts }

func (b *base) openChild(ctx context.Context) error {
	if b.child == nil {
		return nil
	}
	if b.buf == nil {
		b.buf = NewChunk(b.child, b.ectx.chunkSize())
	}
	return b.child.Open(ctx)
}

func (b *base) Close() error {
	if b.child != nil {
		return b.child.Close()
	}
	return nil
}

// rowBound is implemented by executors that know an upper bound of the
// rows they return (a point get: the number of keys asked for), so that
// the chunks read from them are sized to it.
type rowBound interface {
	maxRows() int
}

// maxRows is e's bound on its rows, or -1 when unknown.
func maxRows(e Executor) int {
	if rb, ok := e.(rowBound); ok {
		return rb.maxRows()
	}
	return -1
}

// childMaxRows is the bound of operators returning at most their child's
// rows.
func (b *base) maxRows() int {
	if b.child == nil {
		return -1
	}
	return maxRows(b.child)
}

// MaxRows returns an upper bound of the rows e returns, -1 when unknown
// (a reader that got that many rows need not call Next again).
func MaxRows(e Executor) int { return maxRows(e) }

// NewChunk returns a chunk to read e's rows into: of capacity size, or
// less when e returns fewer rows (point reads allocate small chunks).
func NewChunk(e Executor, size int) *chunk.Chunk {
	if n := maxRows(e); n >= 0 && n < size {
		size = max(n, 1)
	}
	return chunk.New(e.FieldTypes(), size)
}

// drainChild runs the child to the end through the operator's own input
// chunk (kept across executions), calling fn for every batch.
func (b *base) drainChild(ctx context.Context, fn func(*chunk.Chunk) error) error {
	return drainInto(ctx, b.child, b.buf, fn)
}

// Drain runs e to the end, calling fn for every chunk it produces (the
// chunk is reused: copy what must outlive the call).
func Drain(ctx context.Context, e Executor, size int, fn func(*chunk.Chunk) error) error {
	return drainInto(ctx, e, NewChunk(e, size), fn)
}

// drainInto runs e to the end through chk, calling fn for every batch.
func drainInto(ctx context.Context, e Executor, chk *chunk.Chunk, fn func(*chunk.Chunk) error) error {
	for {
		if err := e.Next(ctx, chk); err != nil {
			return err
		}
		if chk.NumRows() == 0 {
			return nil
		}
		if err := fn(chk); err != nil {
			return err
		}
	}
}

// RunToEnd opens e, drains it (a write statement's executor returns no
// rows) and closes it.
func RunToEnd(ctx context.Context, e Executor) error {
	return runAll(ctx, e, 32, func(*chunk.Chunk) error { return nil })
}

// runAll opens e, runs it to the end calling fn for every chunk (of
// capacity size) and closes it.
func runAll(ctx context.Context, e Executor, size int, fn func(*chunk.Chunk) error) error {
	if err := e.Open(ctx); err != nil {
		_ = e.Close()
		return err
	}
	err := Drain(ctx, e, size, fn)
	if cerr := e.Close(); err == nil {
		err = cerr
	}
	return err
}
