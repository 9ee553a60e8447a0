package planner

import (
	"github.com/strata-db/strata/internal/sql/expr"
)

// newJoin completes a join from its conditions: equalities between a
// left and a right expression in Other become hash keys; for the semi
// family a lone IN comparison becomes a null-aware key.
func (q *qbuilder) newJoin(j Join) *Join {
	nl := len(j.Left.Schema())
	var other []expr.Expression
	for _, c := range j.Other {
		if !q.addEqKey(&j, c, nl, false) {
			other = append(other, c)
		}
	}
	j.Other = other
	if j.Kind.IsSemi() && len(j.EqLeft) == 0 && len(j.Other) == 0 && len(j.Cmp) == 1 {
		if q.addEqKey(&j, j.Cmp[0], nl, true) {
			j.Cmp, j.NullAwareKey = nil, true
		}
	}
	j.initSchema()
	return &j
}

// addEqKey adds c to j's keys when it is an equality of a left and a
// right expression (not <=> when nullAware).
func (q *qbuilder) addEqKey(j *Join, c expr.Expression, nl int, nullAware bool) bool {
	key, a, b, nullEQ, ok := expr.EqualityKey(c)
	if !ok || (nullAware && nullEQ) {
		return false
	}
	sa, sb := sideOf(a, nl), sideOf(b, nl)
	switch {
	case sa == sideLeft && sb == sideRight:
	case sa == sideRight && sb == sideLeft:
		if nullAware {
			return false
		}
		a, b = b, a
	default:
		return false
	}
	j.EqLeft = append(j.EqLeft, a)
	j.EqRight = append(j.EqRight, remapAll([]expr.Expression{b}, func(i int) int { return i - nl })[0])
	j.Keys = append(j.Keys, key)
	j.NullEQ = append(j.NullEQ, nullEQ)
	return true
}

type side byte

const (
	sideNone side = iota
	sideLeft
	sideRight
	sideBoth
)

// sideOf tells which side of a join (nl left columns) e reads.
func sideOf(e expr.Expression, nl int) side {
	s := sideNone
	for _, c := range expr.ExtractColumns(e) {
		cs := sideLeft
		if c.Index >= nl {
			cs = sideRight
		}
		if s == sideNone {
			s = cs
		} else if s != cs {
			return sideBoth
		}
	}
	return s
}

// remapAll rewrites the column positions of es by m.
func remapAll(es []expr.Expression, m func(int) int) []expr.Expression {
	out := make([]expr.Expression, len(es))
	for i, e := range es {
		out[i], _ = expr.Transform(e, func(x expr.Expression) (expr.Expression, error) {
			if c, ok := x.(*expr.Column); ok {
				return &expr.Column{Index: m(c.Index), Name: c.Name, Ft: c.Ft}, nil
			}
			return x, nil
		})
	}
	return out
}

// physical plans n with conds (over n.cols) applied: access paths for
// base tables, conditions pushed as far down as they may go, inner joins
// reordered.
func (q *qbuilder) physical(n *lnode, conds []expr.Expression) Plan {
	if !n.isJoin() {
		if n.plan != nil { // a derived table, or a table filtered first (innerOnSubqueries)
			return q.pushConds(n.plan, conds)
		}
		if n.table != nil && IsMemTable(n.table.DB) {
			var p Plan = &MemTableScan{TableSource: *n.table}
			if len(conds) > 0 {
				p = &Selection{Child: p, Conds: conds}
			}
			return p
		}
		if n.table != nil {
			src := *n.table
			src.indexes = q.hints.indexFilter(n)
			return q.tableRead(src, conds)
		}
		return q.pushConds(n.plan, conds)
	}
	if n.outMap != nil {
		m := n.outMap
		conds = remapAll(conds, func(i int) int { return m[i] })
	}
	var p Plan
	if n.kind == InnerJoin && !n.straight && (q.hints == nil || !q.hints.straight) {
		p = q.innerJoins(n, conds)
	} else {
		p = q.outerJoin(n, conds)
	}
	if n.outMap != nil {
		proj := &Projection{Child: p, Cols: n.cols}
		in := p.Schema()
		for _, src := range n.outMap {
			proj.Exprs = append(proj.Exprs, columnOf(in, src))
		}
		p = proj
	}
	return p
}

// tableRead plans the read of base table src filtered by conds (over its
// columns): its access path (accessPath) or, with statistics and no index
// hint, the handle range or a scan when the index range finds so large a
// part of the table that its row lookups cost more.
func (q *qbuilder) tableRead(src TableSource, conds []expr.Expression) Plan {
	p, rest := accessPath(src, conds)
	if il, ok := p.(*IndexLookUp); ok && src.indexes == nil {
		if t := statsOf(q.ctx, il.Table.ID); !t.Pseudo() {
			if tp, trest := tablePath(src, colConds(conds), conds); q.estimate(il)*4 > q.estimate(tp) {
				p, rest = tp, trest
			}
		}
	}
	return withRest(p, rest)
}

// outerJoin plans a LEFT (or RIGHT, swapped) join, or a STRAIGHT_JOIN,
// without reordering; conds are over the joined columns.
func (q *qbuilder) outerJoin(n *lnode, conds []expr.Expression) Plan {
	nl := len(n.l.cols)
	var lc, rc, jc, above []expr.Expression
	inner := n.kind == InnerJoin
	for _, c := range conds {
		switch s := sideOf(c, nl); {
		case s == sideLeft && (inner || !n.rightJn), s == sideNone && inner:
			lc = append(lc, c)
		case s == sideRight && (inner || n.rightJn):
			rc = append(rc, c)
		case inner:
			jc = append(jc, c)
		default:
			above = append(above, c)
		}
	}
	for _, c := range n.on {
		switch s := sideOf(c, nl); {
		case s == sideLeft && (inner || n.rightJn):
			lc = append(lc, c)
		case s == sideRight && (inner || !n.rightJn):
			rc = append(rc, c)
		default:
			jc = append(jc, c)
		}
	}
	shift := func(i int) int { return i - nl }
	lp := q.physical(n.l, lc)
	rp := q.physical(n.r, remapAll(rc, shift))
	var p Plan
	if n.rightJn {
		// r LEFT JOIN l, then back to l's columns first.
		nr := len(n.r.cols)
		swap := func(i int) int {
			if i < nl {
				return i + nr
			}
			return i - nl
		}
		j := q.newJoin(Join{Kind: LeftOuterJoin, Left: rp, Right: lp, Other: remapAll(jc, swap)})
		proj := &Projection{Child: j, Cols: n.joinedCols()}
		jcols := j.Schema()
		for i := 0; i < nl; i++ {
			proj.Exprs = append(proj.Exprs, columnOf(jcols, nr+i))
		}
		for i := 0; i < nr; i++ {
			proj.Exprs = append(proj.Exprs, columnOf(jcols, i))
		}
		p = proj
	} else {
		j := q.newJoin(Join{Kind: n.kind, Left: lp, Right: rp, Other: jc})
		q.chooseAlgo(j, n.r, remapAll(rc, shift), q.estimate(lp), q.estimate(rp))
		p = j
	}
	if len(above) > 0 {
		p = &Selection{Child: p, Conds: above}
	}
	return p
}

// chooseAlgo picks j's algorithm: the hinted one for its right side's
// table, else an index join when the right side is a base table with an
// index on the keys and the left side is expected to be smaller, else a
// hash join building the smaller side (inner joins only).
func (q *qbuilder) chooseAlgo(j *Join, right *lnode, rconds []expr.Expression, lest, rest float64) {
	algo := q.hints.algoFor(right)
	switch algo {
	case algoHash:
	case algoMerge:
		j.Merge = len(j.EqLeft) > 0 && !j.NullAwareKey
	default:
		if right != nil && !right.isJoin() {
			q.indexJoinFor(j, right, rconds, algo == algoIndex, lest, rest)
		}
	}
	j.BuildLeft = j.Kind == InnerJoin && j.IndexJoin == nil && !j.Merge && lest < rest
}
