package difftest

import "strings"

// shrink returns queries one step smaller than q: a clause, select item,
// table, UNION branch or predicate operand dropped, or a subquery shrunk.
// Some candidates are invalid SQL (a dropped table still referenced); both
// servers reject those, which the minimiser does not count as a mismatch.
func (q *query) shrink() []*query { return q.shrinkAt(false) }

// shrinkAt is shrink; top says q is the statement itself, whose select
// items may be dropped or replaced by 1 (a subquery's or derived table's
// may not: their columns are compared or named by the outer query).
func (q *query) shrinkAt(top bool) []*query {
	var out []*query
	with := func(f func(c *query)) {
		c := q.clone()
		f(c)
		out = append(out, c)
	}
	if q.limit >= 0 {
		with(func(c *query) { c.limit, c.offset = -1, 0 })
	}
	if q.offset > 0 {
		with(func(c *query) { c.offset = 0 })
	}
	if len(q.orderBy) > 0 && q.limit < 0 {
		with(func(c *query) { c.orderBy = nil })
	}
	if len(q.cores) > 1 {
		for i := range q.cores {
			with(func(c *query) {
				c.cores = append(c.cores[:i:i], c.cores[i+1:]...)
				if i == 0 {
					c.unionOp = c.unionOp[1:]
				} else {
					c.unionOp = append(c.unionOp[:i-1:i-1], c.unionOp[i:]...)
				}
			})
		}
	}
	for ci, core := range q.cores {
		for _, nc := range core.shrink(top && len(q.cores) == 1) {
			with(func(c *query) {
				c.cores[ci] = nc
				if len(nc.items) < len(core.items) {
					c.orderBy = nil
					c.limit, c.offset = -1, 0
				}
			})
		}
	}
	return out
}

func (q *query) clone() *query {
	c := *q
	c.cores = append([]selectCore(nil), q.cores...)
	c.unionOp = append([]string(nil), q.unionOp...)
	c.orderBy = append([]orderItem(nil), q.orderBy...)
	return &c
}

// shrink returns smaller versions of one SELECT; items may be dropped only
// when it is not in a UNION (whose branches must keep their arity).
func (c selectCore) shrink(itemsFree bool) []selectCore {
	var out []selectCore
	if c.distinct {
		n := c
		n.distinct = false
		out = append(out, n)
	}
	// a WHERE or HAVING is dropped, or shrunk
	clause := func(e node, set func(n *selectCore, e node)) {
		if e == nil {
			return
		}
		for _, s := range append([]node{nil}, e.shrink()...) {
			n := c
			set(&n, s)
			out = append(out, n)
		}
	}
	clause(c.where, func(n *selectCore, e node) { n.where = e })
	clause(c.having, func(n *selectCore, e node) { n.having = e })
	for i := range c.groupBy {
		if c.hasAggregate() {
			// an aggregate without GROUP BY has a row even over no rows,
			// where MariaDB has known bugs (doc.go): keep the grouping
			break
		}
		n := c
		n.groupBy = append(append([]node(nil), c.groupBy[:i]...), c.groupBy[i+1:]...)
		out = append(out, n)
	}
	if itemsFree && len(c.items) > 1 {
		for i := range c.items {
			n := c
			n.items = append(append([]selItem(nil), c.items[:i]...), c.items[i+1:]...)
			out = append(out, n)
		}
	}
	for i, it := range c.items {
		if itemsFree && len(c.groupBy) == 0 && c.having == nil && !c.distinct {
			if r, ok := it.e.(raw); !ok || r.text != "1" {
				n := c
				n.items = append([]selItem(nil), c.items...)
				n.items[i].e = raw{"1"}
				out = append(out, n)
			}
		}
		for _, e := range it.e.shrink() {
			n := c
			n.items = append([]selItem(nil), c.items...)
			n.items[i].e = e
			out = append(out, n)
		}
	}
	for i := range c.from {
		if i > 0 || len(c.from) > 1 {
			n := c
			n.from = append(append([]fromItem(nil), c.from[:i]...), c.from[i+1:]...)
			n.from[0].join, n.from[0].on = "", nil
			out = append(out, n)
		}
		f := c.from[i]
		if f.join == "LEFT JOIN" || f.join == "RIGHT JOIN" {
			n := c
			n.from = append([]fromItem(nil), c.from...)
			n.from[i].join = "JOIN"
			out = append(out, n)
		}
		if f.on != nil {
			for _, on := range f.on.shrink() {
				n := c
				n.from = append([]fromItem(nil), c.from...)
				n.from[i].on = on
				out = append(out, n)
			}
		}
		if f.derived != nil {
			for _, d := range f.derived.shrink() {
				if len(d.cores[0].items) != len(f.derived.cores[0].items) {
					continue // the outer query names the derived columns
				}
				n := c
				n.from = append([]fromItem(nil), c.from...)
				n.from[i].derived = d
				out = append(out, n)
			}
		}
	}
	return out
}

// hasAggregate reports whether the select list holds an aggregate.
func (c selectCore) hasAggregate() bool {
	for _, it := range c.items {
		text := nodeSQL(it.e)
		for _, fn := range []string{"COUNT(", "SUM(", "AVG(", "MIN(", "MAX("} {
			if strings.Contains(text, fn) {
				return true
			}
		}
	}
	return false
}
