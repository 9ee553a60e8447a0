package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// projection evaluates expressions over each child row. Column
// references are copied a column at a time and signed integer
// expressions are evaluated a chunk at a time (expr.IntVec); the other
// expressions are evaluated row by row, in row order, so that those with
// side effects (user variables, RAND) see the rows as MySQL does.
type projection struct {
	base
	exprs []expr.Expression

	// vecs[c] is exprs[c] compiled, when it is an integer expression
	// of an integer output column.
	vecs    []*expr.IntVec
	sel     []int
	rowCols []int // the output columns of this chunk evaluated row by row
}

func newProjection(b base, exprs []expr.Expression) *projection {
	e := &projection{base: b, exprs: exprs, vecs: make([]*expr.IntVec, len(exprs))}
	for c, x := range exprs {
		if ft := b.fts[c]; ft.EvalType() == types.ETInt && !ft.IsUnsigned() {
			e.vecs[c] = expr.CompileInt(x)
		}
	}
	return e
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
	e.rowCols = e.rowCols[:0]
	for c, x := range e.exprs {
		if col, ok := x.(*expr.Column); ok {
			if !chk.Column(c).AppendColumn(e.buf.Column(col.Index), 0, n) {
				for i := 0; i < n; i++ {
					chk.Column(c).AppendDatum(ptr(e.buf.GetRow(i).GetDatum(col.Index, col.Ft)))
				}
			}
			continue
		}
		if v := e.vecs[c]; v != nil {
			if done, err := e.appendVec(chk, c, v, n); err != nil || done {
				if err != nil {
					return err
				}
				continue
			}
		}
		e.rowCols = append(e.rowCols, c)
	}
	if len(e.rowCols) == 0 {
		return nil
	}
	for i := 0; i < n; i++ {
		row := e.buf.GetRow(i)
		for _, c := range e.rowCols {
			d, err := e.exprs[c].Eval(e.ectx.Eval, row)
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

// appendVec fills output column c from v over the n rows of e.buf; done
// is false when the chunk must be evaluated row by row instead.
func (e *projection) appendVec(chk *chunk.Chunk, c int, v *expr.IntVec, n int) (done bool, err error) {
	e.sel = allRows(e.sel, n)
	vals, states, ok := v.Eval(e.ectx.Eval, e.buf, e.sel)
	if !ok {
		return false, nil
	}
	col := chk.Column(c)
	for i := 0; i < n; i++ {
		switch states[i] {
		case expr.VecNull:
			col.AppendNull()
		case expr.VecSlow:
			d, err := e.exprs[c].Eval(e.ectx.Eval, e.buf.GetRow(i))
			if err != nil {
				return false, err
			}
			if d, err = fitType(d, e.fts[c]); err != nil {
				return false, err
			}
			col.AppendDatum(&d)
		default:
			col.AppendInt64(vals[i])
		}
	}
	return true, nil
}
