package statistics

import (
	"bytes"
	"math"
	"sort"

	"github.com/strata-db/strata/internal/types"
)

// Hist is what ANALYZE keeps of one column or index: counts over the
// whole table at the time of the ANALYZE, the most frequent values and an
// equi-depth histogram of the others. Values are memcomparable encodings
// (codec.EncodeKey of the column's datums, an index's columns one after
// the other), so that byte order is SQL order; string values longer than
// MaxValueLen are cut before they are encoded. Hist is immutable once
// built or loaded.
type Hist struct {
	// ID is the column or index ID.
	ID int64 `json:"id"`
	// IsIndex tells an index's statistics from a column's.
	IsIndex bool `json:"is_index,omitempty"`
	// Unique: a unique index (an equality on all its columns matches at
	// most one row unless a value is NULL).
	Unique bool `json:"unique,omitempty"`
	// Types are the column types (one per index column), to convert the
	// values callers estimate with; Lens the index prefix lengths (-1:
	// whole value).
	Types []*types.FieldType `json:"types"`
	Lens  []int              `json:"lens,omitempty"`
	// Rows is the number of rows the table had.
	Rows int64 `json:"rows"`
	// NullCount counts the rows whose value is NULL (an index: whose
	// entry has a NULL in any column).
	NullCount int64 `json:"null_count"`
	// NDV is the number of distinct non-NULL values (an index: of
	// distinct entries, NULLs included), counted over every row.
	NDV int64 `json:"ndv"`
	// TotSize is the total size of the encoded non-NULL values.
	TotSize int64 `json:"tot_size"`
	// Correlation is the rank correlation of the values with the row
	// order (handle), in [-1, 1] (columns only).
	Correlation float64 `json:"correlation"`
	// TopN are the most frequent values, ascending by value.
	TopN []TopNItem `json:"topn,omitempty"`
	// Buckets are the equi-depth histogram of the other non-NULL values
	// (an index's: of the other entries), ascending.
	Buckets []Bucket `json:"buckets,omitempty"`
	// SampledAll: the sample held every row, so that a value outside the
	// histogram and the TopN does not exist (at the time of ANALYZE).
	SampledAll bool `json:"sampled_all,omitempty"`
}

// TopNItem is one frequent value and its row count.
type TopNItem struct {
	Value []byte `json:"v"`
	Count int64  `json:"c"`
}

// Bucket is one bucket of an equi-depth histogram: Count rows whose
// values lie in [Lower, Upper], Repeat of them equal to Upper; NDV is the
// number of distinct values the sample saw in it.
type Bucket struct {
	Lower  []byte `json:"l"`
	Upper  []byte `json:"u"`
	Count  int64  `json:"c"`
	Repeat int64  `json:"r"`
	NDV    int64  `json:"n"`
}

// buildTopNAndBuckets splits the sorted sample values vals into the topN
// most frequent and an equi-depth histogram of at most nb buckets over
// the rest; counts are scaled by scale. A value enters the TopN when
// seen twice, and, when the sample is not the whole table
// (sampledAll false), at least frequentFactor times as often as the
// average sampled value: in a sample, the most frequent of uniformly
// distributed values are only the luckiest, and their scaled counts
// overestimate.
func buildTopNAndBuckets(vals [][]byte, topN, nb int, scale float64, sampledAll bool) ([]TopNItem, []Bucket) {
	type group struct {
		v []byte
		n int
	}
	var groups []group
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && bytes.Equal(vals[j], vals[i]) {
			j++
		}
		groups = append(groups, group{vals[i], j - i})
		i = j
	}
	// The most frequent groups (ties: the smaller value) go to TopN.
	inTop := map[int]bool{}
	minCount := 2
	if !sampledAll {
		minCount = max(minCount, int(math.Ceil(frequentFactor*float64(len(vals))/float64(len(groups)))))
	}
	if topN > 0 {
		order := make([]int, len(groups))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return groups[order[a]].n > groups[order[b]].n })
		for _, g := range order {
			if len(inTop) >= topN || groups[g].n < minCount {
				break
			}
			inTop[g] = true
		}
	}
	var top []TopNItem
	rest := 0
	for i, g := range groups {
		if inTop[i] {
			top = append(top, TopNItem{Value: g.v, Count: scaled(g.n, scale)})
		} else {
			rest += g.n
		}
	}
	if nb <= 0 || rest == 0 {
		return top, nil
	}
	depth := (rest + nb - 1) / nb
	var buckets []Bucket
	var cur *Bucket
	n := 0 // sample rows in cur
	for i, g := range groups {
		if inTop[i] {
			continue
		}
		if cur == nil {
			buckets = append(buckets, Bucket{Lower: g.v})
			cur, n = &buckets[len(buckets)-1], 0
		}
		n += g.n
		cur.Upper, cur.Repeat, cur.NDV = g.v, scaled(g.n, scale), cur.NDV+1
		cur.Count = scaled(n, scale)
		if n >= depth {
			cur = nil
		}
	}
	return top, buckets
}

// frequentFactor is how many times the average a sampled value must be
// seen to count as frequent (TopN, bucket repeats).
const frequentFactor = 3

func scaled(n int, scale float64) int64 { return int64(math.Round(float64(n) * scale)) }

// histRows is the number of rows the buckets hold.
func (h *Hist) histRows() int64 {
	var n int64
	for i := range h.Buckets {
		n += h.Buckets[i].Count
	}
	return n
}

// topNCount returns the count of value v in the TopN.
func (h *Hist) topNCount(v []byte) (int64, bool) {
	i := sort.Search(len(h.TopN), func(i int) bool { return bytes.Compare(h.TopN[i].Value, v) >= 0 })
	if i < len(h.TopN) && bytes.Equal(h.TopN[i].Value, v) {
		return h.TopN[i].Count, true
	}
	return 0, false
}

// avgRowsPerValue is the rows of a value in the histogram: the rows the
// buckets hold over the distinct values left out of the TopN.
func (h *Hist) avgRowsPerValue() float64 {
	ndv := h.NDV - int64(len(h.TopN))
	if ndv < 1 {
		ndv = 1
	}
	return float64(h.histRows()) / float64(ndv)
}

// equalRows estimates the rows (at ANALYZE time) whose value is v.
func (h *Hist) equalRows(v []byte) float64 {
	if c, ok := h.topNCount(v); ok {
		return float64(c)
	}
	if len(h.Buckets) == 0 {
		if h.SampledAll {
			return 0
		}
		return h.avgRowsPerValue()
	}
	i := sort.Search(len(h.Buckets), func(i int) bool { return bytes.Compare(h.Buckets[i].Upper, v) >= 0 })
	if i == len(h.Buckets) || bytes.Compare(v, h.Buckets[i].Lower) < 0 {
		// Beyond the histogram's ends or between two buckets.
		if h.SampledAll {
			return 0
		}
		return h.avgRowsPerValue()
	}
	b := &h.Buckets[i]
	avg := h.avgRowsPerValue()
	if bytes.Equal(b.Upper, v) && (h.SampledAll || float64(b.Repeat) > frequentFactor*avg) {
		// Sampled repeats of an ordinary value are noise: trust them
		// when exact or clearly above the average.
		return float64(b.Repeat)
	}
	if rest := float64(b.Count - b.Repeat); avg > rest {
		avg = rest
	}
	return avg
}

// rangeRows estimates the rows (at ANALYZE time) whose value v has
// lo <= v < hi; a nil hi is unbounded.
func (h *Hist) rangeRows(lo, hi []byte) float64 {
	if hi != nil && bytes.Compare(lo, hi) >= 0 {
		return 0
	}
	in := func(v []byte) bool {
		return bytes.Compare(v, lo) >= 0 && (hi == nil || bytes.Compare(v, hi) < 0)
	}
	total := 0.0
	// Both lists are sorted: start at the first entry not below lo.
	for i := sort.Search(len(h.TopN), func(i int) bool { return bytes.Compare(h.TopN[i].Value, lo) >= 0 }); i < len(h.TopN); i++ {
		if hi != nil && bytes.Compare(h.TopN[i].Value, hi) >= 0 {
			break
		}
		total += float64(h.TopN[i].Count)
	}
	for i := sort.Search(len(h.Buckets), func(i int) bool { return bytes.Compare(h.Buckets[i].Upper, lo) >= 0 }); i < len(h.Buckets); i++ {
		b := &h.Buckets[i]
		if hi != nil && bytes.Compare(b.Lower, hi) >= 0 {
			break
		}
		// Count-Repeat rows spread over [Lower, Upper), Repeat at Upper.
		if in(b.Upper) {
			total += float64(b.Repeat)
		}
		spread := float64(b.Count - b.Repeat)
		if spread <= 0 {
			continue
		}
		from, to := 0.0, 1.0
		if bytes.Compare(lo, b.Lower) > 0 {
			from = position(b.Lower, b.Upper, lo)
		}
		if hi != nil && bytes.Compare(hi, b.Upper) < 0 {
			to = position(b.Lower, b.Upper, hi)
		}
		if to > from {
			total += spread * (to - from)
		}
	}
	return total
}

// position is where x lies between lo and hi (lo <= x <= hi), from 0 to
// 1, interpolated on the first 8 bytes after their common prefix (exact
// for integers, monotonic for every encoding).
func position(lo, hi, x []byte) float64 {
	if bytes.Compare(x, lo) <= 0 {
		return 0
	}
	if bytes.Compare(x, hi) >= 0 {
		return 1
	}
	n := 0
	for n < len(lo) && n < len(hi) && lo[n] == hi[n] {
		n++
	}
	l, u, v := prefix8(lo[n:]), prefix8(hi[n:]), prefix8(x[n:])
	if u <= l {
		return 0.5
	}
	f := float64(v-l) / float64(u-l)
	return math.Min(math.Max(f, 0), 1)
}

func prefix8(b []byte) uint64 {
	var v uint64
	for i := 0; i < 8; i++ {
		v <<= 8
		if i < len(b) {
			v |= uint64(b[i])
		}
	}
	return v
}
