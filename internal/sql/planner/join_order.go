package planner

import (
	"github.com/strata-db/strata/internal/sql/expr"
)

// joinUnit is one input of a group of inner joins: a FROM item that is
// not itself an inner join (a table, a derived table, an outer join, a
// USING join), at offset off of the group's columns.
type joinUnit struct {
	n     *lnode
	off   int
	conds []expr.Expression // pushed down, over n.cols
	plan  Plan
	est   float64
}

// flattenInner collects the units of consecutive inner joins (not
// STRAIGHT_JOIN, not USING below the top, whose columns are reordered)
// and their ON conditions, over the group's columns (the top's joined
// columns: its caller maps USING's columns).
func flattenInner(n *lnode, off int, units *[]*joinUnit, conds *[]expr.Expression, top bool) {
	if n.isJoin() && n.kind == InnerJoin && !n.straight && (n.outMap == nil || top) {
		flattenInner(n.l, off, units, conds, false)
		flattenInner(n.r, off+len(n.l.cols), units, conds, false)
		*conds = append(*conds, remapAll(n.on, func(i int) int { return i + off })...)
		return
	}
	*units = append(*units, &joinUnit{n: n, off: off})
}

// innerJoins plans a group of inner joins: each condition goes to the one
// unit it reads or to the first join where all the units it reads meet;
// the join order is greedy: start from the unit with the fewest estimated
// rows, then join the smallest unit connected to the joined ones by an
// equality (the smallest of all when none is), building the hash table on
// the smaller side. Columns come back in FROM order.
func (q *qbuilder) innerJoins(n *lnode, conds []expr.Expression) Plan {
	var units []*joinUnit
	all := append([]expr.Expression(nil), conds...)
	flattenInner(n, 0, &units, &all, true)
	all = propagateConstants(all)
	unitOf := make([]int, len(n.l.cols)+len(n.r.cols)) // group column -> unit
	for ui, u := range units {
		for i := range u.n.cols {
			unitOf[u.off+i] = ui
		}
	}
	type cond struct {
		e     expr.Expression
		units map[int]bool
		used  bool
	}
	var multi []*cond
	for _, c := range all {
		us := map[int]bool{}
		for _, col := range expr.ExtractColumns(c) {
			us[unitOf[col.Index]] = true
		}
		if len(us) == 1 {
			for ui := range us {
				u := units[ui]
				u.conds = append(u.conds, remapAll([]expr.Expression{c}, func(i int) int { return i - u.off })[0])
			}
			continue
		}
		if len(us) == 0 {
			// A constant condition filters the first unit.
			units[0].conds = append(units[0].conds, c)
			continue
		}
		multi = append(multi, &cond{e: c, units: us})
	}
	for _, u := range units {
		u.plan = q.physical(u.n, u.conds)
		u.est = q.estimate(u.plan)
	}
	if len(units) == 1 {
		return units[0].plan
	}
	joined := map[int]bool{}
	pos := make([]int, len(unitOf)) // group column -> position in the plan
	var p Plan
	width := 0
	add := func(ui int) {
		u := units[ui]
		for i := range u.n.cols {
			pos[u.off+i] = width + i
		}
		width += len(u.n.cols)
		joined[ui] = true
	}
	// Start from the smallest unit that no hint wants as an inner side.
	first := -1
	for ui, u := range units {
		if q.hints.algoFor(u.n) != algoAny && len(units) > 1 {
			continue
		}
		if first < 0 || u.est < units[first].est {
			first = ui
		}
	}
	if first < 0 {
		first = 0
	}
	p = units[first].plan
	add(first)
	est := units[first].est
	for len(joined) < len(units) {
		next, connected := -1, false
		for ui, u := range units {
			if joined[ui] {
				continue
			}
			c := false
			for _, mc := range multi {
				if !mc.used && mc.units[ui] && unitsJoined(mc.units, joined, ui) && isEquality(mc.e) {
					c = true
					break
				}
			}
			if next < 0 || (c && !connected) || (c == connected && u.est < units[next].est) {
				next, connected = ui, c
			}
		}
		u := units[next]
		add(next)
		var jc []expr.Expression
		for _, mc := range multi {
			if !mc.used && unitsJoined(mc.units, joined, -1) {
				mc.used = true
				jc = append(jc, remapAll([]expr.Expression{mc.e}, func(i int) int { return pos[i] })[0])
			}
		}
		j := q.newJoin(Join{Kind: InnerJoin, Left: p, Right: u.plan, Other: jc})
		q.chooseAlgo(j, u.n, u.conds, est, u.est)
		p = j
		if connected {
			est = max(est, u.est)
		} else {
			est *= u.est
		}
	}
	// Back to FROM order.
	identity := true
	for i, ps := range pos {
		if ps != i {
			identity = false
		}
	}
	if identity {
		return p
	}
	in := p.Schema()
	proj := &Projection{Child: p, Cols: make([]OutCol, len(pos))}
	for i, ps := range pos {
		proj.Exprs = append(proj.Exprs, columnOf(in, ps))
		proj.Cols[i] = in[ps]
	}
	return proj
}

// unitsJoined reports whether every unit of us is joined (or is extra).
func unitsJoined(us, joined map[int]bool, extra int) bool {
	for u := range us {
		if !joined[u] && u != extra {
			return false
		}
	}
	return true
}

func isEquality(e expr.Expression) bool {
	_, _, _, _, ok := expr.EqualityKey(e)
	return ok
}
