package exec

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// apply runs its inner plan once per outer row, after writing the outer
// row's values into the correlated columns' slots, and joins the row with
// the inner rows as a nested loop. An uncorrelated inner plan runs once
// per execution.
type apply struct {
	base
	p            *planner.Apply
	outer, inner Executor
	obuf, ibuf   *chunk.Chunk
	j            *joiner

	store     rowStore
	refs      []rowRef
	ran       bool
	innerOpen bool
	orow      int
	eof       bool
	out       joinOut
}

func (e *apply) Open(ctx context.Context) error {
	if err := e.outer.Open(ctx); err != nil {
		return err
	}
	size := e.ectx.chunkSize()
	if e.obuf == nil {
		e.obuf, e.ibuf = NewChunk(e.outer, size), NewChunk(e.inner, size)
		e.j = newJoiner(e.ectx, &e.p.Join, e.outer.FieldTypes(), e.inner.FieldTypes())
		e.store = rowStore{fts: e.inner.FieldTypes()}
	}
	e.store.reset()
	e.store.mem = e.ectx.trackerFor(e.p)
	e.ran, e.orow, e.eof = false, 0, false
	e.obuf.Reset()
	e.out.reset(e.fts, size)
	return nil
}

// runInner runs the inner plan for the current slot values into store.
func (e *apply) runInner(ctx context.Context) error {
	if e.ran && len(e.p.Corr) == 0 {
		return nil
	}
	e.store.reset()
	if e.innerOpen {
		e.innerOpen = false
		if err := e.inner.Close(); err != nil {
			return err
		}
	}
	if err := e.inner.Open(ctx); err != nil {
		return err
	}
	e.innerOpen = true
	err := drainInto(ctx, e.inner, e.ibuf, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			e.store.add(c.GetRow(i))
		}
		if err := e.store.Err(); err != nil {
			return err
		}
		if e.p.MaxOneRow && e.store.n > 1 {
			return sqlerr.New(mysql.ErrSubqueryNo1Row)
		}
		return nil
	})
	if err != nil {
		return err
	}
	e.refs = e.store.all(e.refs)
	e.ran = true
	return nil
}

func (e *apply) Next(ctx context.Context, chk *chunk.Chunk) error {
	return e.out.next(chk, func() bool { return e.eof }, func() error { return e.fill(ctx, chk.Capacity()) })
}

// fill joins outer rows until out holds n rows or the outer side ends.
func (e *apply) fill(ctx context.Context, n int) error {
	for e.out.rows.NumRows() < n {
		if e.orow >= e.obuf.NumRows() {
			if err := e.outer.Next(ctx, e.obuf); err != nil {
				return err
			}
			e.orow = 0
			if e.obuf.NumRows() == 0 {
				e.eof = true
				break
			}
		}
		row := e.obuf.GetRow(e.orow)
		e.orow++
		fts := e.outer.FieldTypes()
		for _, b := range e.p.Corr {
			*b.Slot = row.GetDatum(b.Outer, fts[b.Outer]).Clone()
		}
		if err := e.runInner(ctx); err != nil {
			return err
		}
		if err := e.j.emit(e.out.rows, row, &e.store, e.refs, tFalse); err != nil {
			return err
		}
	}
	return nil
}

func (e *apply) Close() error {
	e.store.reset()
	err := e.outer.Close()
	if e.innerOpen {
		e.innerOpen = false
		if err2 := e.inner.Close(); err == nil {
			err = err2
		}
	}
	return err
}

// maxOneRow passes at most one row of its child and fails with 1242 when
// there is a second.
type maxOneRow struct {
	base
	done bool
}

func (e *maxOneRow) Open(ctx context.Context) error {
	e.done = false
	return e.openChild(ctx)
}

func (e *maxOneRow) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	return e.drainChild(ctx, func(c *chunk.Chunk) error {
		if c.NumRows()+chk.NumRows() > 1 {
			return sqlerr.New(mysql.ErrSubqueryNo1Row)
		}
		chk.AppendRow(c.GetRow(0))
		return nil
	})
}

// dual returns a number of rows without columns.
type dual struct {
	base
	rows int
	done bool
}

func (e *dual) Open(context.Context) error {
	e.done = false
	return nil
}

func (e *dual) Next(_ context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if !e.done {
		e.done = true
		chk.SetNumVirtualRows(e.rows)
	}
	return nil
}

func (e *dual) maxRows() int { return e.rows }
