package exec

import (
	"bytes"
	"context"
	"sort"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
)

// mergeJoin sorts both inputs by their equality keys (the keys' encoded
// bytes: an order in which equal keys are adjacent) and merges the runs
// of equal keys; left rows with a NULL key or no run on the right are
// joined with no candidates (NULLs for a left outer join). Output comes
// in key order.
type mergeJoin struct {
	base
	p           *planner.Join
	left, right Executor
	j           *joiner

	lstore, rstore rowStore
	lrows, rrows   []keyedRef
	li, ri         int
	out            joinOut
	key            []byte
}

type keyedRef struct {
	ref  rowRef
	key  []byte
	null bool
}

func (e *mergeJoin) Open(ctx context.Context) error {
	if e.j == nil {
		e.j = newJoiner(e.ectx, e.p, e.left.FieldTypes(), e.right.FieldTypes())
		e.lstore = rowStore{fts: e.left.FieldTypes()}
		e.rstore = rowStore{fts: e.right.FieldTypes()}
	}
	mem := e.ectx.trackerFor(e.p)
	e.lstore.mem, e.rstore.mem = mem, mem
	var err error
	if e.lrows, err = e.readSorted(ctx, e.left, &e.lstore, e.p.EqLeft); err != nil {
		return err
	}
	if e.rrows, err = e.readSorted(ctx, e.right, &e.rstore, e.p.EqRight); err != nil {
		return err
	}
	e.li, e.ri = 0, 0
	e.out.reset(e.fts, e.ectx.chunkSize())
	return nil
}

// readSorted reads all of in into store and returns its rows sorted by
// key (NULL keys first).
func (e *mergeJoin) readSorted(ctx context.Context, in Executor, store *rowStore, keys []expr.Expression) ([]keyedRef, error) {
	if err := in.Open(ctx); err != nil {
		return nil, err
	}
	store.reset()
	var out []keyedRef
	err := Drain(ctx, in, e.ectx.chunkSize(), func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			row := c.GetRow(i)
			k, null, err := joinKeyOf(e.ectx, e.p, keys, row, e.key[:0])
			if err != nil {
				return err
			}
			e.key = k
			out = append(out, keyedRef{ref: store.add(row), key: append([]byte(nil), k...), null: null})
		}
		return nil
	})
	if err == nil {
		err = store.Err()
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].null != out[b].null {
			return out[a].null
		}
		return bytes.Compare(out[a].key, out[b].key) < 0
	})
	return out, nil
}

func (e *mergeJoin) Next(ctx context.Context, chk *chunk.Chunk) error {
	return e.out.next(chk, func() bool { return e.li >= len(e.lrows) }, e.mergeRun)
}

// mergeRun joins the next run of equal left keys into pending.
func (e *mergeJoin) mergeRun() error {
	start := e.li
	for e.li < len(e.lrows) && e.lrows[e.li].null == e.lrows[start].null &&
		bytes.Equal(e.lrows[e.li].key, e.lrows[start].key) {
		e.li++
	}
	var cands []rowRef
	if !e.lrows[start].null {
		k := e.lrows[start].key
		for e.ri < len(e.rrows) && (e.rrows[e.ri].null || bytes.Compare(e.rrows[e.ri].key, k) < 0) {
			e.ri++
		}
		for r := e.ri; r < len(e.rrows) && bytes.Equal(e.rrows[r].key, k); r++ {
			cands = append(cands, e.rrows[r].ref)
		}
	}
	for _, l := range e.lrows[start:e.li] {
		if err := e.j.emit(e.out.rows, e.lstore.get(l.ref), &e.rstore, cands, tFalse); err != nil {
			return err
		}
	}
	return nil
}

func (e *mergeJoin) Close() error {
	e.lstore.reset()
	e.rstore.reset()
	e.lrows, e.rrows = nil, nil
	err := e.left.Close()
	if err2 := e.right.Close(); err == nil {
		err = err2
	}
	return err
}

// joinKeyOf appends the encoded equality keys of row to dst (null: a
// NULL key that matches nothing).
func joinKeyOf(ectx *Context, p *planner.Join, keys []expr.Expression, row chunk.Row, dst []byte) ([]byte, bool, error) {
	for i, k := range keys {
		d, err := k.Eval(ectx.Eval, row)
		if err != nil {
			return dst, false, err
		}
		if d.IsNull() {
			if !p.NullEQ[i] {
				return dst, true, nil
			}
			dst = append(dst, 0)
			continue
		}
		dst = p.Keys[i].Append(ectx.Eval, append(dst, 1), &d)
	}
	return dst, false, nil
}
