package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
)

// expand emits each child row once per ROLLUP level, with that level's
// rolled-up grouping columns NULL and the level last.
type expand struct {
	base
	p    *planner.Expand
	row  int // next child row of buf
	lvl  int // next level of that row
	null map[int]int
}

func (e *expand) Open(ctx context.Context) error {
	e.row, e.lvl = 0, 0
	if e.null == nil {
		// null[c] = the lowest level at which column c is NULL.
		e.null = map[int]int{}
		n := len(e.p.Cols)
		for i, c := range e.p.Cols {
			if l, ok := e.null[c]; !ok || n-i < l {
				e.null[c] = n - i
			}
		}
	}
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.buf.Reset()
	return nil
}

func (e *expand) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	levels := len(e.p.Cols) + 1
	ncols := len(e.fts) - 1
	for !chk.IsFull() {
		if e.row >= e.buf.NumRows() {
			if err := e.child.Next(ctx, e.buf); err != nil {
				return err
			}
			e.row, e.lvl = 0, 0
			if e.buf.NumRows() == 0 {
				return nil
			}
		}
		r := e.buf.GetRow(e.row)
		for c := 0; c < ncols; c++ {
			if l, ok := e.null[c]; ok && e.lvl >= l {
				chk.AppendNull(c)
				continue
			}
			d := r.GetDatum(c, e.fts[c])
			chk.AppendDatum(c, &d)
		}
		chk.AppendInt64(ncols, int64(e.lvl))
		e.lvl++
		if e.lvl == levels {
			e.lvl = 0
			e.row++
		}
	}
	return nil
}
