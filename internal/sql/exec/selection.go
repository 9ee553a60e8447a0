package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
)

// selection passes the rows for which every condition is true. Over a
// range read it checks the range's conditions, and is bypassed (the
// child's chunk passed through) when the read reports its range exact.
type selection struct {
	base
	conds  []expr.Expression
	bypass rangeReader

	// vec is conds compiled for whole chunks (nil: none vectorizes); sel
	// is its scratch.
	vec *expr.ChunkFilter
	sel []int
}

// newSelection filters b's child by conds; with bypass, the range read
// below usually stands for them, so they are not compiled for chunks.
func newSelection(b base, conds []expr.Expression, bypass rangeReader) *selection {
	e := &selection{base: b, conds: conds, bypass: bypass}
	if bypass == nil {
		e.vec = expr.NewChunkFilter(conds)
	}
	return e
}

// rangeReader is a read whose range may stand for its conditions.
type rangeReader interface {
	rangeExact() bool
}

func (e *selection) Open(ctx context.Context) error {
	if e.bypass != nil {
		return e.child.Open(ctx)
	}
	return e.openChild(ctx)
}

func (e *selection) Next(ctx context.Context, chk *chunk.Chunk) error {
	if e.bypass != nil {
		if e.bypass.rangeExact() {
			return e.child.Next(ctx, chk)
		}
		if e.buf == nil {
			e.buf = NewChunk(e.child, e.ectx.chunkSize())
		}
	}
	chk.Reset()
	for chk.NumRows() == 0 {
		if err := e.child.Next(ctx, e.buf); err != nil {
			return err
		}
		n := e.buf.NumRows()
		if n == 0 {
			return nil
		}
		if e.vec != nil {
			if err := e.keepVec(chk, n); err != nil {
				return err
			}
			continue
		}
		for i := 0; i < n; i++ {
			row := e.buf.GetRow(i)
			ok, err := evalFilter(e.ectx.Eval, e.conds, row)
			if err != nil {
				return err
			}
			if ok {
				chk.AppendRow(row)
			}
		}
	}
	return nil
}

// keepVec appends to chk the rows of e.buf (n of them) that pass the
// vectorized filter.
func (e *selection) keepVec(chk *chunk.Chunk, n int) error {
	sel, err := e.vec.Keep(e.ectx.Eval, e.buf, allRows(e.sel, n))
	if err != nil {
		return err
	}
	for _, r := range sel {
		chk.AppendRow(e.buf.GetRow(r))
	}
	e.sel = sel
	return nil
}

// evalFilter reports whether every condition is true on row.
func evalFilter(ctx expr.EvalContext, conds []expr.Expression, row chunk.Row) (bool, error) {
	for _, c := range conds {
		d, err := c.Eval(ctx, row)
		if err != nil {
			return false, err
		}
		if v, ok := d.ToBool(); !ok || !v {
			return false, nil
		}
	}
	return true, nil
}
