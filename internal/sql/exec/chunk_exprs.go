package exec

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// chunkExprs evaluates a list of expressions over every row of a chunk,
// expression by expression: signed integer ones a chunk at a time
// (expr.IntVec), the others row by row. Sort and window keys use it.
type chunkExprs struct {
	exprs []expr.Expression
	vecs  []*expr.IntVec // nil where an expression is not vectorized
	sel   []int
}

func newChunkExprs(exprs []expr.Expression) chunkExprs {
	k := chunkExprs{exprs: exprs, vecs: make([]*expr.IntVec, len(exprs))}
	for j, x := range exprs {
		k.vecs[j] = expr.CompileInt(x)
	}
	return k
}

// evalInto sets out[i*stride+j] to expression j on row i of c, for every
// row. Strings and decimals may alias c's memory.
func (k *chunkExprs) evalInto(ctx expr.EvalContext, c *chunk.Chunk, out []types.Datum, stride int) error {
	n := c.NumRows()
	for j, x := range k.exprs {
		if v := k.vecs[j]; v != nil {
			k.sel = allRows(k.sel, n)
			if vals, states, ok := v.Eval(ctx, c, k.sel); ok {
				for i := 0; i < n; i++ {
					d := &out[i*stride+j]
					switch states[i] {
					case expr.VecNull:
						*d = types.NewNullDatum()
					case expr.VecSlow:
						var err error
						if *d, err = x.Eval(ctx, c.GetRow(i)); err != nil {
							return err
						}
					default:
						*d = types.NewIntDatum(vals[i])
					}
				}
				continue
			}
		}
		for i := 0; i < n; i++ {
			d, err := x.Eval(ctx, c.GetRow(i))
			if err != nil {
				return err
			}
			out[i*stride+j] = d
		}
	}
	return nil
}

// allRows sets sel (reusing its memory) to the rows 0..n-1 of a chunk,
// the selection a chunk-at-a-time evaluation starts from.
func allRows(sel []int, n int) []int {
	sel = sel[:0]
	for i := 0; i < n; i++ {
		sel = append(sel, i)
	}
	return sel
}
