package exec

import (
	"fmt"

	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
)

// Build turns a plan into executors over ectx (measured when ectx.Stats
// is set).
func Build(ectx *Context, p planner.Plan) (Executor, error) {
	e, err := build(ectx, p)
	if err != nil || ectx.Stats == nil {
		return e, err
	}
	return &statsExec{Executor: e, st: ectx.Stats.of(p)}, nil
}

func build(ectx *Context, p planner.Plan) (Executor, error) {
	fts := planner.FieldTypes(p.Schema())
	mk := func(child planner.Plan) (base, error) {
		b := base{ectx: ectx, fts: fts, node: p}
		if child != nil {
			c, err := Build(ectx, child)
			if err != nil {
				return b, err
			}
			b.child = c
		}
		return b, nil
	}
	switch x := p.(type) {
	case *planner.PointGet:
		b, _ := mk(nil)
		return &pointGet{base: b, p: x}, nil
	case *planner.TableScan:
		b, _ := mk(nil)
		s := &tableScan{base: b, p: x}
		return withRangeConds(ectx, s, x.RangeConds), nil
	case *planner.IndexLookUp:
		b, _ := mk(nil)
		s := &indexLookUp{base: b, p: x}
		return withRangeConds(ectx, s, x.RangeConds), nil
	case *planner.MemTableScan:
		b, _ := mk(nil)
		return &memTableScan{base: b, p: x}, nil
	case *planner.Selection:
		b, err := mk(x.Child)
		return newSelection(b, x.Conds, nil), err
	case *planner.Projection:
		b, err := mk(x.Child)
		return newProjection(b, x.Exprs), err
	case *planner.Sort:
		b, err := mk(x.Child)
		return &sortExec{base: b, by: x.By, keyExprs: sortKeyExprs(x.By)}, err
	case *planner.TopN:
		b, err := mk(x.Child)
		return &sortExec{base: b, by: x.By, keyExprs: sortKeyExprs(x.By), offset: x.Offset, count: x.Count, topN: true}, err
	case *planner.Limit:
		b, err := mk(x.Child)
		return &limit{base: b, offsetE: x.Offset, countE: x.Count}, err
	case *planner.Agg:
		b, err := mk(x.Child)
		if x.Stream {
			return &streamAgg{base: b, p: x}, err
		}
		return &hashAgg{base: b, p: x}, err
	case *planner.Lock:
		b, err := mk(x.Child)
		return &lock{base: b, p: x}, err
	case *planner.Join:
		b, _ := mk(nil)
		l, err := Build(ectx, x.Left)
		if err != nil {
			return nil, err
		}
		if x.IndexJoin != nil {
			return &indexJoin{base: b, p: x, inner: x.IndexJoin, outer: l}, nil
		}
		r, err := Build(ectx, x.Right)
		if err != nil {
			return nil, err
		}
		if x.Merge {
			return &mergeJoin{base: b, p: x, left: l, right: r}, nil
		}
		return &hashJoin{base: b, p: x, left: l, right: r}, nil
	case *planner.Apply:
		b, _ := mk(nil)
		l, err := Build(ectx, x.Left)
		if err != nil {
			return nil, err
		}
		r, err := Build(ectx, x.Right)
		if err != nil {
			return nil, err
		}
		return &apply{base: b, p: x, outer: l, inner: r}, nil
	case *planner.MaxOneRow:
		b, err := mk(x.Child)
		return &maxOneRow{base: b}, err
	case *planner.CTERead:
		b, _ := mk(nil)
		return &cteRead{base: b, def: x.Def}, nil
	case *planner.CTEWork:
		b, _ := mk(nil)
		return &cteRead{base: b, def: x.Def, work: true}, nil
	case *planner.Window:
		b, err := mk(x.Child)
		return newWindow(b, x), err
	case *planner.Expand:
		b, err := mk(x.Child)
		return &expand{base: b, p: x}, err
	case *planner.MultiDML:
		return buildMultiDML(ectx, x)
	case *planner.Materialize:
		if m := ectx.mats[x]; m != nil {
			return m, nil
		}
		b, err := mk(x.Child)
		return &materialize{base: b}, err
	case *planner.Dual:
		b, _ := mk(nil)
		return &dual{base: b, rows: x.Rows}, nil
	case *planner.SetOp:
		b, _ := mk(nil)
		s := &setOp{base: b, p: x}
		for _, in := range x.Inputs {
			c, err := Build(ectx, in)
			if err != nil {
				return nil, err
			}
			s.inputs = append(s.inputs, c)
		}
		return s, nil
	case *planner.Insert:
		b, err := mk(x.Select)
		return &insert{base: b, p: x}, err
	case *planner.Update:
		b, err := mk(x.Child)
		return &update{base: b, p: x}, err
	case *planner.Delete:
		b, err := mk(x.Child)
		return &deleteExec{base: b, p: x}, err
	}
	return nil, fmt.Errorf("exec: no executor for %T", p)
}

// withRangeConds puts the conditions a range read stands for above it, in
// a selection that only filters when the read's range turned out wider
// than its conditions.
func withRangeConds(ectx *Context, r interface {
	Executor
	rangeReader
}, conds []expr.Expression) Executor {
	if len(conds) == 0 {
		return r
	}
	return newSelection(base{ectx: ectx, fts: r.FieldTypes(), child: r}, conds, r)
}
