package exec

import (
	"context"
	"strconv"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// cteResult is a CTE's materialized rows in one execution; work holds
// the rows the last iteration of a recursive CTE added (what CTEWork
// reads).
type cteResult struct {
	rows rowStore
	work rowStore
	done bool
}

// cteFor returns the execution's result of def, computing it the first
// time.
func (c *Context) cteFor(ctx context.Context, def *planner.CTEDef) (*cteResult, error) {
	if c.ctes == nil {
		c.ctes = map[*planner.CTEDef]*cteResult{}
	}
	res := c.ctes[def]
	if res == nil {
		fts := planner.FieldTypes(def.Schema())
		// work is only read: each iteration's rows are counted in rows.
		res = &cteResult{rows: rowStore{fts: fts, mem: c.memRoot().Child()}, work: rowStore{fts: fts}}
		c.ctes[def] = res
	}
	if res.done {
		return res, nil
	}
	if err := c.computeCTE(ctx, def, res); err != nil {
		return nil, err
	}
	res.done = true
	return res, nil
}

// computeCTE runs the seed, then the recursive part until it adds no
// row or cte_max_recursion_depth iterations have run.
func (c *Context) computeCTE(ctx context.Context, def *planner.CTEDef, res *cteResult) error {
	fts := res.rows.fts
	conv := chunk.New(fts, 1)
	seen := map[string]bool{}
	var key []byte
	vals := make([]types.Datum, len(fts))
	next := rowStore{fts: fts}
	// add converts row to the CTE's types and keeps it unless Distinct
	// has seen it.
	add := func(row chunk.Row, in []*types.FieldType) error {
		for i, ft := range fts {
			d := row.GetDatum(i, in[i])
			if !d.IsNull() {
				var err error
				if d, err = expr.ConvertTo(c.Eval, d, ft); err != nil {
					return err
				}
				if d, err = fitType(d, ft); err != nil {
					return err
				}
			}
			vals[i] = d
		}
		if def.Distinct {
			key = codec.EncodeKey(key[:0], vals...)
			if seen[string(key)] {
				return nil
			}
			seen[string(key)] = true
		}
		conv.Reset()
		for i := range vals {
			conv.AppendDatum(i, &vals[i])
		}
		res.rows.add(conv.GetRow(0))
		next.add(conv.GetRow(0))
		return res.rows.Err()
	}
	run := func(p planner.Plan) error {
		e, err := Build(c, p)
		if err != nil {
			return err
		}
		in := e.FieldTypes()
		return runAll(ctx, e, c.chunkSize(), func(chk *chunk.Chunk) error {
			for i := 0; i < chk.NumRows(); i++ {
				if err := add(chk.GetRow(i), in); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := run(def.Seed); err != nil {
		return err
	}
	if def.Recursive == nil {
		return nil
	}
	limit := uint64(1000)
	if v, err := c.Eval.GetSysVar("cte_max_recursion_depth", false); err == nil {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			limit = n
		}
	}
	for iter := uint64(1); next.n > 0; iter++ {
		if iter > limit {
			return sqlerr.New(sqlerr.ErrCTEMaxRecursionDepth, iter)
		}
		res.work, next = next, rowStore{fts: fts}
		if err := run(def.Recursive); err != nil {
			return err
		}
	}
	return nil
}

// cteRead returns a CTE's rows (CTERead) or the last iteration's
// (CTEWork).
type cteRead struct {
	base
	def   *planner.CTEDef
	work  bool
	store *rowStore // the rows read: the result's, or its last iteration's
	n     int       // how many it held at Open
	pos   int
}

func (e *cteRead) Open(ctx context.Context) error {
	e.pos, e.n, e.store = 0, 0, nil
	if e.work {
		if res := e.ectx.ctes[e.def]; res != nil {
			e.store, e.n = &res.work, res.work.n
		}
		return nil
	}
	res, err := e.ectx.cteFor(ctx, e.def)
	if err != nil {
		return err
	}
	e.store, e.n = &res.rows, res.rows.n
	return nil
}

func (e *cteRead) Next(_ context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	for e.pos < e.n && !chk.IsFull() {
		chk.AppendRow(e.store.at(e.pos))
		e.pos++
	}
	return nil
}

func (e *cteRead) Close() error {
	e.store, e.n = nil, 0
	return nil
}
