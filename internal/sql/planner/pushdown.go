package planner

import "github.com/strata-db/strata/internal/sql/expr"

// pushConds filters p by conds (over p's columns), pushing them as far
// down as they stay correct: through projections (the conditions on
// columns that are plain columns below), selections and sorts, into a
// table read's access path, so that a WHERE on a derived table or a
// view reaches the table's keys (tableRead, under the read's index
// hints). What cannot go further stays in a Selection at that point.
func (q *qbuilder) pushConds(p Plan, conds []expr.Expression) Plan {
	if len(conds) == 0 {
		return p
	}
	switch x := p.(type) {
	case *Projection:
		var down, here []expr.Expression
		for _, c := range conds {
			if m, ok := throughProjection(c, x.Exprs); ok {
				down = append(down, m)
			} else {
				here = append(here, c)
			}
		}
		if len(down) == 0 {
			break
		}
		np := &Projection{Child: q.pushConds(x.Child, down), Exprs: x.Exprs, Cols: x.Cols}
		if len(here) > 0 {
			return &Selection{Child: np, Conds: here}
		}
		return np
	case *Selection:
		return q.pushConds(x.Child, append(append([]expr.Expression(nil), x.Conds...), conds...))
	case *Sort:
		return &Sort{Child: q.pushConds(x.Child, conds), By: x.By}
	case *TableScan:
		if x.Desc || x.KeepOrder || IsMemTable(x.DB) {
			break
		}
		return q.tableRead(x.TableSource, append(append([]expr.Expression(nil), x.RangeConds...), conds...))
	case *IndexLookUp:
		if x.Desc {
			break
		}
		return q.tableRead(x.TableSource, append(append([]expr.Expression(nil), x.RangeConds...), conds...))
	}
	return &Selection{Child: p, Conds: conds}
}

func withRest(p Plan, rest []expr.Expression) Plan {
	if len(rest) > 0 {
		return &Selection{Child: p, Conds: rest}
	}
	return p
}

// throughProjection rewrites c over a projection's input when every
// column it reads is projected as a plain column.
func throughProjection(c expr.Expression, exprs []expr.Expression) (expr.Expression, bool) {
	for _, col := range expr.ExtractColumns(c) {
		if col.Index >= len(exprs) {
			return nil, false
		}
		if _, ok := exprs[col.Index].(*expr.Column); !ok {
			return nil, false
		}
	}
	out, err := expr.Transform(c, func(x expr.Expression) (expr.Expression, error) {
		if col, ok := x.(*expr.Column); ok {
			return exprs[col.Index], nil
		}
		return x, nil
	})
	return out, err == nil
}
