package statistics

import (
	"bytes"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// Defaults of ANALYZE (TiDB's bucket and TopN counts).
const (
	DefaultSampleSize = 10000
	DefaultBuckets    = 256
	DefaultTopN       = 100
	// MaxBuckets, MaxTopN and MaxSampleSize bound WITH N BUCKETS / TOPN /
	// SAMPLES (TiDB's limits for the first two).
	MaxBuckets    = 1024
	MaxTopN       = 1024
	MaxSampleSize = 500000
)

// Options configure one ANALYZE.
type Options struct {
	// SampleSize is the number of rows kept by reservoir sampling, from
	// which the TopN and histograms are built.
	SampleSize int
	// Buckets is the maximum number of histogram buckets.
	Buckets int
	// TopN is the maximum number of frequent values kept apart.
	TopN int
	// Seed seeds the reservoir's random choices (reproducible samples).
	Seed uint64
}

// DefaultOptions returns the options of a plain ANALYZE TABLE.
func DefaultOptions() Options {
	return Options{SampleSize: DefaultSampleSize, Buckets: DefaultBuckets, TopN: DefaultTopN}
}

// Collector builds a table's statistics from its rows, given one by one
// (it does no I/O: Analyze feeds it from a snapshot). Row counts, NULL
// counts and distinct counts are over every row; TopN, histograms and
// correlations come from a uniform sample of SampleSize rows (Vitter's
// reservoir algorithm R).
type Collector struct {
	tbl  *catalog.TableInfo
	opts Options
	rng  *rand.Rand

	rows int64
	cols []fieldCollector
	idxs []fieldCollector
	// indexes are the public indexes collected, idxs's order.
	indexes []*catalog.IndexInfo
	// plainIdx: the index has no prefix column, so its entry is its
	// columns' encodings one after the other.
	plainIdx []bool

	sample []sampleRow
	// scratch buffers reused across rows.
	colBuf [][]byte
	idxBuf []byte
}

// fieldCollector accumulates one column's or index's full-scan counts.
type fieldCollector struct {
	nulls int64
	size  int64
	ndv   *sketch
}

// sampleRow is a sampled row: its scan position and the statistics'
// encodings of its columns (nil for NULL) and index entries.
type sampleRow struct {
	pos  int64
	cols [][]byte
	idxs [][]byte
}

// NewCollector returns a collector for the rows of tbl.
func NewCollector(tbl *catalog.TableInfo, opts Options) *Collector {
	if opts.SampleSize <= 0 {
		opts.SampleSize = DefaultSampleSize
	}
	c := &Collector{
		tbl: tbl, opts: opts,
		rng:    rand.New(rand.NewPCG(opts.Seed, uint64(tbl.ID))),
		cols:   make([]fieldCollector, len(tbl.Columns)),
		colBuf: make([][]byte, len(tbl.Columns)),
	}
	for i := range c.cols {
		c.cols[i].ndv = newSketch()
	}
	for _, idx := range tbl.PublicIndices() {
		plain := true
		for _, ic := range idx.Columns {
			plain = plain && ic.Length < 0
		}
		c.indexes = append(c.indexes, idx)
		c.plainIdx = append(c.plainIdx, plain)
		c.idxs = append(c.idxs, fieldCollector{ndv: newSketch()})
	}
	return c
}

// Add collects one row (datums by column offset, already of their
// column types). The row's memory may be reused after Add returns.
func (c *Collector) Add(row []types.Datum) {
	pos := c.rows
	c.rows++
	keep := -1
	if len(c.sample) < c.opts.SampleSize {
		keep = len(c.sample)
		c.sample = append(c.sample, sampleRow{})
	} else if j := c.rng.Int64N(c.rows); j < int64(c.opts.SampleSize) {
		keep = int(j)
	}
	for i := range c.cols {
		d := keyDatum(&c.tbl.Columns[i].FieldType, row[i], -1)
		if d.IsNull() {
			c.cols[i].nulls++
			c.colBuf[i] = nil
			continue
		}
		enc := codec.EncodeKey(c.colBuf[i][:0], d)
		c.colBuf[i] = enc
		c.cols[i].size += int64(len(enc))
		c.cols[i].ndv.add(hashBytes(enc))
	}
	var sr *sampleRow
	if keep >= 0 {
		sr = &c.sample[keep]
		*sr = sampleRow{pos: pos, cols: make([][]byte, len(c.cols)), idxs: make([][]byte, len(c.idxs))}
		for i := range c.cols {
			if !row[i].IsNull() {
				sr.cols[i] = codec.EncodeKey(nil, cutLong(keyDatum(&c.tbl.Columns[i].FieldType, row[i], -1)))
			}
		}
	}
	for k, idx := range c.indexes {
		key, hasNull := c.idxBuf[:0], false
		for _, ic := range idx.Columns {
			if row[ic.Offset].IsNull() {
				hasNull = true
			}
			if c.plainIdx[k] {
				if e := c.colBuf[ic.Offset]; e != nil {
					key = append(key, e...)
				} else {
					key = append(key, codec.NilFlag)
				}
			} else {
				key = codec.EncodeKey(key, keyDatum(&c.tbl.Columns[ic.Offset].FieldType, row[ic.Offset], ic.Length))
			}
		}
		c.idxBuf = key
		if hasNull {
			c.idxs[k].nulls++
		}
		c.idxs[k].size += int64(len(key))
		c.idxs[k].ndv.add(hashBytes(key))
		if sr != nil {
			var e []byte
			for _, ic := range idx.Columns {
				e = codec.EncodeKey(e, cutLong(keyDatum(&c.tbl.Columns[ic.Offset].FieldType, row[ic.Offset], ic.Length)))
			}
			sr.idxs[k] = e
		}
	}
}

// Rows is the number of rows added so far.
func (c *Collector) Rows() int64 { return c.rows }

// Finish builds the statistics of every column and public index.
func (c *Collector) Finish() *Table {
	t := &Table{ID: c.tbl.ID, Meta: Meta{Count: c.rows}, Columns: map[int64]*Hist{}, Indices: map[int64]*Hist{}}
	sampledAll := int64(len(c.sample)) == c.rows
	for i, col := range c.tbl.Columns {
		fc := &c.cols[i]
		h := &Hist{ID: col.ID, Types: []*types.FieldType{&col.FieldType}, Rows: c.rows, NullCount: fc.nulls,
			NDV: fc.ndv.count(), TotSize: fc.size, SampledAll: sampledAll}
		var vals [][]byte
		var pos []int64
		for _, r := range c.sample {
			if r.cols[i] != nil {
				vals = append(vals, r.cols[i])
				pos = append(pos, r.pos)
			}
		}
		h.Correlation = correlation(vals, pos)
		c.finishHist(h, vals, c.rows-fc.nulls)
		t.Columns[col.ID] = h
	}
	for k, idx := range c.indexes {
		fc := &c.idxs[k]
		h := &Hist{ID: idx.ID, IsIndex: true, Unique: idx.Unique || idx.Primary, Rows: c.rows,
			NullCount: fc.nulls, NDV: fc.ndv.count(), TotSize: fc.size, SampledAll: sampledAll}
		for _, ic := range idx.Columns {
			h.Types = append(h.Types, &c.tbl.Columns[ic.Offset].FieldType)
			h.Lens = append(h.Lens, ic.Length)
		}
		vals := make([][]byte, 0, len(c.sample))
		for _, r := range c.sample {
			vals = append(vals, r.idxs[k])
		}
		c.finishHist(h, vals, c.rows)
		t.Indices[idx.ID] = h
	}
	return t
}

// finishHist builds h's TopN and buckets from the sampled values vals,
// which stand for total rows.
func (c *Collector) finishHist(h *Hist, vals [][]byte, total int64) {
	if len(vals) == 0 {
		return
	}
	sort.Slice(vals, func(i, j int) bool { return bytes.Compare(vals[i], vals[j]) < 0 })
	scale := float64(total) / float64(len(vals))
	h.TopN, h.Buckets = buildTopNAndBuckets(vals, c.opts.TopN, c.opts.Buckets, scale, h.SampledAll)
}

// correlation is Spearman's rank correlation of the values with their
// rows' scan positions (values in any order; pos[i] is vals[i]'s row).
// Equal values share the rank of their first position.
func correlation(vals [][]byte, pos []int64) float64 {
	n := len(vals)
	if n < 2 {
		return 1
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pos[order[a]] < pos[order[b]] })
	// x: rank by position; y: rank by value.
	byVal := make([]int, n)
	copy(byVal, order)
	sort.SliceStable(byVal, func(a, b int) bool { return bytes.Compare(vals[byVal[a]], vals[byVal[b]]) < 0 })
	xr := make([]float64, n)
	for r, i := range order {
		xr[i] = float64(r)
	}
	yr := make([]float64, n)
	for r := 0; r < n; {
		s := r
		for r < n && bytes.Equal(vals[byVal[r]], vals[byVal[s]]) {
			r++
		}
		mid := float64(s+r-1) / 2
		for k := s; k < r; k++ {
			yr[byVal[k]] = mid
		}
	}
	var sx, sy, sxx, syy, sxy float64
	for i := 0; i < n; i++ {
		sx += xr[i]
		sy += yr[i]
		sxx += xr[i] * xr[i]
		syy += yr[i] * yr[i]
		sxy += xr[i] * yr[i]
	}
	fn := float64(n)
	cov := sxy - sx*sy/fn
	den := math.Sqrt((sxx - sx*sx/fn) * (syy - sy*sy/fn))
	if den == 0 {
		return 1
	}
	return math.Max(-1, math.Min(1, cov/den))
}
