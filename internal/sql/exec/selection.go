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
