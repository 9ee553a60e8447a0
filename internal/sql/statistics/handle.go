package statistics

import (
	"context"
	"errors"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
)

// AutoAnalyzeMinCount is the row count below which a table is never
// analyzed automatically (TiDB's).
const AutoAnalyzeMinCount = 1000

// maxRetries bounds the retries of a statistics write that met a write
// conflict (another server's flush or ANALYZE of the same table).
const maxRetries = 10

// Handle is one SQL server's view of the cluster's statistics: a cache
// of every table's Meta and Hists, refreshed from the cluster, and the
// modification counts of this server's committed writes not yet flushed
// to it. It is safe for concurrent use.
//
// Lock order: loadMu before mu; no lock is held across the I/O of a
// table scan.
type Handle struct {
	begin func(ctx context.Context) (kv.Transaction, error)
	now   func() time.Time

	// cache maps table IDs to their statistics (never modified once
	// stored: Refresh and AnalyzeTable store a new map).
	cache atomic.Pointer[map[int64]*Table]
	// loadMu serializes the replacements of cache.
	loadMu sync.Mutex

	mu struct {
		sync.Mutex
		// pending are the deltas of committed writes not yet flushed.
		pending map[int64]Delta
		// failedAt is when a table's automatic ANALYZE last failed.
		failedAt map[int64]time.Time
	}
	// autoRunning: an automatic ANALYZE is running.
	autoRunning atomic.Bool
}

// NewHandle returns an empty handle over the transactions begin starts;
// now is the clock of ANALYZE times (nil: time.Now).
func NewHandle(begin func(ctx context.Context) (kv.Transaction, error), now func() time.Time) *Handle {
	if now == nil {
		now = time.Now
	}
	h := &Handle{begin: begin, now: now}
	h.mu.pending = map[int64]Delta{}
	h.mu.failedAt = map[int64]time.Time{}
	empty := map[int64]*Table{}
	h.cache.Store(&empty)
	return h
}

// Table returns the statistics of table id with this server's unflushed
// writes counted, or nil when the cluster has none for it (estimates on
// a nil *Table are pseudo ones).
func (h *Handle) Table(id int64) *Table {
	h.mu.Lock()
	t := (*h.cache.Load())[id]
	d, ok := h.mu.pending[id]
	h.mu.Unlock()
	if !ok {
		return t
	}
	return withDelta(id, t, d)
}

// withDelta returns a copy of t, table id's statistics (nil: none yet),
// with d counted.
func withDelta(id int64, t *Table, d Delta) *Table {
	c := &Table{ID: id}
	if t != nil {
		*c = *t
	}
	c.Meta = c.Meta.withDelta(d)
	return c
}

// Update records a committed write of table id: d.Count rows more (fewer
// when negative), d.Modify rows written.
func (h *Handle) Update(id int64, d Delta) {
	if d.Count == 0 && d.Modify == 0 {
		return
	}
	h.mu.Lock()
	h.mu.pending[id] = h.mu.pending[id].Add(d)
	h.mu.Unlock()
}

// Flush adds this server's unflushed deltas to the cluster's Metas (on
// failure they stay for the next flush). Readers see every delta exactly
// once throughout: the flushed ones leave pending as the cache gains
// them.
func (h *Handle) Flush(ctx context.Context) error {
	h.loadMu.Lock()
	defer h.loadMu.Unlock()
	h.mu.Lock()
	deltas := maps.Clone(h.mu.pending)
	h.mu.Unlock()
	if len(deltas) == 0 {
		return nil
	}
	err := h.retry(ctx, func(txn kv.Transaction) error { return addDeltas(ctx, txn, deltas) })
	if err != nil {
		return err
	}
	next := maps.Clone(*h.cache.Load())
	for id, d := range deltas {
		next[id] = withDelta(id, next[id], d)
	}
	h.mu.Lock()
	for id, d := range deltas {
		p := h.mu.pending[id].Add(Delta{Count: -d.Count, Modify: -d.Modify})
		if p == (Delta{}) {
			delete(h.mu.pending, id)
		} else {
			h.mu.pending[id] = p
		}
	}
	h.cache.Store(&next)
	h.mu.Unlock()
	return nil
}

// storeLocked publishes a new cache (loadMu held).
func (h *Handle) storeLocked(next map[int64]*Table) {
	h.mu.Lock()
	h.cache.Store(&next)
	h.mu.Unlock()
}

// retry runs fn in a transaction and commits, retrying write conflicts.
func (h *Handle) retry(ctx context.Context, fn func(txn kv.Transaction) error) error {
	var err error
	for attempt := 0; attempt <= maxRetries; attempt++ {
		var txn kv.Transaction
		if txn, err = h.begin(ctx); err != nil {
			return err
		}
		if err = fn(txn); err != nil {
			_ = txn.Rollback()
		} else {
			err = txn.Commit(ctx)
		}
		if err == nil || !errors.Is(err, kv.ErrWriteConflict) {
			return err
		}
	}
	return err
}

// Refresh reloads every table's Meta, and the Hists of the tables
// analyzed since the last load.
func (h *Handle) Refresh(ctx context.Context) error {
	h.loadMu.Lock()
	defer h.loadMu.Unlock()
	txn, err := h.begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = txn.Rollback() }()
	metas, err := loadMetas(ctx, txn)
	if err != nil {
		return err
	}
	old := *h.cache.Load()
	next := make(map[int64]*Table, len(metas))
	for id, m := range metas {
		t := &Table{ID: id, Meta: m}
		if o := old[id]; o != nil && o.Meta.Version == m.Version {
			t.Columns, t.Indices = o.Columns, o.Indices
		} else if m.Analyzed() {
			if t.Columns, t.Indices, err = loadHists(ctx, txn, id); err != nil {
				return err
			}
		}
		next[id] = t
	}
	h.storeLocked(next)
	return nil
}

// AnalyzeTable builds tbl's statistics from a fresh snapshot, saves them
// in the cluster and caches them. This server's unflushed deltas are
// flushed first, so that the counts the ANALYZE resets include them.
func (h *Handle) AnalyzeTable(ctx context.Context, tbl *catalog.TableInfo, opts Options) (*Table, error) {
	if err := h.Flush(ctx); err != nil {
		return nil, err
	}
	snap, err := h.begin(ctx)
	if err != nil {
		return nil, err
	}
	t, err := Collect(ctx, snap, tbl, opts)
	_ = snap.Rollback()
	if err != nil {
		return nil, err
	}
	err = h.retry(ctx, func(txn kv.Transaction) error {
		m, err := save(ctx, txn, t, h.now().UnixMilli())
		t.Meta = m
		return err
	})
	if err != nil {
		return nil, err
	}
	h.loadMu.Lock()
	next := maps.Clone(*h.cache.Load())
	next[t.ID] = t
	h.storeLocked(next)
	h.loadMu.Unlock()
	return t, nil
}

// DropTable removes the statistics of a table that no longer exists.
func (h *Handle) DropTable(ctx context.Context, id int64) error {
	err := h.retry(ctx, func(txn kv.Transaction) error { return deleteTable(ctx, txn, id) })
	if err != nil {
		return err
	}
	h.mu.Lock()
	delete(h.mu.pending, id)
	h.mu.Unlock()
	h.loadMu.Lock()
	next := maps.Clone(*h.cache.Load())
	delete(next, id)
	h.storeLocked(next)
	h.loadMu.Unlock()
	return nil
}

// TableIDs lists the tables the cache has statistics or counts of.
func (h *Handle) TableIDs() []int64 {
	c := *h.cache.Load()
	out := make([]int64, 0, len(c))
	for id := range c {
		out = append(out, id)
	}
	return out
}

// NeedsAnalyze reports whether table statistics t call for an automatic
// ANALYZE (TiDB's rule): at least AutoAnalyzeMinCount rows, and never
// analyzed or modified in more than ratio of the rows it had when
// analyzed. A ratio <= 0 disables it.
func NeedsAnalyze(t *Table, ratio float64) bool {
	if t == nil || ratio <= 0 || t.Meta.RealtimeCount() < AutoAnalyzeMinCount {
		return false
	}
	if !t.Meta.Analyzed() {
		return true
	}
	return float64(t.Meta.ModifyCount)/float64(max(t.Meta.Count, 1)) > ratio
}

// autoRetryAfter is how long a table whose automatic ANALYZE failed is
// left alone.
const autoRetryAfter = time.Minute

// AutoAnalyze starts, in the background, the ANALYZE of the first of
// tables that NeedsAnalyze, unless one is already running on this
// server; done (may be nil) is called with its outcome, when the next
// automatic ANALYZE may start. It never blocks on the ANALYZE and
// reports whether one started.
func (h *Handle) AutoAnalyze(ctx context.Context, tables []*catalog.TableInfo, ratio float64, done func(*catalog.TableInfo, error)) bool {
	if h.autoRunning.Load() {
		return false
	}
	for _, tbl := range tables {
		if tbl.View != nil || !NeedsAnalyze(h.Table(tbl.ID), ratio) || h.failedRecently(tbl.ID) {
			continue
		}
		if !h.autoRunning.CompareAndSwap(false, true) {
			return false
		}
		go func() {
			_, err := h.AnalyzeTable(ctx, tbl, DefaultOptions())
			h.mu.Lock()
			if err != nil {
				h.mu.failedAt[tbl.ID] = h.now()
			} else {
				delete(h.mu.failedAt, tbl.ID)
			}
			h.mu.Unlock()
			// Before done: once told, a caller may start the next one.
			h.autoRunning.Store(false)
			if done != nil {
				done(tbl, err)
			}
		}()
		return true
	}
	return false
}

func (h *Handle) failedRecently(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	at, ok := h.mu.failedAt[id]
	return ok && h.now().Sub(at) < autoRetryAfter
}
