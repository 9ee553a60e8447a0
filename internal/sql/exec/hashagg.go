package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// hashAgg groups all child rows by the GROUP BY values (keyed by their
// collation sort keys) and returns one row per group, in order of first
// appearance. Over the memory quota it spills (spill_agg.go): the groups
// in memory are written, with their states, to partition files by the
// hash of their key, and every later row goes to its group's partition;
// the partitions are then aggregated one at a time (partitioned again
// if one is still too big). A group's records keep their input order in
// its partition, so first rows, GROUP_CONCAT order and DISTINCT come
// out as in memory; only the order of the groups differs.
type hashAgg struct {
	base
	p      *planner.Agg
	groups []*aggGroup
	pos    int
	mem    *MemTracker
	bytes  int64

	index   map[string]*aggGroup
	cfts    []*types.FieldType
	ords    []expr.Order
	vals    []types.Datum
	key     []byte
	spill   aggSpill
	filling bool // aggregating (the only time Spill can act)
}

func (e *hashAgg) Open(ctx context.Context) error {
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.spill.close()
	e.groups, e.pos = e.groups[:0], 0
	e.mem, e.bytes = e.ectx.trackerFor(e.node), 0
	e.index = make(map[string]*aggGroup)
	e.cfts = e.child.FieldTypes()
	e.vals = make([]types.Datum, len(e.p.GroupBy))
	e.ords = expr.OrdersOf(e.p.GroupBy) // group by the collation's sort keys
	e.mem.AddSpiller(e)
	e.filling = true
	defer func() { e.filling = false }()
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			if err := e.add(c.GetRow(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.spill.endLevel(e.mem)
}

// groupKey evaluates the GROUP BY key of row into e.key.
func (e *hashAgg) groupKey(row chunk.Row) error {
	for k, g := range e.p.GroupBy {
		d, err := g.Eval(e.ectx.Eval, row)
		if err != nil {
			return err
		}
		e.vals[k] = d
	}
	e.key = expr.AppendGroupKey(e.key[:0], e.ords, e.vals)
	return nil
}

// add folds one input row into its group, or sends it to its group's
// partition once the level has spilled.
func (e *hashAgg) add(row chunk.Row) error {
	if err := e.groupKey(row); err != nil {
		return err
	}
	if e.spill.active {
		return e.spill.writeRow(e.key, row)
	}
	g := e.index[string(e.key)]
	if g == nil {
		g = newAggGroup(e.p, row, e.cfts)
		e.index[string(e.key)] = g
		e.groups = append(e.groups, g)
		if err := e.charge(int64(len(e.key)) + rowSize(row, e.cfts) + 64*int64(len(e.p.Funcs)) + 64); err != nil {
			return err
		}
		if e.spill.active { // the new group went to disk: so does its row
			return e.spill.writeRow(e.key, row)
		}
	}
	return g.update(e.ectx.Eval, e.p, row)
}

// charge counts sz more bytes of groups (which may make e spill).
func (e *hashAgg) charge(sz int64) error {
	e.bytes += sz
	if err := e.mem.Consume(sz); err != nil {
		return err
	}
	return e.spill.err
}

// release forgets the groups in memory.
func (e *hashAgg) release() {
	_ = e.mem.Consume(-e.bytes)
	e.bytes = 0
	clear(e.groups)
	e.groups, e.pos = e.groups[:0], 0
	clear(e.index)
}

func (e *hashAgg) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for !chk.IsFull() {
		if e.pos >= len(e.groups) {
			more, err := e.nextPartition()
			if err != nil || !more {
				return err
			}
			continue
		}
		e.groups[e.pos].appendTo(e.p, chk)
		e.pos++
	}
	return nil
}

// Close releases the groups and partitions (the tree may be kept for
// reuse).
func (e *hashAgg) Close() error {
	e.release()
	e.index = nil
	e.spill.close()
	return e.base.Close()
}
