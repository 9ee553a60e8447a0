package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
)

// projection evaluates expressions over each child row.
type projection struct {
	base
	exprs []expr.Expression
}

func (e *projection) Open(ctx context.Context) error { return e.openChild(ctx) }

func (e *projection) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if err := e.child.Next(ctx, e.buf); err != nil {
		return err
	}
	n := e.buf.NumRows()
	if len(e.exprs) == 0 {
		chk.SetNumVirtualRows(n)
		return nil
	}
	for i := 0; i < n; i++ {
		row := e.buf.GetRow(i)
		for c, x := range e.exprs {
			if col, ok := x.(*expr.Column); ok {
				chk.Column(c).AppendDatum(ptr(row.GetDatum(col.Index, col.Ft)))
				continue
			}
			d, err := x.Eval(e.ectx.Eval, row)
			if err != nil {
				return err
			}
			d, err = fitType(d, e.fts[c])
			if err != nil {
				return err
			}
			chk.AppendDatum(c, &d)
		}
	}
	return nil
}
