package catalog

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// BeginFunc starts a transaction (txnclient.Client.Begin, adapted).
type BeginFunc func(ctx context.Context) (kv.Transaction, error)

// Options configure a Catalog.
type Options struct {
	// Now is the clock for CURRENT_TIMESTAMP defaults of added columns
	// (time.Now when nil).
	Now func() time.Time
	// BatchSize is the number of rows (or keys) one backfill or
	// range-deletion transaction handles (default 1024).
	BatchSize int
	// MaxRetries bounds the retries of a DDL transaction on write
	// conflicts (default 30).
	MaxRetries int
	// AutoIDStep is the size of the auto-ID ranges the Allocator reserves
	// (default DefaultAutoIDStep).
	AutoIDStep int64
	// OnNewTable, when set, is called with the id of each table a CREATE
	// TABLE or TRUNCATE TABLE made, once its DDL committed (the SQL server
	// gives the table its own region: split-table).
	OnNewTable func(tableID int64)
}

func (o *Options) fillDefaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 1024
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = 30
	}
	if o.AutoIDStep <= 0 {
		o.AutoIDStep = DefaultAutoIDStep
	}
}

// Catalog is one SQL server's view of the schema: the current InfoSchema,
// reloaded when another server's DDL bumps the schema version, and the
// DDL statements, each run in KV transactions. Safe for concurrent use.
type Catalog struct {
	begin BeginFunc
	opts  Options
	alloc *Allocator

	is    atomic.Pointer[InfoSchema]
	hooks testHooks

	// loadMu serialises reloads so that concurrent Refresh calls do not
	// load the same version twice; it is never held across a DDL.
	loadMu sync.Mutex
}

// testHooks are nil in production.
type testHooks struct {
	// afterBackfillBatch runs inside each backfill transaction, after its
	// writes and before its commit.
	afterBackfillBatch func()
}

// New returns a Catalog over transactions from begin, with an empty
// InfoSchema at version 0; call Refresh to load the stored schema.
func New(begin BeginFunc, opts Options) *Catalog {
	opts.fillDefaults()
	c := &Catalog{begin: begin, opts: opts}
	c.alloc = NewAllocator(begin, opts.AutoIDStep)
	c.is.Store(newInfoSchema(0, nil, nil))
	return c
}

// InfoSchema returns the current snapshot (never nil).
func (c *Catalog) InfoSchema() *InfoSchema { return c.is.Load() }

// Allocator returns the auto-increment / row-ID allocator.
func (c *Catalog) Allocator() *Allocator { return c.alloc }

// Refresh reads the schema version at a fresh snapshot and, when it
// differs from the current one, reloads the whole schema at that
// snapshot. It returns the InfoSchema in use afterwards.
func (c *Catalog) Refresh(ctx context.Context) (*InfoSchema, error) {
	txn, err := c.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = txn.Rollback() }()
	return c.RefreshFrom(ctx, txn)
}

// RefreshFrom is Refresh at the caller's snapshot (a statement's own
// transaction, saving a timestamp): it returns the schema as of snap,
// loading it when its version differs from the current one, and makes it
// current when it is newer.
func (c *Catalog) RefreshFrom(ctx context.Context, snap kv.Snapshot) (*InfoSchema, error) {
	ver, err := getInt(ctx, snap, schemaVersionKey)
	if err != nil {
		return nil, err
	}
	if cur := c.is.Load(); ver == cur.version && ver != 0 {
		return cur, nil
	}
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if cur := c.is.Load(); ver == cur.version && ver != 0 {
		return cur, nil // loaded by a concurrent caller meanwhile
	}
	dbs, tables, err := loadDBs(ctx, snap)
	if err != nil {
		return nil, err
	}
	is := newInfoSchema(ver, dbs, tables)
	if is.version >= c.is.Load().version {
		c.is.Store(is)
	}
	return is, nil
}

// runTxn runs fn in a fresh transaction and commits it, retrying the
// whole attempt on write conflicts (fn must be idempotent: it re-reads
// what it depends on).
func (c *Catalog) runTxn(ctx context.Context, fn func(txn kv.Transaction) error) error {
	var err error
	for attempt := 0; attempt <= c.opts.MaxRetries; attempt++ {
		if err = ctx.Err(); err != nil {
			return err
		}
		var txn kv.Transaction
		txn, err = c.begin(ctx)
		if err != nil {
			return err
		}
		if err = fn(txn); err != nil {
			_ = txn.Rollback()
			if isRetryable(err) {
				continue
			}
			return err
		}
		if err = txn.Commit(ctx); err == nil || !isRetryable(err) {
			return err
		}
	}
	return err
}

func isRetryable(err error) bool {
	return errors.Is(err, kv.ErrWriteConflict) || errors.Is(err, kv.ErrTxnRetryable) ||
		errors.Is(err, kv.ErrKeyIsLocked)
}

// runDDL runs one schema-changing transaction: fn sees the schema as of
// the transaction's snapshot (loaded inside it, so it is never stale) and
// writes its changes; the schema version is bumped in the same
// transaction. Afterwards the catalog reloads.
func (c *Catalog) runDDL(ctx context.Context, fn func(txn kv.Transaction, is *InfoSchema) error) error {
	err := c.runTxn(ctx, func(txn kv.Transaction) error {
		ver, err := bumpSchemaVersion(ctx, txn)
		if err != nil {
			return err
		}
		dbs, tables, err := loadDBs(ctx, txn)
		if err != nil {
			return err
		}
		return fn(txn, newInfoSchema(ver-1, dbs, tables))
	})
	if err != nil {
		return err
	}
	_, err = c.Refresh(ctx)
	return err
}
