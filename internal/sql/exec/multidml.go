package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/planner"
)

// multiDML fills the shared materialized join first, then runs each
// target's UPDATE or DELETE over it.
type multiDML struct {
	base
	mat     *materialize
	targets []Executor
	done    bool
}

func (e *multiDML) Open(ctx context.Context) error {
	e.done = false
	e.mat.filled = false
	return e.mat.fill(ctx)
}

func (e *multiDML) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	for _, t := range e.targets {
		if err := RunToEnd(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

func (e *multiDML) Close() error {
	e.mat.release()
	return nil
}

// materialize reads its child once (fill) and replays the rows to each
// reader that opens it.
type materialize struct {
	base
	store  rowStore
	filled bool
	pos    int
}

func (e *materialize) fill(ctx context.Context) error {
	if e.filled {
		return nil
	}
	if err := e.openChild(ctx); err != nil {
		return err
	}
	e.store.reset()
	e.store.fts, e.store.mem = e.child.FieldTypes(), e.ectx.trackerFor(e.node)
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			e.store.add(c.GetRow(i))
		}
		return e.store.Err()
	})
	if cerr := e.child.Close(); err == nil {
		err = cerr
	}
	e.filled = err == nil
	return err
}

func (e *materialize) Open(ctx context.Context) error {
	e.pos = 0
	return e.fill(ctx)
}

func (e *materialize) Next(_ context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for e.pos < e.store.n && !chk.IsFull() {
		chk.AppendRow(e.store.at(e.pos))
		e.pos++
	}
	return nil
}

// Close keeps the rows for the other readers; release drops them.
func (e *materialize) Close() error { return nil }

func (e *materialize) release() {
	e.store.reset()
	e.filled = false
}

// buildMultiDML builds the targets over one shared materialize.
func buildMultiDML(ectx *Context, x *planner.MultiDML) (Executor, error) {
	child, err := build(ectx, x.Mat.Child)
	if err != nil {
		return nil, err
	}
	m := &materialize{base: base{ectx: ectx, fts: planner.FieldTypes(x.Mat.Schema()), child: child, node: x.Mat}}
	if ectx.mats == nil {
		ectx.mats = map[*planner.Materialize]*materialize{}
	}
	ectx.mats[x.Mat] = m
	e := &multiDML{base: base{ectx: ectx, node: x}, mat: m}
	for _, t := range x.Targets {
		te, err := Build(ectx, t)
		if err != nil {
			return nil, err
		}
		e.targets = append(e.targets, te)
	}
	return e, nil
}
