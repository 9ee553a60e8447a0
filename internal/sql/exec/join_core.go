package exec

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// rowStore keeps copies of rows in chunks of its own (inputs reuse
// theirs), addressed by a rowRef.
type rowStore struct {
	fts    []*types.FieldType
	chunks []*chunk.Chunk
	n      int
	// mem, when set, is charged for the rows (Err reports a quota error).
	mem   *MemTracker
	bytes int64
	err   error
}

type rowRef struct{ c, i int32 }

const storeChunkRows = 1024

func (s *rowStore) add(r chunk.Row) rowRef {
	if len(s.chunks) == 0 || s.chunks[len(s.chunks)-1].NumRows() >= storeChunkRows {
		s.chunks = append(s.chunks, chunk.New(s.fts, storeChunkRows))
	}
	c := s.chunks[len(s.chunks)-1]
	c.AppendRow(r)
	s.n++
	if s.mem != nil {
		b := rowSize(r, s.fts)
		s.bytes += b
		if err := s.mem.Consume(b); err != nil && s.err == nil {
			s.err = err
		}
	}
	return rowRef{int32(len(s.chunks) - 1), int32(c.NumRows() - 1)}
}

func (s *rowStore) get(ref rowRef) chunk.Row { return s.chunks[ref.c].GetRow(int(ref.i)) }

// at returns the i-th row added (every chunk but the last is full).
func (s *rowStore) at(i int) chunk.Row { return s.chunks[i/storeChunkRows].GetRow(i % storeChunkRows) }

func (s *rowStore) reset() {
	clear(s.chunks)
	s.chunks, s.n = s.chunks[:0], 0
	if s.mem != nil {
		_ = s.mem.Consume(-s.bytes)
	}
	s.bytes, s.err = 0, nil
}

// Err returns the memory quota error of an add, if any.
func (s *rowStore) Err() error { return s.err }

// all returns references to every stored row.
func (s *rowStore) all(out []rowRef) []rowRef {
	out = out[:0]
	for ci, c := range s.chunks {
		for i := 0; i < c.NumRows(); i++ {
			out = append(out, rowRef{int32(ci), int32(i)})
		}
	}
	return out
}

// joiner computes a join's output for one left row and the right rows
// that may match it (those with equal keys, or all): the pairs that
// satisfy the Other conditions (inner, left outer) or the row with its
// three-valued match (the semi family).
type joiner struct {
	ectx      *Context
	kind      planner.JoinKind
	other     []expr.Expression
	cmp       []expr.Expression
	nl, nr    int
	pair      *chunk.Chunk // one joined row, to evaluate conditions on
	needsPair bool
}

func newJoiner(ectx *Context, p *planner.Join, lfts, rfts []*types.FieldType) *joiner {
	j := &joiner{ectx: ectx, kind: p.Kind, other: p.Other, cmp: p.Cmp, nl: len(lfts), nr: len(rfts)}
	j.needsPair = len(p.Other) > 0 || len(p.Cmp) > 0
	if j.needsPair {
		j.pair = chunk.New(append(append([]*types.FieldType(nil), lfts...), rfts...), 1)
	}
	return j
}

func (j *joiner) joined(l, r chunk.Row) chunk.Row {
	j.pair.Reset()
	j.pair.AppendPartialRow(0, l)
	j.pair.AppendPartialRow(j.nl, r)
	return j.pair.GetRow(0)
}

// truth is a three-valued result.
type truth byte

const (
	tFalse truth = iota
	tNull
	tTrue
)

// match evaluates the pair (l, r): Other must be true (else FALSE), then
// Cmp gives the value.
func (j *joiner) match(l, r chunk.Row) (truth, error) {
	if !j.needsPair {
		return tTrue, nil
	}
	row := j.joined(l, r)
	ok, err := evalFilter(j.ectx.Eval, j.other, row)
	if err != nil || !ok {
		return tFalse, err
	}
	res := tTrue
	for _, c := range j.cmp {
		d, err := c.Eval(j.ectx.Eval, row)
		if err != nil {
			return tFalse, err
		}
		v, notNull := d.ToBool()
		switch {
		case !notNull:
			res = tNull
		case !v:
			return tFalse, nil
		}
	}
	return res, nil
}

// emit appends to out the output of left row l against the candidate
// right rows (from store). forced, when not tFalse, is the semi
// family's match decided without candidates (null-aware keys).
func (j *joiner) emit(out *chunk.Chunk, l chunk.Row, store *rowStore, cands []rowRef, forced truth) error {
	switch j.kind {
	case planner.InnerJoin, planner.LeftOuterJoin:
		matched, err := j.pairs(out, l, store, cands, false)
		if err != nil {
			return err
		}
		if !matched && j.kind == planner.LeftOuterJoin {
			out.AppendPartialRow(0, l)
			for i := 0; i < j.nr; i++ {
				out.AppendNull(j.nl + i)
			}
			fixVirtual(out, j.nl+j.nr)
		}
		return nil
	}
	res := forced
	for _, ref := range cands {
		if res == tTrue {
			break
		}
		t, err := j.match(l, store.get(ref))
		if err != nil {
			return err
		}
		res = max(res, t)
	}
	switch j.kind {
	case planner.SemiJoin:
		if res == tTrue {
			out.AppendPartialRow(0, l)
			fixVirtual(out, j.nl)
		}
	case planner.AntiSemiJoin:
		if res == tFalse {
			out.AppendPartialRow(0, l)
			fixVirtual(out, j.nl)
		}
	case planner.LeftOuterSemiJoin, planner.AntiLeftOuterSemiJoin:
		out.AppendPartialRow(0, l)
		if res == tNull {
			out.AppendNull(j.nl)
		} else {
			v := int64(0)
			if (res == tTrue) != (j.kind == planner.AntiLeftOuterSemiJoin) {
				v = 1
			}
			out.AppendInt64(j.nl, v)
		}
	}
	return nil
}

// pairs appends the joined rows of probe row p and the candidate build
// rows (from store) that match it, and reports whether one did. With
// buildLeft the build rows are the left side (an inner join only).
func (j *joiner) pairs(out *chunk.Chunk, p chunk.Row, store *rowStore, cands []rowRef, buildLeft bool) (bool, error) {
	matched := false
	for _, ref := range cands {
		l, r := p, store.get(ref)
		if buildLeft {
			l, r = r, l
		}
		t, err := j.match(l, r)
		if err != nil {
			return false, err
		}
		if t == tTrue {
			matched = true
			appendPair(out, l, r, j.nl)
		}
	}
	return matched, nil
}

// appendPair appends the joined row (l, r).
func appendPair(out *chunk.Chunk, l, r chunk.Row, nl int) {
	out.AppendPartialRow(0, l)
	out.AppendPartialRow(nl, r)
	fixVirtual(out, nl+r.Len())
}

// fixVirtual counts a row appended to a chunk without columns.
func fixVirtual(out *chunk.Chunk, ncols int) {
	if ncols == 0 {
		out.SetNumVirtualRows(out.NumRows() + 1)
	}
}
