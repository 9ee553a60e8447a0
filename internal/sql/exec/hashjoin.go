package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
)

// hashJoin reads its build side (the right input, or the left for an
// inner join with BuildLeft) into a rowStore and a hash table by the
// equality keys, then streams the probe side through it. Without keys
// every build row is a candidate (a nested loop). Rows with a NULL key
// (not <=>) never match; with a null-aware key (IN) they make the match
// NULL instead. Over the memory quota a join with keys becomes a grace
// hash join (spill_join.go).
type hashJoin struct {
	base
	p           *planner.Join
	left, right Executor
	lbuf, rbuf  *chunk.Chunk
	j           *joiner

	store     rowStore
	table     joinTable
	allRefs   []rowRef
	buildNull bool // null-aware: some build key is NULL
	key       []byte
	// firstOnly: a semi-family join building its right side with no
	// condition besides the keys needs one build row per key (a match is
	// decided by the key alone), so later rows with a kept key are dropped.
	firstOnly bool

	probeRow int
	probeEOF bool
	out      joinOut

	// buildRows counts the build rows kept (those with a NULL key only
	// when null-aware): "the build side is not empty" for NOT IN.
	buildRows int64
	building  bool // reading a build side (the only time Spill can act)
	grace     graceJoin
}

func (e *hashJoin) Open(ctx context.Context) error {
	if err := e.left.Open(ctx); err != nil {
		return err
	}
	if err := e.right.Open(ctx); err != nil {
		return err
	}
	size := e.ectx.chunkSize()
	if e.lbuf == nil {
		e.lbuf, e.rbuf = NewChunk(e.left, size), NewChunk(e.right, size)
		e.j = newJoiner(e.ectx, e.p, e.left.FieldTypes(), e.right.FieldTypes())
	}
	build, _ := e.sides()
	e.firstOnly = e.p.Kind.IsSemi() && !e.p.BuildLeft && !e.j.needsPair
	e.grace.close()
	e.store = rowStore{fts: build.in.FieldTypes(), mem: e.ectx.trackerFor(e.p)}
	e.table.reset()
	e.buildNull, e.buildRows = false, 0
	e.probeRow, e.probeEOF = 0, false
	e.out.reset(e.fts, size)
	if len(build.keys) > 0 {
		e.store.mem.AddSpiller(e)
	}
	e.building = true
	defer func() { e.building = false }()
	err := drainInto(ctx, build.in, build.buf, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			row := c.GetRow(i)
			k, null, err := e.keyOf(build.keys, row)
			if err != nil {
				return err
			}
			if null {
				if e.p.NullAwareKey {
					e.buildNull = true
					e.buildRows++
					if !e.grace.spilled {
						e.store.add(row)
					}
				}
				continue
			}
			e.buildRows++
			if err := e.addBuild(k, row); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := e.store.Err(); err != nil {
		return err
	}
	if err := e.grace.endBuild(); err != nil {
		return err
	}
	e.allRefs = e.store.all(e.allRefs)
	e.lbuf.Reset()
	e.rbuf.Reset()
	return nil
}

// joinSide is one input of a hash join: the executor, the chunk it is
// read into and its equality keys.
type joinSide struct {
	in   Executor
	buf  *chunk.Chunk
	keys []expr.Expression
}

// sides returns the build input (the right one, unless BuildLeft) and
// the probe input.
func (e *hashJoin) sides() (build, probe joinSide) {
	l, r := joinSide{e.left, e.lbuf, e.p.EqLeft}, joinSide{e.right, e.rbuf, e.p.EqRight}
	if e.p.BuildLeft {
		return l, r
	}
	return r, l
}

func (e *hashJoin) keyOf(keys []expr.Expression, row chunk.Row) ([]byte, bool, error) {
	k, null, err := joinKeyOf(e.ectx, e.p, keys, row, e.key[:0])
	e.key = k
	return k, null, err
}

func (e *hashJoin) Next(ctx context.Context, chk *chunk.Chunk) error {
	return e.out.next(chk, func() bool { return e.probeEOF }, func() error { return e.fill(ctx, chk.Capacity()) })
}

// fill probes rows until pending holds at least n rows or the probe side
// ends.
func (e *hashJoin) fill(ctx context.Context, n int) error {
	if e.grace.spilled || e.grace.phase != graceOff {
		return e.fillGrace(ctx, n)
	}
	_, pr := e.sides()
	for e.out.rows.NumRows() < n {
		row, ok, err := e.nextProbe(ctx, pr)
		if err != nil {
			return err
		}
		if !ok {
			e.probeEOF = true
			return nil
		}
		if len(pr.keys) == 0 {
			if err := e.probe(row, nil, false, true); err != nil {
				return err
			}
			continue
		}
		k, null, err := e.keyOf(pr.keys, row)
		if err != nil {
			return err
		}
		if err := e.probe(row, k, null, false); err != nil {
			return err
		}
	}
	return nil
}

// nextProbe returns the next row of the probe input (false at its end).
func (e *hashJoin) nextProbe(ctx context.Context, pr joinSide) (chunk.Row, bool, error) {
	if e.probeRow >= pr.buf.NumRows() {
		if err := pr.in.Next(ctx, pr.buf); err != nil {
			return chunk.Row{}, false, err
		}
		e.probeRow = 0
		if pr.buf.NumRows() == 0 {
			return chunk.Row{}, false, nil
		}
	}
	e.probeRow++
	return pr.buf.GetRow(e.probeRow - 1), true, nil
}

// probe emits the output of probe row (with join key k, or a NULL key)
// against the build rows in memory (all of them for a join without
// keys).
func (e *hashJoin) probe(row chunk.Row, k []byte, null, keyless bool) error {
	forced := tFalse
	var cands []rowRef
	if keyless {
		cands = e.allRefs
	} else {
		switch {
		case null && e.p.NullAwareKey:
			if e.buildRows > 0 {
				forced = tNull
			}
		case null:
		default:
			cands = e.table.lookup(k)
			if len(cands) == 0 && e.buildNull {
				forced = tNull
			}
		}
	}
	if e.p.BuildLeft {
		_, err := e.j.pairs(e.out.rows, row, &e.store, cands, true)
		return err
	}
	return e.j.emit(e.out.rows, row, &e.store, cands, forced)
}

func (e *hashJoin) Close() error {
	e.grace.close()
	e.store.reset()
	e.table.release()
	e.allRefs = e.allRefs[:0]
	err := e.left.Close()
	if err2 := e.right.Close(); err == nil {
		err = err2
	}
	return err
}
