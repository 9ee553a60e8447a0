package planner

import (
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/statistics"
	"github.com/strata-db/strata/internal/types"
)

// statsOf returns the statistics of a table when the context has them
// (nil: pseudo estimates).
func statsOf(ctx Context, tableID int64) *statistics.Table {
	if p, ok := ctx.(statistics.Provider); ok {
		return p.Stats(tableID)
	}
	return nil
}

// estimate guesses the rows a plan returns: from the tables' statistics
// (ANALYZE TABLE) where the plan reads a table with constant bounds, else
// TiDB's pseudo estimates (10000 rows a table, 1/1000 per equal value,
// 1/3 per range); 0.8 per other filter.
func (q *qbuilder) estimate(p Plan) float64 {
	switch x := p.(type) {
	case *PointGet:
		return float64(max(len(x.Handles), len(x.IndexValues)))
	case *TableScan:
		t := statsOf(q.ctx, x.Table.ID)
		rows := t.RowCount()
		if x.Full {
			return rows
		}
		pk := x.Table.PKHandleColumn()
		if pk == nil {
			return rows / 3
		}
		lo, hi, ok := bounds(x.Range.Lows, x.Range.Highs)
		if !ok {
			return rows / 3
		}
		return max(t.Column(pk.ID).RangeRows(lo, hi), 1)
	case *IndexLookUp:
		t := statsOf(q.ctx, x.Table.ID)
		is := t.Index(x.Index.ID)
		total := 0.0
		for _, r := range x.Ranges {
			vals, ok := constDatums(r.Eq)
			if !ok {
				total += t.RowCount() / 1000 * 10
				continue
			}
			if len(r.Lows)+len(r.Highs) == 0 {
				total += is.EqualRows(vals...)
				continue
			}
			lo, hi, ok := bounds(r.Lows, r.Highs)
			if !ok {
				total += is.EqualRows(vals...) / 3
				continue
			}
			lo.Vals = append(append([]types.Datum(nil), vals...), lo.Vals...)
			hi.Vals = append(append([]types.Datum(nil), vals...), hi.Vals...)
			if len(lo.Vals) == len(vals) {
				lo = statistics.Inclusive(vals...)
			}
			if len(hi.Vals) == len(vals) {
				hi = statistics.Inclusive(vals...)
			}
			total += is.RangeRows(lo, hi)
		}
		return max(total, 1)
	case *Selection:
		e := q.estimate(x.Child)
		for range x.Conds {
			e *= 0.8
		}
		return max(e, 1)
	case *Dual:
		return float64(x.Rows)
	case *Join:
		l, r := q.estimate(x.Left), q.estimate(x.Right)
		if x.Kind.IsSemi() || x.Kind == LeftOuterJoin {
			return l
		}
		if len(x.EqLeft) > 0 {
			return max(l, r)
		}
		return l * r
	case *Agg:
		if x.Stream {
			return 1
		}
		return q.estimate(x.Child) / 2
	case *Limit:
		if c, ok := x.Count.(*expr.Constant); ok && !c.IsParam() {
			if v := c.Value.GetInt64(); v >= 0 {
				return min(float64(v), q.estimate(x.Child))
			}
		}
	}
	if ch := p.Children(); len(ch) == 1 {
		return q.estimate(ch[0])
	}
	return 10000
}

// bounds turns a range's constant bounds into statistics bounds (the
// tightest of each side); ok is false when one is not a constant.
func bounds(lows, highs []Bound) (lo, hi statistics.Bound, ok bool) {
	pick := func(bs []Bound) (statistics.Bound, bool) {
		if len(bs) == 0 {
			return statistics.Unbounded(), true
		}
		c, isConst := bs[0].Value.(*expr.Constant)
		if !isConst || c.IsParam() || c.Value.IsNull() {
			return statistics.Bound{}, false
		}
		if bs[0].Excl {
			return statistics.Exclusive(c.Value), true
		}
		return statistics.Inclusive(c.Value), true
	}
	var ok1, ok2 bool
	lo, ok1 = pick(lows)
	hi, ok2 = pick(highs)
	return lo, hi, ok1 && ok2
}

// constDatums returns the values of constant expressions.
func constDatums(es []expr.Expression) ([]types.Datum, bool) {
	out := make([]types.Datum, len(es))
	for i, e := range es {
		c, ok := e.(*expr.Constant)
		if !ok || c.IsParam() {
			return nil, false
		}
		out[i] = c.Value
	}
	return out, true
}
