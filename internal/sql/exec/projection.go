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
	// of an integer output column; compiled says vecs is set up.
	vecs     []*expr.IntVec
	compiled bool
	sel      []int
	rowCols  []int // the output columns of this chunk evaluated row by row
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
	if !e.compiled {
		e.compile()
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

// compile sets up vecs.
func (e *projection) compile() {
	e.vecs, e.compiled = make([]*expr.IntVec, len(e.exprs)), true
	for c, x := range e.exprs {
		if ft := e.fts[c]; ft.EvalType() == types.ETInt && !ft.IsUnsigned() {
			e.vecs[c] = expr.CompileInt(x)
		}
	}
}

// appendVec fills output column c from v over the n rows of e.buf; done
// is false when the chunk must be evaluated row by row instead.
func (e *projection) appendVec(chk *chunk.Chunk, c int, v *expr.IntVec, n int) (done bool, err error) {
	sel := e.sel[:0]
	for i := 0; i < n; i++ {
		sel = append(sel, i)
	}
	e.sel = sel
	vals, states, ok := v.Eval(e.ectx.Eval, e.buf, sel)
	if !ok {
		return false, nil
	}
	col := chk.Column(c)
	for i := 0; i < n; i++ {
		switch {
		case expr.IsNullState(states[i]):
			col.AppendNull()
		case expr.IsSlow(states[i]):
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
