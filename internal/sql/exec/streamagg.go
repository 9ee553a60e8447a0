package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// streamAgg aggregates all child rows into one group (no GROUP BY),
// streaming: nothing but the group's state is kept. Without input rows
// it still returns one row (COUNT 0, other results NULL).
type streamAgg struct {
	base
	p    *planner.Agg
	done bool
}

func (e *streamAgg) Open(ctx context.Context) error {
	e.done = false
	return e.openChild(ctx)
}

func (e *streamAgg) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	cfts := e.child.FieldTypes()
	var g *aggGroup
	for {
		if err := e.child.Next(ctx, e.buf); err != nil {
			return err
		}
		n := e.buf.NumRows()
		if n == 0 {
			break
		}
		for i := 0; i < n; i++ {
			row := e.buf.GetRow(i)
			if g == nil {
				g = newAggGroup(e.p, row, cfts)
			}
			if err := g.update(e.ectx.Eval, e.p, row); err != nil {
				return err
			}
		}
	}
	if g == nil {
		g = &aggGroup{first: make([]types.Datum, len(cfts)), states: make([]aggState, len(e.p.Funcs))}
	}
	g.appendTo(e.p, chk)
	return nil
}

func (e *streamAgg) maxRows() int { return 1 }
