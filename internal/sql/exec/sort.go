package exec

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// sortExec orders all child rows by the ORDER BY items (a stable sort);
// as TopN it then returns only rows offset..offset+count. Over the
// memory quota it sorts externally: each Spill writes the rows held so
// far as a sorted run to a file, and the output merges the runs and the
// rows still in memory (spill_sort.go). A TopN with a small bound keeps
// only offset+count rows in a heap and never spills (topn_heap in
// spill_sort.go).
type sortExec struct {
	base
	by            []planner.ByItem
	offset, count expr.Expression
	topN          bool

	rows  []sortRow
	pos   int
	mem   *MemTracker
	bytes int64

	// filling: Open is reading the child (the only time Spill can act).
	filling bool
	codec   *rowCodec
	runs    []*spillFile
	merge   *sortMerger
	skip    uint64       // rows still to skip (merged output)
	left    uint64       // rows still to return (merged output)
	err     error        // a spill error, reported by Open
	ords    []expr.Order // the ORDER BY items' orders (collations)
	// keyExprs evaluates the ORDER BY items over a chunk.
	keyExprs chunkExprs
	// topStore holds a TopN heap's rows.
	topStore rowStore
	// intKeys: every row's keys are int64s or NULLs, at most maxIntKeys
	// of them: the rows are sorted through intSortKeys.
	intKeys bool
}

type sortRow struct {
	row  chunk.Row
	keys []types.Datum
	seq  int // arrival order: ties keep it, as a stable sort would
}

// maxIntKeys is how many ORDER BY items an intSortKey holds.
const maxIntKeys = 2

// topNHeapMax is the largest offset+count a TopN keeps in a heap; a
// larger bound sorts (and spills) as a full sort.
const topNHeapMax = 1 << 16

func (e *sortExec) Open(ctx context.Context) error {
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.closeRuns()
	e.rows, e.pos, e.err = e.rows[:0], 0, nil
	e.mem, e.bytes = e.ectx.trackerFor(e.node), 0
	e.ords = byOrders(e.by)
	skip, left := uint64(0), ^uint64(0)
	if e.topN {
		var err error
		if skip, err = EvalLimit(e.ectx.Eval, e.offset, 0); err != nil {
			return err
		}
		if left, err = EvalLimit(e.ectx.Eval, e.count, ^uint64(0)); err != nil {
			return err
		}
		if bound := skip + left; bound >= skip && bound <= topNHeapMax {
			return e.openTopN(ctx, skip, left)
		}
	}
	e.mem.AddSpiller(e)
	e.intKeys = len(e.by) <= maxIntKeys
	e.filling = true
	err := e.readAll(ctx)
	e.filling = false
	if err == nil {
		err = e.err
	}
	if err != nil {
		return err
	}
	e.sortRows()
	if len(e.runs) > 0 {
		e.skip, e.left = skip, left
		e.merge, err = newSortMerger(e, e.runs, e.rows)
		return err
	}
	if skip >= uint64(len(e.rows)) {
		e.rows = e.rows[:0]
	} else {
		e.rows = e.rows[skip:]
		if left < uint64(len(e.rows)) {
			e.rows = e.rows[:left]
		}
	}
	return nil
}

// readAll reads the child's rows into e.rows (spilling runs when asked).
func (e *sortExec) readAll(ctx context.Context) error {
	return e.drainChild(ctx, func(c *chunk.Chunk) error {
		n := c.NumRows()
		store := chunk.New(e.fts, n)
		for i := 0; i < n; i++ {
			store.AppendRow(c.GetRow(i))
		}
		nk := len(e.by)
		slab := make([]types.Datum, n*nk) // the chunk's rows' keys
		if err := e.keyExprs.evalInto(e.ectx.Eval, store, slab, nk); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			row := store.GetRow(i)
			keys := slab[i*nk : (i+1)*nk : (i+1)*nk]
			sr := sortRow{row: row, keys: keys, seq: len(e.rows)}
			if e.intKeys {
				e.checkIntKeys(&sr)
			}
			e.rows = append(e.rows, sr)
			sz := rowSize(row, e.fts) + int64(len(keys))*24 + 48
			e.bytes += sz
			if err := e.mem.Consume(sz); err != nil {
				return err
			}
			if e.err != nil {
				return e.err
			}
		}
		return nil
	})
}

// keysOf evaluates the ORDER BY items on row.
func (e *sortExec) keysOf(row chunk.Row) ([]types.Datum, error) {
	keys := make([]types.Datum, len(e.by))
	return keys, e.keysInto(keys, row)
}

// keysInto evaluates the ORDER BY items on row into keys.
func (e *sortExec) keysInto(keys []types.Datum, row chunk.Row) error {
	for k, b := range e.by {
		d, err := b.Expr.Eval(e.ectx.Eval, row)
		if err != nil {
			return err
		}
		keys[k] = d
	}
	return nil
}

// compareKeys orders two rows' ORDER BY values.
func (e *sortExec) compareKeys(a, b []types.Datum) int {
	for k, item := range e.by {
		c := e.ords[k].CompareNullsFirst(&a[k], &b[k])
		if item.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// sortKeyExprs is the chunk evaluation of ORDER BY items' expressions.
func sortKeyExprs(by []planner.ByItem) chunkExprs {
	ks := make([]expr.Expression, len(by))
	for k, b := range by {
		ks[k] = b.Expr
	}
	return newChunkExprs(ks)
}

// checkIntKeys ends intKeys when one of r's keys is neither an int64
// nor NULL.
func (e *sortExec) checkIntKeys(r *sortRow) {
	for k := range r.keys {
		if kd := r.keys[k].Kind(); kd != types.KindNull && kd != types.KindInt64 {
			e.intKeys = false
			return
		}
	}
}

func (e *sortExec) sortRows() {
	if e.intKeys && len(e.rows) <= math.MaxInt32 {
		e.sortIntKeys()
		return
	}
	// An unstable sort broken by arrival order: stable, in O(n log n)
	// (SortStableFunc merges in place in O(n log² n)).
	slices.SortFunc(e.rows, func(a, b sortRow) int {
		if c := e.compareKeys(a.keys, b.keys); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
}

// intSortKey is a row's int keys made comparable as unsigned
// integers (sign bit flipped, inverted for DESC), its NULL ranks, and
// its position in e.rows. Sorting these 24-byte keys moves a third of
// the bytes sortRows would, and compares without chasing pointers.
type intSortKey struct {
	k [maxIntKeys]uint64
	// rank: bit k is key k's rank against NULL (NULL sorts first
	// ascending, last descending).
	rank uint8
	idx  int32
}

// sortIntKeys sorts e.rows (in arrival order) by their int keys,
// ties in arrival order.
func (e *sortExec) sortIntKeys() {
	keys := make([]intSortKey, len(e.rows))
	for i := range e.rows {
		r := &e.rows[i]
		sk := &keys[i]
		sk.idx = int32(i)
		for k, item := range e.by {
			null := r.keys[k].IsNull()
			if !null {
				sk.k[k] = uint64(r.keys[k].GetInt64()) ^ 1<<63
			}
			if null == item.Desc {
				sk.rank |= 1 << k
			}
			if item.Desc {
				sk.k[k] = ^sk.k[k]
			}
		}
	}
	nk := len(e.by)
	slices.SortFunc(keys, func(a, b intSortKey) int {
		for k := 0; k < nk; k++ {
			if ra, rb := a.rank>>k&1, b.rank>>k&1; ra != rb {
				return cmp.Compare(ra, rb)
			}
			if c := cmp.Compare(a.k[k], b.k[k]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.idx, b.idx)
	})
	sorted := make([]sortRow, len(e.rows))
	for i, sk := range keys {
		sorted[i] = e.rows[sk.idx]
	}
	e.rows = sorted
}

// Spill writes the rows held so far as one sorted run and releases
// them; it does nothing outside Open's reading (a TopN heap or rows
// being returned stay in memory).
func (e *sortExec) Spill() (int64, error) {
	if !e.filling || len(e.rows) == 0 || e.err != nil {
		return 0, nil
	}
	e.sortRows()
	if e.codec == nil {
		e.codec = newRowCodec(e.fts)
	}
	f, err := newSpillFile()
	if err != nil {
		e.err = err
		return 0, err
	}
	var rec []byte
	for _, r := range e.rows {
		rec = e.codec.encode(rec[:0], r.row)
		f.write(rec)
	}
	if err := f.rewind(); err != nil {
		_ = f.Close()
		e.err = err
		return 0, err
	}
	e.runs = append(e.runs, f)
	e.mem.RecordSpill(f.written)
	clear(e.rows)
	e.rows = e.rows[:0]
	freed := e.bytes
	e.bytes = 0
	_ = e.mem.Consume(-freed)
	return freed, nil
}

// MemUsed reports the bytes of the rows held.
func (e *sortExec) MemUsed() int64 { return e.bytes }

func (e *sortExec) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.merge != nil {
		return e.nextMerged(chk)
	}
	for e.pos < len(e.rows) && !chk.IsFull() {
		chk.AppendRow(e.rows[e.pos].row)
		e.pos++
	}
	return nil
}

// nextMerged fills chk from the merge of the runs, applying a TopN's
// offset and count.
func (e *sortExec) nextMerged(chk *chunk.Chunk) error {
	for e.left > 0 && !chk.IsFull() {
		row, ok, err := e.merge.next()
		if err != nil || !ok {
			return err
		}
		if e.skip > 0 {
			e.skip--
		} else {
			chk.AppendRow(row)
			e.left--
		}
		if err := e.merge.advance(); err != nil {
			return err
		}
	}
	return nil
}

func (e *sortExec) closeRuns() {
	closeSpillFiles(e.runs)
	clear(e.runs)
	e.runs, e.merge = e.runs[:0], nil
}

// Close releases the sorted rows and the runs (the tree may be kept for
// reuse).
func (e *sortExec) Close() error {
	_ = e.mem.Consume(-e.bytes)
	e.bytes = 0
	clear(e.rows)
	e.rows = e.rows[:0]
	e.closeRuns()
	e.topStore.reset()
	return e.base.Close()
}
