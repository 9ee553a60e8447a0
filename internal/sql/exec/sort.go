package exec

import (
	"context"
	"slices"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// sortExec orders all child rows by the ORDER BY items (a stable sort);
// as TopN it then returns only rows offset..offset+count.
type sortExec struct {
	base
	by            []planner.ByItem
	offset, count expr.Expression
	topN          bool

	rows  []sortRow
	pos   int
	mem   *MemTracker
	bytes int64
}

type sortRow struct {
	row  chunk.Row
	keys []types.Datum
}

func (e *sortExec) Open(ctx context.Context) error {
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.rows, e.pos = e.rows[:0], 0
	e.mem, e.bytes = e.ectx.trackerFor(e.node), 0
	skip, left := uint64(0), ^uint64(0)
	if e.topN {
		var err error
		if skip, err = evalLimit(e.ectx, e.offset, 0); err != nil {
			return err
		}
		if left, err = evalLimit(e.ectx, e.count, ^uint64(0)); err != nil {
			return err
		}
	}
	for {
		if err := e.child.Next(ctx, e.buf); err != nil {
			return err
		}
		n := e.buf.NumRows()
		if n == 0 {
			break
		}
		store := chunk.New(e.fts, n)
		for i := 0; i < n; i++ {
			store.AppendRow(e.buf.GetRow(i))
			row := store.GetRow(i)
			keys := make([]types.Datum, len(e.by))
			for k, b := range e.by {
				d, err := b.Expr.Eval(e.ectx.Eval, row)
				if err != nil {
					return err
				}
				keys[k] = d
			}
			e.rows = append(e.rows, sortRow{row: row, keys: keys})
			sz := rowSize(row, e.fts) + int64(len(keys))*24 + 48
			e.bytes += sz
			if err := e.mem.Consume(sz); err != nil {
				return err
			}
		}
	}
	ords := byOrders(e.by)
	slices.SortStableFunc(e.rows, func(a, b sortRow) int {
		for k, item := range e.by {
			c := ords[k].CompareNullsFirst(&a.keys[k], &b.keys[k])
			if item.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
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

// compareNullsFirst orders NULL before every value, as MySQL's ORDER BY.
func compareNullsFirst(a, b *types.Datum) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		return -1
	case b.IsNull():
		return 1
	}
	return a.Compare(b)
}

func (e *sortExec) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for e.pos < len(e.rows) && !chk.IsFull() {
		chk.AppendRow(e.rows[e.pos].row)
		e.pos++
	}
	return nil
}

// Close releases the sorted rows (the tree may be kept for reuse).
func (e *sortExec) Close() error {
	_ = e.mem.Consume(-e.bytes)
	e.bytes = 0
	clear(e.rows)
	e.rows = e.rows[:0]
	return e.base.Close()
}
