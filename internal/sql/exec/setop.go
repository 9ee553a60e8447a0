package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// setOp runs UNION / INTERSECT / EXCEPT of two inputs (a chain of set
// operations is a left-deep tree). Values are converted to the result
// column types; rows are compared by their key encoding. UNION ALL
// streams; the others read the right input into a multiset first, then
// stream the left one.
type setOp struct {
	base
	p      *planner.SetOp
	inputs []Executor
	bufs   []*chunk.Chunk

	cur    int             // UNION: the input being read
	counts map[string]int  // the right input's rows (INTERSECT, EXCEPT)
	seen   map[string]bool // rows already returned (distinct)
	key    []byte
	vals   []types.Datum
	ords   []expr.Order // result columns' orders: rows equal by collation are one row
}

func (e *setOp) Open(ctx context.Context) error {
	for i, in := range e.inputs {
		if err := in.Open(ctx); err != nil {
			return err
		}
		if len(e.bufs) <= i {
			e.bufs = append(e.bufs, NewChunk(in, e.ectx.chunkSize()))
		}
	}
	e.cur = 0
	e.seen = make(map[string]bool)
	e.counts = nil
	if e.p.Op == planner.Union {
		return nil
	}
	e.counts = make(map[string]int)
	right := e.inputs[1]
	return drainInto(ctx, right, e.bufs[1], func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			k, err := e.rowKey(c.GetRow(i), right.FieldTypes())
			if err != nil {
				return err
			}
			e.counts[string(k)]++
		}
		return nil
	})
}

// convert reads row's visible values converted to the result types into
// e.vals.
func (e *setOp) convert(row chunk.Row, fts []*types.FieldType) error {
	e.vals = e.vals[:0]
	for i, ft := range e.fts {
		d := row.GetDatum(i, fts[i])
		if !d.IsNull() {
			var err error
			if d, err = expr.ConvertTo(e.ectx.Eval, d, ft); err != nil {
				return err
			}
		}
		e.vals = append(e.vals, d)
	}
	return nil
}

func (e *setOp) rowKey(row chunk.Row, fts []*types.FieldType) ([]byte, error) {
	if err := e.convert(row, fts); err != nil {
		return nil, err
	}
	if e.ords == nil {
		e.ords = make([]expr.Order, len(e.fts))
		for i, ft := range e.fts {
			e.ords[i] = expr.OrderOf(ft)
		}
	}
	e.key = expr.AppendGroupKey(e.key[:0], e.ords, e.vals)
	return e.key, nil
}

func (e *setOp) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for !chk.IsFull() {
		if e.cur >= len(e.inputs) || (e.p.Op != planner.Union && e.cur > 0) {
			return nil
		}
		in := e.inputs[e.cur]
		buf := e.bufs[e.cur]
		if err := in.Next(ctx, buf); err != nil {
			return err
		}
		n := buf.NumRows()
		if n == 0 {
			e.cur++
			continue
		}
		fts := in.FieldTypes()
		unionAll := e.p.Op == planner.Union && e.p.All // keeps every row: no keys
		for i := 0; i < n; i++ {
			if unionAll {
				if err := e.convert(buf.GetRow(i), fts); err != nil {
					return err
				}
			} else {
				k, err := e.rowKey(buf.GetRow(i), fts)
				if err != nil {
					return err
				}
				if !e.keep(k) {
					continue
				}
			}
			for c := range e.vals {
				chk.AppendDatum(c, &e.vals[c])
			}
			fixVirtual(chk, len(e.vals))
		}
		if chk.NumRows() > 0 {
			return nil
		}
	}
	return nil
}

// keep decides whether a row with key k is returned (not asked for
// UNION ALL, which returns every row).
func (e *setOp) keep(k []byte) bool {
	switch e.p.Op {
	case planner.Intersect:
		if e.counts[string(k)] == 0 {
			return false
		}
		if e.p.All {
			e.counts[string(k)]--
			return true
		}
	case planner.Except:
		if e.p.All {
			if e.counts[string(k)] > 0 {
				e.counts[string(k)]--
				return false
			}
			return true
		}
		if e.counts[string(k)] > 0 {
			return false
		}
	}
	if e.seen[string(k)] {
		return false
	}
	e.seen[string(k)] = true
	return true
}

func (e *setOp) Close() error {
	e.seen, e.counts = nil, nil
	var err error
	for _, in := range e.inputs {
		if err2 := in.Close(); err == nil {
			err = err2
		}
	}
	return err
}
