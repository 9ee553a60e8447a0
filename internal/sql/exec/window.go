package exec

import (
	"context"
	"math"

	"github.com/pingcap/tidb/pkg/parser/mysql"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// window reads all its child's rows (sorted by partition, then order
// keys), computes every function for every row partition by partition,
// and returns the rows with the results appended.
type window struct {
	base
	p *planner.Window

	store rowStore
	rows  []winRow
	out   [][]types.Datum // per row, the function results
	pos   int

	// keys evaluates the PARTITION BY then the ORDER BY expressions over
	// a chunk; ords are their orders (collation sort keys).
	keys chunkExprs
	ords []expr.Order
}

// winRow is the partition and order keys of the store's row of the same
// position.
type winRow struct {
	part  []types.Datum
	order []types.Datum
}

func newWindow(b base, p *planner.Window) *window {
	ks := append([]expr.Expression(nil), p.PartitionBy...)
	for _, o := range p.OrderBy {
		ks = append(ks, o.Expr)
	}
	e := &window{base: b, p: p, keys: newChunkExprs(ks), ords: make([]expr.Order, len(ks))}
	for k, x := range ks {
		e.ords[k] = expr.OrderOf(x.Type())
	}
	return e
}

func (e *window) Open(ctx context.Context) error {
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.store = rowStore{fts: e.child.FieldTypes(), mem: e.ectx.trackerFor(e.p)}
	e.rows, e.out, e.pos = e.rows[:0], e.out[:0], 0
	np, no := len(e.p.PartitionBy), len(e.p.OrderBy)
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		n := c.NumRows()
		slab := make([]types.Datum, n*(np+no)) // the chunk's rows' keys
		if err := e.keys.evalInto(e.ectx.Eval, c, slab, np+no); err != nil {
			return err
		}
		for i := range slab {
			// The chunk is reused: keep copies, as collation sort keys
			// (see sameDatums).
			slab[i] = e.ords[i%(np+no)].Key(slab[i].Clone())
		}
		for i := 0; i < n; i++ {
			e.store.add(c.GetRow(i))
			keys := slab[i*(np+no) : (i+1)*(np+no)]
			e.rows = append(e.rows, winRow{part: keys[:np:np], order: keys[np:]})
		}
		return nil
	})
	if err == nil {
		err = e.store.Err()
	}
	if err != nil {
		return err
	}
	nf := len(e.p.Funcs)
	e.out = make([][]types.Datum, len(e.rows))
	slab := make([]types.Datum, len(e.rows)*nf)
	for i := range e.out {
		e.out[i] = slab[i*nf : (i+1)*nf : (i+1)*nf]
	}
	for start := 0; start < len(e.rows); {
		end := start + 1
		for end < len(e.rows) && sameDatums(e.rows[start].part, e.rows[end].part) {
			end++
		}
		if err := e.partition(start, end); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// sameDatums reports whether two rows' partition (or ORDER BY) values
// are equal; string values are held as their collation's sort keys, so
// 'a' and 'A' share a partition under a _ci collation.
func sameDatums(a, b []types.Datum) bool {
	for i := range a {
		if (expr.Order{}).CompareNullsFirst(&a[i], &b[i]) != 0 {
			return false
		}
	}
	return true
}

// partition computes the functions for rows [start, end).
func (e *window) partition(start, end int) error {
	n := end - start
	// Peer groups: peerStart[i], peerEnd[i] (exclusive), in partition
	// positions.
	peerStart, peerEnd := make([]int, n), make([]int, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && sameDatums(e.rows[start+i].order, e.rows[start+j].order) {
			j++
		}
		for k := i; k < j; k++ {
			peerStart[k], peerEnd[k] = i, j
		}
		i = j
	}
	for fi, f := range e.p.Funcs {
		if err := e.compute(fi, f, start, n, peerStart, peerEnd); err != nil {
			return err
		}
	}
	return nil
}

func (e *window) row(start, i int) chunk.Row { return e.store.at(start + i) }

func (e *window) compute(fi int, f *planner.WindowFunc, start, n int, peerStart, peerEnd []int) error {
	set := func(i int, d types.Datum) { e.out[start+i][fi] = d }
	switch f.Name {
	case planner.WinRowNumber:
		for i := 0; i < n; i++ {
			set(i, types.NewIntDatum(int64(i+1)))
		}
		return nil
	case planner.WinRank:
		for i := 0; i < n; i++ {
			set(i, types.NewIntDatum(int64(peerStart[i]+1)))
		}
		return nil
	case planner.WinDenseRank:
		rank := int64(0)
		for i := 0; i < n; i++ {
			if i == peerStart[i] {
				rank++
			}
			set(i, types.NewIntDatum(rank))
		}
		return nil
	case planner.WinPercentRank:
		for i := 0; i < n; i++ {
			v := 0.0
			if n > 1 {
				v = float64(peerStart[i]) / float64(n-1)
			}
			set(i, types.NewFloat64Datum(v))
		}
		return nil
	case planner.WinCumeDist:
		for i := 0; i < n; i++ {
			set(i, types.NewFloat64Datum(float64(peerEnd[i])/float64(n)))
		}
		return nil
	case planner.WinNtile:
		for i := 0; i < n; i++ {
			b, err := evalCount(e.ectx, f.Args[0], e.row(start, i))
			if err != nil {
				return err
			}
			if b <= 0 {
				set(i, types.NewNullDatum())
				continue
			}
			// The first n % b buckets hold one row more.
			size, extra := int64(n)/b, int64(n)%b
			var bucket int64
			if big := (size + 1) * extra; int64(i) < big {
				bucket = int64(i)/(size+1) + 1
			} else {
				bucket = extra + (int64(i)-big)/max(size, 1) + 1
			}
			set(i, types.NewIntDatum(bucket))
		}
		return nil
	case planner.WinLag, planner.WinLead:
		for i := 0; i < n; i++ {
			row := e.row(start, i)
			off := int64(1)
			if len(f.Args) > 1 {
				var err error
				if off, err = evalCount(e.ectx, f.Args[1], row); err != nil {
					return err
				}
			}
			j := int64(i) - off
			if f.Name == planner.WinLead {
				j = int64(i) + off
			}
			var d types.Datum
			var err error
			switch {
			case j >= 0 && j < int64(n):
				d, err = f.Args[0].Eval(e.ectx.Eval, e.row(start, int(j)))
			case len(f.Args) > 2:
				d, err = f.Args[2].Eval(e.ectx.Eval, row)
			}
			if err != nil {
				return err
			}
			set(i, e.fit(d, f))
		}
		return nil
	}
	return e.framed(fi, f, start, n, peerStart, peerEnd)
}

// evalCount evaluates a non-negative count argument (NTILE, LAG offsets).
func evalCount(ectx *Context, x expr.Expression, row chunk.Row) (int64, error) {
	d, err := x.Eval(ectx.Eval, row)
	if err != nil || d.IsNull() {
		return 0, err
	}
	v, err := expr.ConvertTo(ectx.Eval, d, types.NewFieldType(mysql.TypeLonglong))
	if err != nil {
		return 0, err
	}
	return v.GetInt64(), nil
}

func (e *window) fit(d types.Datum, f *planner.WindowFunc) types.Datum {
	if d.IsNull() {
		return d
	}
	d = d.Clone()
	if v, err := expr.ConvertTo(e.ectx.Eval, d, f.Ft); err == nil {
		d = v
	}
	return d
}

// frameOf returns row i's frame [lo, hi) in partition positions.
func (e *window) frameOf(start, i, n int, peerStart, peerEnd []int) (int, int, error) {
	fr := e.p.Frame
	if fr == nil {
		if len(e.p.OrderBy) == 0 {
			return 0, n, nil
		}
		return 0, peerEnd[i], nil
	}
	bound := func(b planner.FrameBound, isStart bool) (int, error) {
		switch {
		case b.Unbounded && b.Preceding:
			return 0, nil
		case b.Unbounded:
			return n, nil
		case b.Current:
			if fr.Rows {
				if isStart {
					return i, nil
				}
				return i + 1, nil
			}
			if isStart {
				return peerStart[i], nil
			}
			return peerEnd[i], nil
		}
		if fr.Rows {
			off, err := evalCount(e.ectx, b.Offset, chunk.Row{})
			if err != nil {
				return 0, err
			}
			p := i + int(off)
			if b.Preceding {
				p = i - int(off)
			}
			if !isStart {
				p++
			}
			return min(max(p, 0), n), nil
		}
		return e.rangeBound(b, isStart, start, i, n)
	}
	lo, err := bound(fr.Start, true)
	if err != nil {
		return 0, 0, err
	}
	hi, err := bound(fr.End, false)
	if err != nil {
		return 0, 0, err
	}
	return lo, max(hi, lo), nil
}

// rangeBound finds a RANGE offset bound over the one numeric ORDER BY
// key: the first row whose key is at least (start) / the position after
// the last row whose key is at most (end) the current key -/+ offset,
// in the ORDER BY direction.
func (e *window) rangeBound(b planner.FrameBound, isStart bool, start, i, n int) (int, error) {
	od, err := b.Offset.Eval(e.ectx.Eval, chunk.Row{})
	if err != nil {
		return 0, err
	}
	off := toFloat(e.ectx, od)
	cur := e.rows[start+i].order[0]
	if cur.IsNull() {
		// NULL keys' frame is their peers.
		j := i
		for j > 0 && e.rows[start+j-1].order[0].IsNull() {
			j--
		}
		if isStart {
			return j, nil
		}
		k := i
		for k < n && e.rows[start+k].order[0].IsNull() {
			k++
		}
		return k, nil
	}
	desc := e.p.OrderBy[0].Desc
	c := toFloat(e.ectx, cur)
	// target: the key value at the bound, in ascending terms.
	target := c - off
	if b.Preceding == desc {
		target = c + off
	}
	// pos(k) is the key's position along the ORDER BY direction.
	before := func(j int) bool { // row j is before the bound
		d := e.rows[start+j].order[0]
		if d.IsNull() {
			return true
		}
		v := toFloat(e.ectx, d)
		if isStart {
			if desc {
				return v > target
			}
			return v < target
		}
		if desc {
			return v >= target
		}
		return v <= target
	}
	j := 0
	for j < n && before(j) {
		j++
	}
	return j, nil
}

func toFloat(ectx *Context, d types.Datum) float64 {
	v, err := expr.ConvertTo(ectx.Eval, d, types.NewFieldType(mysql.TypeDouble))
	if err != nil || v.IsNull() {
		return math.NaN()
	}
	return v.GetFloat64()
}

// framed computes value and aggregate functions over each row's frame,
// folding rows in incrementally while frames only grow at the end.
func (e *window) framed(fi int, f *planner.WindowFunc, start, n int, peerStart, peerEnd []int) error {
	var st *aggState
	stLo, stHi := -1, -1
	for i := 0; i < n; i++ {
		lo, hi, err := e.frameOf(start, i, n, peerStart, peerEnd)
		if err != nil {
			return err
		}
		var d types.Datum
		switch f.Name {
		case planner.WinFirstValue, planner.WinLastValue, planner.WinNthValue:
			idx := lo
			if f.Name == planner.WinLastValue {
				idx = hi - 1
			}
			if f.Name == planner.WinNthValue {
				k, err := evalCount(e.ectx, f.Args[1], e.row(start, i))
				if err != nil {
					return err
				}
				idx = lo + int(k) - 1
				if k < 1 {
					idx = hi
				}
			}
			if idx >= lo && idx < hi {
				if d, err = f.Args[0].Eval(e.ectx.Eval, e.row(start, idx)); err != nil {
					return err
				}
			}
			e.out[start+i][fi] = e.fit(d, f)
			continue
		}
		if st == nil || lo != stLo || hi < stHi {
			st, stLo, stHi = &aggState{}, lo, lo
		}
		for ; stHi < hi; stHi++ {
			if err := st.update(e.ectx.Eval, f.Agg, e.row(start, stHi)); err != nil {
				return err
			}
		}
		e.out[start+i][fi] = st.result(e.ectx.Eval, f.Agg).Clone()
	}
	return nil
}

func (e *window) Next(_ context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	nin := len(e.store.fts)
	for e.pos < len(e.rows) && !chk.IsFull() {
		chk.AppendPartialRow(0, e.store.at(e.pos))
		for fi := range e.p.Funcs {
			d := e.out[e.pos][fi]
			chk.AppendDatum(nin+fi, &d)
		}
		e.pos++
	}
	return nil
}

func (e *window) Close() error {
	e.store.reset()
	e.rows, e.out = e.rows[:0], nil
	return e.base.Close()
}
