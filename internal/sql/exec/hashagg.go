package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// hashAgg groups all child rows by the GROUP BY values (keyed by their
// memcomparable encoding) and returns one row per group, in order of
// first appearance.
type hashAgg struct {
	base
	p      *planner.Agg
	groups []*aggGroup
	pos    int
	mem    *MemTracker
	bytes  int64
}

func (e *hashAgg) Open(ctx context.Context) error {
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.groups, e.pos = e.groups[:0], 0
	e.mem, e.bytes = e.ectx.trackerFor(e.node), 0
	index := make(map[string]*aggGroup)
	cfts := e.child.FieldTypes()
	var key []byte
	vals := make([]types.Datum, len(e.p.GroupBy))
	ords := expr.OrdersOf(e.p.GroupBy) // group by the collation's sort keys
	for {
		if err := e.child.Next(ctx, e.buf); err != nil {
			return err
		}
		n := e.buf.NumRows()
		if n == 0 {
			return nil
		}
		for i := 0; i < n; i++ {
			row := e.buf.GetRow(i)
			for k, g := range e.p.GroupBy {
				d, err := g.Eval(e.ectx.Eval, row)
				if err != nil {
					return err
				}
				vals[k] = d
			}
			key = expr.AppendGroupKey(key[:0], ords, vals)
			g := index[string(key)]
			if g == nil {
				g = newAggGroup(e.p, row, cfts)
				index[string(key)] = g
				e.groups = append(e.groups, g)
				sz := int64(len(key)) + rowSize(row, cfts) + 64*int64(len(e.p.Funcs)) + 64
				e.bytes += sz
				if err := e.mem.Consume(sz); err != nil {
					return err
				}
			}
			if err := g.update(e.ectx.Eval, e.p, row); err != nil {
				return err
			}
		}
	}
}

func (e *hashAgg) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for e.pos < len(e.groups) && !chk.IsFull() {
		e.groups[e.pos].appendTo(e.p, chk)
		e.pos++
	}
	return nil
}

// Close releases the groups (the tree may be kept for reuse).
func (e *hashAgg) Close() error {
	_ = e.mem.Consume(-e.bytes)
	e.bytes = 0
	clear(e.groups)
	e.groups = e.groups[:0]
	return e.base.Close()
}
