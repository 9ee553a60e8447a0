package exec

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// aggState is the running state of one aggregate function in one group.
type aggState struct {
	count int64
	dec   *types.Decimal
	// isum holds a DECIMAL SUM/AVG's signed integer arguments while their
	// total fits an int64; it joins dec on overflow and before dec is read
	// (flushSum), so summing integers allocates no decimal per row.
	isum   int64
	float  float64
	val    types.Datum // MIN/MAX
	has    bool
	seen   map[string]struct{} // DISTINCT
	keyBuf []byte
	bits   uint64       // BIT_AND/OR/XOR
	vr     varianceAcc  // STDDEV/VARIANCE
	gc     []concatRow  // GROUP_CONCAT
	ords   []expr.Order // the arguments' orders (collations), set at first use
	json   *jsonAgg     // JSON_ARRAYAGG / JSON_OBJECTAGG
}

// update folds one row into the state of f.
func (s *aggState) update(ctx expr.EvalContext, f *planner.AggFunc, row chunk.Row) error {
	if f.Name == planner.AggJSONArrayAgg || f.Name == planner.AggJSONObjectAgg {
		return s.addJSON(ctx, f, row)
	}
	args := make([]types.Datum, 0, 2)
	nvals := len(f.ValueArgs())
	for i, a := range f.Args {
		d, err := a.Eval(ctx, row)
		if err != nil {
			return err
		}
		if d.IsNull() && i < nvals {
			return nil // aggregates skip NULLs
		}
		args = append(args, d)
	}
	if f.Name == planner.AggGroupConcat {
		return s.addConcat(f, args)
	}
	if f.Distinct {
		s.keyBuf = expr.AppendGroupKey(s.keyBuf[:0], s.argOrders(f), args)
		if s.seen == nil {
			s.seen = make(map[string]struct{})
		}
		if _, dup := s.seen[string(s.keyBuf)]; dup {
			return nil
		}
		s.seen[string(s.keyBuf)] = struct{}{}
	}
	s.count++
	d := args[0]
	switch f.Name {
	case planner.AggSum, planner.AggAvg:
		if f.Ft.EvalType() == types.ETDecimal {
			if d.Kind() == types.KindInt64 {
				x := d.GetInt64()
				if r := s.isum + x; (x >= 0) == (r >= s.isum) {
					s.isum = r
					return nil
				}
				if err := s.flushSum(); err != nil {
					return err
				}
				s.isum = x
				return nil
			}
			v, err := d.ToDecimal()
			if err != nil {
				return err
			}
			if s.dec == nil {
				s.dec = types.NewDecFromInt(0)
			}
			return s.dec.Accumulate(v) // s.dec is the state's own: see result
		}
		v, _ := d.ToFloat64()
		s.float += v
	case planner.AggBitAnd, planner.AggBitOr, planner.AggBitXor:
		s.addBits(f.Name, d)
	case planner.AggStddevPop, planner.AggStddevSamp, planner.AggVarPop, planner.AggVarSamp:
		v, _ := d.ToFloat64()
		s.vr.add(v)
	case planner.AggMin, planner.AggMax:
		c := 0
		if s.has {
			c = s.argOrders(f)[0].Compare(&d, &s.val)
		}
		if !s.has || (f.Name == planner.AggMin && c < 0) || (f.Name == planner.AggMax && c > 0) {
			s.val, s.has = d.Clone(), true
		}
	}
	return nil
}

// result is the function's value for the group.
func (s *aggState) result(ctx expr.EvalContext, f *planner.AggFunc) types.Datum {
	switch f.Name {
	case planner.AggCount:
		return types.NewIntDatum(s.count)
	case planner.AggBitAnd:
		if s.count == 0 {
			return types.NewUintDatum(^uint64(0))
		}
		return types.NewUintDatum(s.bits)
	case planner.AggBitOr, planner.AggBitXor:
		return types.NewUintDatum(s.bits)
	case planner.AggStddevPop, planner.AggStddevSamp, planner.AggVarPop, planner.AggVarSamp:
		return s.vr.result(f.Name)
	case planner.AggGroupConcat:
		return s.concatResult(ctx, f)
	case planner.AggJSONArrayAgg, planner.AggJSONObjectAgg:
		return s.jsonResult(f)
	case planner.AggMin, planner.AggMax:
		if !s.has {
			return types.NewNullDatum()
		}
		d, _ := fitType(s.val, f.Ft)
		return d
	}
	if s.count == 0 {
		return types.NewNullDatum()
	}
	if f.Ft.EvalType() == types.ETDecimal {
		if s.dec == nil && f.Name == planner.AggSum && f.Ft.Decimal == 0 {
			// Only integers were summed: no scale to round to, and an int64
			// is within any SUM's precision.
			return types.NewDecimalDatum(types.NewDecFromInt(s.isum))
		}
		_ = s.flushSum() // a DECIMAL(65) overflow needs ~1e46 int64s
		v := s.dec
		if f.Name == planner.AggAvg {
			q, err := v.Div(types.NewDecFromInt(s.count))
			if err == nil {
				v = q
			}
		}
		if r, err := v.ToFieldType(f.Ft.Flen, f.Ft.Decimal); err == nil {
			v = r
		}
		return types.NewDecimalDatum(v)
	}
	if f.Name == planner.AggAvg {
		return types.NewFloat64Datum(s.float / float64(s.count))
	}
	return types.NewFloat64Datum(s.float)
}

// flushSum adds isum into dec; dec is not nil after it.
func (s *aggState) flushSum() error {
	if s.dec == nil {
		s.dec, s.isum = types.NewDecFromInt(s.isum), 0
		return nil
	}
	if s.isum == 0 {
		return nil
	}
	v := types.NewDecFromInt(s.isum)
	s.isum = 0
	return s.dec.Accumulate(v)
}

// aggGroup is one group: its first row and the states of the functions.
type aggGroup struct {
	first  []types.Datum
	states []aggState
	// ctx is the context of the group's last update (GROUP_CONCAT reads
	// group_concat_max_len and warns through it).
	ctx expr.EvalContext
}

func newAggGroup(p *planner.Agg, row chunk.Row, fts []*types.FieldType) *aggGroup {
	g := &aggGroup{states: make([]aggState, len(p.Funcs))}
	n := len(p.Child.Schema())
	g.first = make([]types.Datum, n)
	for i := 0; i < n; i++ {
		g.first[i] = row.GetDatum(i, fts[i]).Clone()
	}
	return g
}

func (g *aggGroup) update(ctx expr.EvalContext, p *planner.Agg, row chunk.Row) error {
	g.ctx = ctx
	for i, f := range p.Funcs {
		if err := g.states[i].update(ctx, f, row); err != nil {
			return err
		}
	}
	return nil
}

// appendTo writes the group's output row.
func (g *aggGroup) appendTo(p *planner.Agg, chk *chunk.Chunk) {
	for i := range g.first {
		chk.AppendDatum(i, &g.first[i])
	}
	for i, f := range p.Funcs {
		d := g.states[i].result(g.ctx, f)
		chk.AppendDatum(len(g.first)+i, &d)
	}
}

// argOrders are the orders of f's arguments' types (COUNT(DISTINCT) and
// GROUP_CONCAT(DISTINCT) compare values by collation).
// MIN and MAX compare ENUM and SET by name.
func (s *aggState) argOrders(f *planner.AggFunc) []expr.Order {
	if s.ords == nil {
		s.ords = expr.OrdersOf(f.Args)
		if f.Name == planner.AggMin || f.Name == planner.AggMax {
			s.ords[0] = expr.MinMaxOrderOf(f.Args[0].Type())
		}
	}
	return s.ords
}

// byOrders are the orders of ORDER BY items' types.
func byOrders(by []planner.ByItem) []expr.Order {
	os := make([]expr.Order, len(by))
	for i, b := range by {
		os[i] = expr.OrderOf(b.Expr.Type())
	}
	return os
}
