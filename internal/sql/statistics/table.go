package statistics

import (
	"math"
	"time"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// Pseudo estimates (TiDB's) for what was never analyzed.
const (
	// PseudoRowCount is the row count of a table never analyzed and
	// never written through this cluster's SQL servers.
	PseudoRowCount = 10000
	// PseudoEqualRate: an equality matches 1/1000 of the rows.
	PseudoEqualRate = 1000
	// PseudoLessRate: a one-sided range matches 1/3 of the rows.
	PseudoLessRate = 3
	// PseudoBetweenRate: a range bounded on both sides, 1/40.
	PseudoBetweenRate = 40
)

// Meta is a table's row counts: at its last ANALYZE and since.
type Meta struct {
	// Version identifies the last ANALYZE (the timestamp of the
	// transaction that saved it); 0: never analyzed.
	Version uint64 `json:"version"`
	// Count is the number of rows the last ANALYZE counted.
	Count int64 `json:"count"`
	// Delta is the net number of rows inserted (minus deleted) since,
	// ModifyCount the number of rows inserted, updated or deleted since.
	Delta       int64 `json:"delta"`
	ModifyCount int64 `json:"modify_count"`
	// AnalyzeTime is when the last ANALYZE saved its statistics (Unix
	// milliseconds; 0: never).
	AnalyzeTime int64 `json:"analyze_time"`
}

// Analyzed reports whether the table was ever analyzed.
func (m Meta) Analyzed() bool { return m.Version != 0 }

// RealtimeCount is the table's row count now: the analyzed count plus
// the net change since (never negative).
func (m Meta) RealtimeCount() int64 { return max(m.Count+m.Delta, 0) }

// UpdateTime is AnalyzeTime as a time (zero when never analyzed).
func (m Meta) UpdateTime() time.Time {
	if m.AnalyzeTime == 0 {
		return time.Time{}
	}
	return time.UnixMilli(m.AnalyzeTime)
}

// Table is the statistics of one table as the planner reads them: its
// counts and, once analyzed, a Hist per column and public index (by ID).
// A Table is immutable; a nil *Table stands for a table without
// statistics and answers with pseudo estimates.
type Table struct {
	ID      int64
	Meta    Meta
	Columns map[int64]*Hist
	Indices map[int64]*Hist
}

// Pseudo reports whether the table was never analyzed (every estimate is
// a pseudo one).
func (t *Table) Pseudo() bool { return t == nil || !t.Meta.Analyzed() }

// RowCount estimates the table's rows now. A table never analyzed counts
// the rows inserted since its statistics began to be kept, or
// PseudoRowCount when that is 0.
func (t *Table) RowCount() float64 {
	if t == nil {
		return PseudoRowCount
	}
	n := t.Meta.RealtimeCount()
	if n == 0 && !t.Meta.Analyzed() {
		return PseudoRowCount
	}
	return float64(n)
}

// ModifyCount is the number of rows written since the last ANALYZE.
func (t *Table) ModifyCount() int64 {
	if t == nil {
		return 0
	}
	return t.Meta.ModifyCount
}

// Column returns the estimator of column id (pseudo when the column has
// no statistics). It never returns nil.
func (t *Table) Column(id int64) *Stats {
	if t == nil {
		return &Stats{rows: PseudoRowCount}
	}
	return t.stats(t.Columns[id])
}

// Index returns the estimator of index id (pseudo when the index has no
// statistics). It never returns nil.
func (t *Table) Index(id int64) *Stats {
	if t == nil {
		return &Stats{rows: PseudoRowCount}
	}
	return t.stats(t.Indices[id])
}

func (t *Table) stats(h *Hist) *Stats {
	s := &Stats{rows: t.RowCount(), modified: t.Meta.ModifyCount > 0}
	if h != nil && t.Meta.Count > 0 && h.Rows > 0 {
		s.h = h
		s.scale = s.rows / float64(h.Rows)
	}
	return s
}

// Stats estimates rows over one column or index of a table at the
// table's current size: the Hist of the last ANALYZE scaled by the rows
// the table gained or lost since, or pseudo estimates without one.
type Stats struct {
	h        *Hist // nil: pseudo
	rows     float64
	scale    float64
	modified bool
}

// Bound is one end of a range over a column's values or an index's
// leading columns. Vals empty means unbounded; Exclusive excludes the
// values themselves (and, for fewer values than the index has columns,
// every entry that starts with them).
type Bound struct {
	Vals      []types.Datum
	Exclusive bool
}

// Unbounded is the open end of a range.
func Unbounded() Bound { return Bound{} }

// Inclusive is a bound that includes vals.
func Inclusive(vals ...types.Datum) Bound { return Bound{Vals: vals} }

// Exclusive is a bound that excludes vals.
func Exclusive(vals ...types.Datum) Bound { return Bound{Vals: vals, Exclusive: true} }

// Pseudo reports whether the estimates are pseudo ones (never analyzed,
// or analyzed while the table was empty).
func (s *Stats) Pseudo() bool { return s.h == nil }

// RowCount is the table's estimated row count.
func (s *Stats) RowCount() float64 { return s.rows }

// NullRows estimates the rows whose value is NULL (an index: whose entry
// has a NULL in any column).
func (s *Stats) NullRows() float64 {
	if s.h == nil {
		return s.rows / PseudoEqualRate
	}
	return float64(s.h.NullCount) * s.scale
}

// NDV estimates the number of distinct non-NULL values (an index: of
// distinct entries).
func (s *Stats) NDV() float64 {
	if s.h == nil {
		return math.Min(s.rows, PseudoEqualRate)
	}
	return math.Min(float64(s.h.NDV), math.Max(s.rows, 1))
}

// Correlation is the order correlation of the values with the rows'
// handles, in [-1, 1] (1 when unknown).
func (s *Stats) Correlation() float64 {
	if s.h == nil || s.h.IsIndex {
		return 1
	}
	return s.h.Correlation
}

// EqualRows estimates the rows whose value (an index: whose leading
// columns) equal vals. A NULL column value counts the NULL rows (as
// IS NULL would); for an index, fewer values than its columns estimate a
// prefix. Values of another type are converted to the column's.
func (s *Stats) EqualRows(vals ...types.Datum) float64 {
	if len(vals) == 0 {
		return s.rows
	}
	if s.h == nil {
		return s.rows / PseudoEqualRate
	}
	if !s.h.IsIndex && vals[0].IsNull() {
		return s.NullRows()
	}
	if len(vals) > len(s.h.Types) {
		vals = vals[:len(s.h.Types)]
	}
	key := s.encode(vals)
	if len(vals) < len(s.h.Types) {
		return s.clamp(s.h.rangeRows(key, codec.PrefixEnd(key)) * s.scale)
	}
	est := s.h.equalRows(key)
	if est == 0 && s.h.SampledAll && s.modified {
		// Unseen at ANALYZE, but rows were written since.
		est = s.h.avgRowsPerValue()
	}
	est *= s.scale
	if s.h.Unique && !hasNull(vals) {
		est = math.Min(est, 1)
	}
	return s.clamp(est)
}

// RangeRows estimates the rows whose value (an index: whose leading
// columns) lies between lo and hi. NULLs are never in a range (an
// unbounded lo starts above them); NullRows counts them.
func (s *Stats) RangeRows(lo, hi Bound) float64 {
	if s.h == nil {
		switch {
		case len(lo.Vals) == 0 && len(hi.Vals) == 0:
			return s.rows
		case len(lo.Vals) == 0 || len(hi.Vals) == 0:
			return s.rows / PseudoLessRate
		}
		return s.rows / PseudoBetweenRate
	}
	l, h := s.rangeKeys(lo, hi)
	return s.clamp(s.h.rangeRows(l, h) * s.scale)
}

// rangeKeys turns bounds into the encoded range [l, h) (h nil:
// unbounded).
func (s *Stats) rangeKeys(lo, hi Bound) (l, h []byte) {
	l = []byte{codec.NilFlag + 1} // above NULL
	if len(lo.Vals) > 0 {
		l = s.encode(lo.Vals)
		if lo.Exclusive {
			l = codec.PrefixEnd(l)
		}
	}
	if len(hi.Vals) > 0 {
		h = s.encode(hi.Vals)
		if !hi.Exclusive {
			h = codec.PrefixEnd(h)
		}
	}
	if l == nil { // PrefixEnd of all 0xff: past every key
		l = []byte{0xff, 0xff}
		h = l
	}
	return l, h
}

func (s *Stats) encode(vals []types.Datum) []byte {
	if len(vals) > len(s.h.Types) {
		vals = vals[:len(s.h.Types)]
	}
	var b []byte
	for i, v := range vals {
		prefix := -1
		if i < len(s.h.Lens) {
			prefix = s.h.Lens[i]
		}
		b = encodeValue(b, v, s.h.Types[i], prefix)
	}
	return b
}

func (s *Stats) clamp(v float64) float64 { return math.Max(0, math.Min(v, s.rows)) }

func hasNull(vals []types.Datum) bool {
	for i := range vals {
		if vals[i].IsNull() {
			return true
		}
	}
	return false
}
