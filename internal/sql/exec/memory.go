package exec

import (
	"slices"
	"sort"
	"sync/atomic"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// ErrMemQuotaExceeded is TiDB's error 8175: a statement needed more
// memory than tidb_mem_quota_query and could not spill enough.
const ErrMemQuotaExceeded uint16 = 8175

func init() {
	sqlerr.Register(ErrMemQuotaExceeded, "HY000",
		"Your query has been cancelled due to exceeding the allowed memory limit for a single SQL query. Please try narrowing your query scope or increase the tidb_mem_quota_query limit and try again.[conn=%d]")
}

// MemTracker counts the bytes a statement's operators hold. Each
// materializing operator has its own tracker under the statement's root,
// which has the quota (tidb_mem_quota_query; <= 0: none). When a
// Consume takes the root over its quota, the root asks its spillers
// (operators that can move their rows to disk: sort, hash aggregation,
// hash join), largest first, to spill until it is under the quota again;
// if it cannot, Consume fails with 8175 and the statement ends. Peak is
// the most the tracker held (EXPLAIN ANALYZE's memory column).
type MemTracker struct {
	parent   *MemTracker
	quota    int64
	connID   uint64
	used     atomic.Int64
	peak     atomic.Int64
	spillers []Spiller
	spilled  atomic.Int64 // bytes written to disk (EXPLAIN ANALYZE's disk column)
}

// Spiller is an operator that can release memory by writing rows to
// disk.
type Spiller interface {
	// Spill moves what it can to disk and reports the bytes released.
	Spill() (int64, error)
	// MemUsed reports the bytes it holds now.
	MemUsed() int64
}

// NewRootTracker returns a statement's tracker with quota bytes (<= 0:
// no limit); connID is named in the quota error.
func NewRootTracker(quota int64, connID uint64) *MemTracker {
	return &MemTracker{quota: quota, connID: connID}
}

// Child returns a tracker whose bytes also count in t (a nil t gives a
// tracker without parent or quota).
func (t *MemTracker) Child() *MemTracker { return &MemTracker{parent: t} }

// Consume adds n bytes (negative: releases) to t and its ancestors.
func (t *MemTracker) Consume(n int64) error {
	if t == nil || n == 0 {
		return nil
	}
	var root *MemTracker
	for x := t; x != nil; x = x.parent {
		u := x.used.Add(n)
		if u > x.peak.Load() {
			x.peak.Store(u)
		}
		root = x
	}
	if n > 0 && root.quota > 0 && root.used.Load() > root.quota {
		return root.relieve()
	}
	return nil
}

// relieve spills until the root is under its quota.
func (t *MemTracker) relieve() error {
	sp := append([]Spiller(nil), t.spillers...)
	sort.Slice(sp, func(i, j int) bool { return sp[i].MemUsed() > sp[j].MemUsed() })
	for _, s := range sp {
		if t.used.Load() <= t.quota {
			return nil
		}
		if _, err := s.Spill(); err != nil {
			return err
		}
	}
	if t.used.Load() <= t.quota {
		return nil
	}
	return sqlerr.New(ErrMemQuotaExceeded, t.connID)
}

// AddSpiller registers s with t's root (once: an operator opened again
// registers again).
func (t *MemTracker) AddSpiller(s Spiller) {
	if t == nil {
		return
	}
	root := t
	for root.parent != nil {
		root = root.parent
	}
	if slices.Contains(root.spillers, s) {
		return
	}
	root.spillers = append(root.spillers, s)
}

// RecordSpill counts n bytes written to disk by t's operator.
func (t *MemTracker) RecordSpill(n int64) {
	if t != nil {
		t.spilled.Add(n)
	}
}

// Used returns the bytes held now.
func (t *MemTracker) Used() int64 {
	if t == nil {
		return 0
	}
	return t.used.Load()
}

// Peak returns the most bytes held.
func (t *MemTracker) Peak() int64 {
	if t == nil {
		return 0
	}
	return t.peak.Load()
}

// Spilled returns the bytes written to disk.
func (t *MemTracker) Spilled() int64 {
	if t == nil {
		return 0
	}
	return t.spilled.Load()
}

// rowSize estimates the bytes a row of fts takes in a chunk.
func rowSize(r chunk.Row, fts []*types.FieldType) int64 {
	n := int64(0)
	for i, ft := range fts {
		strLen := 0
		if ft.EvalType() == types.ETString && !r.IsNull(i) {
			strLen = len(r.GetBytes(i))
		}
		n += valueSize(r.IsNull(i), ft.EvalType(), strLen)
	}
	return n
}

// datumsSize is rowSize of a row held as datums of types fts.
func datumsSize(ds []types.Datum, fts []*types.FieldType) int64 {
	n := int64(0)
	for i := range ds {
		strLen := 0
		if fts[i].EvalType() == types.ETString && !ds[i].IsNull() {
			strLen = len(ds[i].GetBytes())
		}
		n += valueSize(ds[i].IsNull(), fts[i].EvalType(), strLen)
	}
	return n
}

// valueSize estimates one value of class et (a string of strLen bytes).
func valueSize(null bool, et types.EvalType, strLen int) int64 {
	switch {
	case null:
		return 9
	case et == types.ETDecimal:
		return 40
	case et == types.ETString:
		return int64(strLen) + 8
	}
	return 9
}

// memRoot returns the statement's root tracker, making it on first use.
func (c *Context) memRoot() *MemTracker {
	if c.Mem == nil {
		var conn uint64
		if c.Eval != nil {
			conn = c.Eval.ConnectionID()
		}
		c.Mem = NewRootTracker(c.MemQuota, conn)
	}
	return c.Mem
}

// trackerFor returns a tracker for one execution of plan node p's
// operator, under the statement's root (and recorded for EXPLAIN
// ANALYZE).
func (c *Context) trackerFor(p any) *MemTracker {
	t := c.memRoot().Child()
	if c.Stats != nil {
		c.Stats.setMem(p, t)
	}
	return t
}
