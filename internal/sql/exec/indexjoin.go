package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// indexJoin reads its left input in batches; for each batch it looks up
// the right table's rows whose primary key or index prefix equals the
// batch's distinct lookup keys (one batch point get or index read), keeps
// those that pass the right side's conditions, hashes them by every
// equality key, and joins the batch's rows with them as hashJoin does.
type indexJoin struct {
	base
	p     *planner.Join
	inner *planner.IndexJoinInner
	outer Executor
	obuf  *chunk.Chunk
	j     *joiner
	rfts  []*types.FieldType

	store rowStore // the right rows of the batch (obuf's left rows)
	table joinTable
	key   []byte
	eof   bool
	out   joinOut
}

func (e *indexJoin) Open(ctx context.Context) error {
	if err := e.outer.Open(ctx); err != nil {
		return err
	}
	if e.obuf == nil {
		size := e.ectx.chunkSize()
		e.obuf = NewChunk(e.outer, size)
		e.rfts = planner.FieldTypes(e.inner.Source.Schema())
		e.j = newJoiner(e.ectx, e.p, e.outer.FieldTypes(), e.rfts)
		e.store = rowStore{fts: e.rfts}
	}
	e.eof = false
	e.out.reset(e.fts, e.ectx.chunkSize())
	e.store.mem = e.ectx.trackerFor(e.p)
	return nil
}

func (e *indexJoin) Next(ctx context.Context, chk *chunk.Chunk) error {
	return e.out.next(chk, func() bool { return e.eof }, func() error { return e.nextBatch(ctx) })
}

// nextBatch joins the next chunk of left rows into pending.
func (e *indexJoin) nextBatch(ctx context.Context) error {
	if err := e.outer.Next(ctx, e.obuf); err != nil {
		return err
	}
	n := e.obuf.NumRows()
	if n == 0 {
		e.eof = true
		return nil
	}
	if err := e.lookUp(ctx); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		row := e.obuf.GetRow(i)
		k, null, err := e.keyOf(e.p.EqLeft, row)
		if err != nil {
			return err
		}
		var cands []rowRef
		if !null {
			cands = e.table.lookup(k)
		}
		if err := e.j.emit(e.out.rows, row, &e.store, cands, tFalse); err != nil {
			return err
		}
	}
	return nil
}

// lookUp reads the right rows of the batch's lookup keys into store and
// table.
func (e *indexJoin) lookUp(ctx context.Context) error {
	e.store.reset()
	e.table.reset()
	seen := map[string]bool{}
	var tuples [][]expr.Expression
	for i := 0; i < e.obuf.NumRows(); i++ {
		row := e.obuf.GetRow(i)
		vals := make([]types.Datum, len(e.inner.KeyPos))
		null := false
		for i, k := range e.inner.KeyPos {
			d, err := e.p.EqLeft[k].Eval(e.ectx.Eval, row)
			if err != nil {
				return err
			}
			if d.IsNull() {
				null = true
				break
			}
			vals[i] = d.Clone()
		}
		if null {
			continue
		}
		k := string(codec.EncodeKey(nil, vals...))
		if seen[k] {
			continue
		}
		seen[k] = true
		t := make([]expr.Expression, len(vals))
		for i, v := range vals {
			t[i] = expr.NewConstant(v, e.p.EqLeft[e.inner.KeyPos[i]].Type())
		}
		tuples = append(tuples, t)
	}
	if len(tuples) == 0 {
		return nil
	}
	e.ectx.Stats.add(e.p, "lookups", int64(len(tuples)))
	src := e.inner.Source
	var read planner.Plan
	if e.inner.Index == nil {
		hs := make([]expr.Expression, len(tuples))
		for i, t := range tuples {
			hs[i] = t[0]
		}
		read = &planner.PointGet{TableSource: src, Handles: hs}
	} else {
		ranges := make([]planner.IndexRange, len(tuples))
		for i, t := range tuples {
			ranges[i] = planner.IndexRange{Eq: t}
		}
		read = &planner.IndexLookUp{TableSource: src, Index: e.inner.Index, Ranges: ranges, IndexOnly: e.inner.IndexOnly}
	}
	if len(e.inner.Conds) > 0 {
		read = &planner.Selection{Child: read, Conds: e.inner.Conds}
	}
	ex, err := build(e.ectx, read)
	if err != nil {
		return err
	}
	err = runAll(ctx, ex, e.ectx.chunkSize(), func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			row := c.GetRow(i)
			k, null, err := e.keyOf(e.p.EqRight, row)
			if err != nil {
				return err
			}
			if null {
				continue
			}
			ref := e.store.add(row)
			e.table.add(k, ref)
		}
		return nil
	})
	if err == nil {
		err = e.store.Err()
	}
	if e.ectx.Stats != nil {
		st := e.ectx.Stats.of(e.p.Right)
		st.Loops++
		st.Rows += int64(e.store.n)
	}
	return err
}

func (e *indexJoin) keyOf(keys []expr.Expression, row chunk.Row) ([]byte, bool, error) {
	k, null, err := joinKeyOf(e.ectx, e.p, keys, row, e.key[:0])
	e.key = k
	return k, null, err
}

func (e *indexJoin) Close() error {
	e.store.reset()
	e.table.release()
	return e.outer.Close()
}
