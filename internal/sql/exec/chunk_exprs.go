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
	exprs    []expr.Expression
	vecs     []*expr.IntVec
	compiled bool
	sel      []int
}

func newChunkExprs(exprs []expr.Expression) chunkExprs { return chunkExprs{exprs: exprs} }

// evalInto sets out[i*stride+j] to expression j on row i of c, for every
// row. Strings and decimals may alias c's memory.
func (k *chunkExprs) evalInto(ctx expr.EvalContext, c *chunk.Chunk, out []types.Datum, stride int) error {
	if !k.compiled {
		k.vecs, k.compiled = make([]*expr.IntVec, len(k.exprs)), true
		for j, x := range k.exprs {
			k.vecs[j] = expr.CompileInt(x)
		}
	}
	n := c.NumRows()
	for j, x := range k.exprs {
		if v := k.vecs[j]; v != nil {
			if cap(k.sel) < n {
				k.sel = make([]int, n)
			}
			k.sel = k.sel[:n]
			for i := range k.sel {
				k.sel[i] = i
			}
			if vals, states, ok := v.Eval(ctx, c, k.sel); ok {
				for i := 0; i < n; i++ {
					d := &out[i*stride+j]
					switch {
					case expr.IsNullState(states[i]):
						*d = types.NewNullDatum()
					case expr.IsSlow(states[i]):
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
