package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// limit skips offset rows and returns at most count.
type limit struct {
	base
	offsetE, countE expr.Expression
	skip, left      uint64
}

// EvalLimit evaluates a LIMIT/OFFSET value (nil: def): a non-negative
// integer, else 1210.
func EvalLimit(ev expr.EvalContext, e expr.Expression, def uint64) (uint64, error) {
	if e == nil {
		return def, nil
	}
	d, err := e.Eval(ev, chunk.Row{})
	if err != nil {
		return 0, err
	}
	v, err := d.ToInt64()
	if err != nil || d.IsNull() || v < 0 {
		return 0, sqlerr.New(sqlerr.ErrWrongArguments, "LIMIT")
	}
	return uint64(v), nil
}

func (e *limit) Open(ctx context.Context) error {
	var err error
	if e.skip, err = EvalLimit(e.ectx.Eval, e.offsetE, 0); err != nil {
		return err
	}
	if e.left, err = EvalLimit(e.ectx.Eval, e.countE, ^uint64(0)); err != nil {
		return err
	}
	return e.openChild(ctx)
}

func (e *limit) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for e.left > 0 && chk.NumRows() == 0 {
		if err := e.child.Next(ctx, e.buf); err != nil {
			return err
		}
		n := e.buf.NumRows()
		if n == 0 {
			return nil
		}
		for i := 0; i < n && e.left > 0; i++ {
			if e.skip > 0 {
				e.skip--
				continue
			}
			chk.AppendRow(e.buf.GetRow(i))
			e.left--
		}
	}
	return nil
}
