package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// scol is a column visible in a scope: a qualified reference and its type.
type scol struct {
	ref  string // alias.column
	t    vtype
	base bool // a base table's column (bytes as stored), not a derived one
}

// scope is the columns a SELECT sees: its FROM clause's, then the outer
// queries' (for correlated subqueries).
type scope struct {
	cols  []scol
	outer *scope
}

// gen generates queries over one schema.
type gen struct {
	r      *rand.Rand
	s      *schema
	avoid  bugSwitches // knownBug switches in force
	nAlias int
	depth  int  // subquery / derived table nesting
	noSubq bool // generating an ON condition while subqueries in ON are avoided
}

const maxDepth = 2

func (g *gen) coin(pct int) bool { return g.r.IntN(100) < pct }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

func (g *gen) alias(prefix string) string {
	g.nAlias++
	return fmt.Sprintf("%s%d", prefix, g.nAlias)
}

// query generates a top-level query.
func (g *gen) query() *query {
	g.nAlias = 0
	g.depth = 0
	var q *query
	switch n := g.pick(100); {
	case n < 15:
		q = g.unionQuery(nil, !g.avoid.on("unionNullFirst"))
	case n < 45:
		q = &query{cores: []selectCore{g.aggCore(nil)}, limit: -1}
	default:
		q = &query{cores: []selectCore{g.plainCore(nil)}, limit: -1}
	}
	if g.coin(40) {
		g.orderAll(q)
		if g.coin(60) {
			q.limit = g.pick(6)
			// MariaDB ignores OFFSET after DISTINCT of constants (doc.go)
			if g.coin(30) && !q.cores[0].distinct {
				q.offset = 1 + g.pick(3)
			}
		}
	}
	return q
}

// orderAll orders q by every select-list position, in a random order and
// directions, so that the order of the rows is determined.
func (g *gen) orderAll(q *query) {
	n := len(q.cores[0].items)
	for _, p := range g.r.Perm(n) {
		q.orderBy = append(q.orderBy, orderItem{pos: p + 1, desc: g.coin(40)})
	}
}

// from generates a FROM clause of n tables and the scope it makes.
func (g *gen) from(outer *scope, n int) ([]fromItem, *scope) {
	sc := &scope{outer: outer}
	var items []fromItem
	comma := g.coin(20)
	for i := range n {
		var f fromItem
		var cols []scol
		if g.depth < maxDepth && g.coin(12) {
			f, cols = g.derivedTable()
		} else {
			t := g.s.tables[g.pick(len(g.s.tables))]
			f = fromItem{table: t.name, alias: g.alias("a")}
			cols = tableCols(t, f.alias)
		}
		if i > 0 {
			if comma {
				f.join = ","
			} else {
				switch k := g.pick(100); {
				case k < 40:
					f.join = "JOIN"
				case k < 70:
					f.join = "LEFT JOIN"
				case k < 85:
					f.join = "RIGHT JOIN"
				default:
					f.join = "CROSS JOIN"
				}
				if f.join != "CROSS JOIN" {
					f.on = g.joinCond(sc.cols, cols)
				}
			}
		}
		sc.cols = append(sc.cols, cols...)
		items = append(items, f)
	}
	return items, sc
}

// derivedTable generates (SELECT ...) AS dN and the columns it exposes.
func (g *gen) derivedTable() (fromItem, []scol) {
	g.depth++
	defer func() { g.depth-- }()
	var q *query
	switch n := g.pick(100); {
	case n < 20:
		q = g.unionQuery(nil, false)
	case n < 55:
		q = &query{cores: []selectCore{g.aggCore(nil)}, limit: -1}
	default:
		q = &query{cores: []selectCore{g.plainCore(nil)}, limit: -1}
	}
	if g.coin(15) {
		g.orderAll(q)
		q.limit = 1 + g.pick(4)
	}
	alias := g.alias("d")
	var cols []scol
	for i := range q.cores[0].items {
		// names unique in the whole query: MariaDB reads a qualified
		// d.x1 in GROUP BY as the select alias x1 when one exists (1052)
		name := fmt.Sprintf("x%s_%d", alias[1:], i)
		for ci := range q.cores {
			q.cores[ci].items[i].alias = name
		}
		t := q.cores[0].items[i].t
		if t.kind == kStrBin || t.kind == kStrCI {
			t.ambiguous = true
		}
		cols = append(cols, scol{ref: alias + "." + name, t: t})
	}
	return fromItem{derived: q, alias: alias}, cols
}

// joinCond is an ON condition between the new table's columns and the
// columns before it: usually an equality of one kind, sometimes with a filter
// or an OR, sometimes a non-equality.
func (g *gen) joinCond(prev, cur []scol) node {
	type pair struct{ a, b scol }
	var pairs []pair
	for _, a := range prev {
		for _, b := range cur {
			if a.t.kind == b.t.kind {
				pairs = append(pairs, pair{a, b})
			}
		}
	}
	local := &scope{cols: append(append([]scol(nil), prev...), cur...)}
	if g.avoid.on("subqueryInOn") {
		g.noSubq = true
		defer func() { g.noSubq = false }()
	}
	if len(pairs) == 0 {
		return g.atom(local, !g.noSubq && g.depth < maxDepth)
	}
	p := pairs[g.pick(len(pairs))]
	op := "="
	if g.coin(10) {
		op = []string{"<", "<=", ">", "<>", "<=>"}[g.pick(5)]
	}
	var cond node = binary{op, raw{p.a.ref}, raw{p.b.ref}}
	switch k := g.pick(100); {
	case k < 20:
		cond = binary{"AND", cond, g.atom(&scope{cols: cur}, !g.noSubq && g.depth < maxDepth)}
	case k < 28:
		q := pairs[g.pick(len(pairs))]
		cond = binary{"OR", cond, binary{"=", raw{q.a.ref}, raw{q.b.ref}}}
	case k < 33:
		cond = binary{"AND", cond, g.atom(local, !g.noSubq && g.depth < maxDepth)}
	}
	return cond
}

// pickCol picks a column of sc, or now and then of an outer scope (a
// correlation); ok is false when there is none matching.
func (g *gen) pickCol(sc *scope, want func(scol) bool) (scol, bool) {
	collect := func(scopes ...*scope) []scol {
		var cands []scol
		for _, s := range scopes {
			for _, c := range s.cols {
				if want == nil || want(c) {
					cands = append(cands, c)
				}
			}
		}
		return cands
	}
	var cands []scol
	if sc.outer != nil && g.coin(30) {
		var outers []*scope
		for o := sc.outer; o != nil; o = o.outer {
			outers = append(outers, o)
		}
		cands = collect(outers...)
	}
	if len(cands) == 0 {
		cands = collect(sc)
	}
	if len(cands) == 0 {
		return scol{}, false
	}
	return cands[g.pick(len(cands))], true
}

// localCol picks a column of sc itself (never an outer one).
func (g *gen) localCol(sc *scope, want func(scol) bool) (scol, bool) {
	return g.pickCol(&scope{cols: sc.cols}, want)
}

func ofKind(k kind) func(scol) bool { return func(c scol) bool { return c.t.kind == k } }

// fracOK reports whether a value of type t may be compared with a
// fractional literal: MariaDB's range optimizer rounds 1.5 to 2 when it
// compares an indexed integer column with it (see doc.go), so integer
// columns only meet integral literals.
func fracOK(t vtype) bool {
	switch t.name {
	case "SUM", "AVG", "arith", "literal":
		return true
	}
	return strings.Contains(t.name, "DECIMAL") || strings.Contains(t.name, "DOUBLE")
}

// literal of like's kind, NULL now and then.
func (g *gen) literal(like vtype) node {
	if g.coin(8) {
		return raw{"NULL"}
	}
	k := like.kind
	l := kindLiterals[k][g.pick(len(kindLiterals[k]))]
	for k == kNum && !fracOK(like) && strings.Contains(l, ".") && !strings.HasSuffix(l, ".00") {
		l = kindLiterals[k][g.pick(len(kindLiterals[k]))]
	}
	if g.coin(30) {
		switch k {
		case kDate:
			l = "DATE " + l
		case kDatetime:
			l = "TIMESTAMP " + l
		}
	}
	return raw{l}
}

// value is an expression of kind k: mostly a column, else a literal, an
// arithmetic expression or a scalar subquery.
func (g *gen) value(sc *scope, like vtype) (node, vtype) {
	k := like.kind
	switch n := g.pick(100); {
	case n < 12 && k == kNum:
		c, ok := g.pickCol(sc, func(c scol) bool { return c.t.kind == kNum && c.t.signed })
		if ok {
			t := vtype{name: "arith", kind: kNum, signed: true, float: c.t.float}
			switch g.pick(4) {
			case 0:
				return binary{"+", raw{c.ref}, raw{fmt.Sprint(g.pick(3) + 1)}}, t
			case 1:
				return binary{"*", raw{c.ref}, raw{"2"}}, t
			case 2:
				return binary{"/", raw{c.ref}, raw{"4"}}, t
			default:
				if c2, ok := g.pickCol(sc, func(c scol) bool { return c.t.kind == kNum && c.t.signed }); ok {
					t.float = t.float || c2.t.float
					return binary{"-", raw{c.ref}, raw{c2.ref}}, t
				}
			}
		}
	case n < 18 && g.depth < maxDepth && !g.noSubq:
		return g.scalarSubquery(sc, k)
	case n < 30:
		return g.literal(like), vtype{name: "literal", kind: k}
	}
	if c, ok := g.pickCol(sc, ofKind(k)); ok {
		return raw{c.ref}, c.t
	}
	return g.literal(like), vtype{name: "literal", kind: k}
}

var cmpOps = []string{"=", "=", "<>", "<", "<=", ">", ">=", "<=>"}

// pred is a boolean expression over sc of up to depth levels of AND/OR/NOT.
func (g *gen) pred(sc *scope, depth int) node {
	if depth > 0 && g.coin(45) {
		switch g.pick(5) {
		case 0, 1:
			return binary{"AND", g.pred(sc, depth-1), g.pred(sc, depth-1)}
		case 2, 3:
			return binary{"OR", g.pred(sc, depth-1), g.pred(sc, depth-1)}
		default:
			x := g.pred(sc, depth-1)
			if u, ok := x.(unary); ok && u.pre == "NOT " {
				return x // MariaDB drops rows under NOT (NOT (x < ANY ...)) (doc.go)
			}
			return unary{pre: "NOT ", x: x, boolean: true}
		}
	}
	return g.atom(sc, g.depth < maxDepth)
}

// atom is one comparison, IS NULL, IN list, BETWEEN, LIKE or subquery
// predicate.
func (g *gen) atom(sc *scope, subqueries bool) node {
	c, ok := g.pickCol(sc, nil)
	if !ok {
		return raw{"TRUE"}
	}
	k := c.t.kind
	x := node(raw{c.ref})
	n := g.pick(100)
	if !subqueries && n >= 70 {
		n = g.pick(70)
	}
	switch {
	case n < 30:
		v, _ := g.value(sc, c.t)
		return binary{cmpOps[g.pick(len(cmpOps))], x, v}
	case n < 36:
		post := " IS NULL"
		if g.coin(50) {
			post = " IS NOT NULL"
		}
		return unary{post: post, x: x}
	case n < 46:
		var items []node
		for range 1 + g.pick(4) {
			items = append(items, g.literal(c.t))
		}
		return inList{x: x, not: g.coin(35), items: items}
	case n < 54:
		lo, _ := g.value(sc, c.t)
		hi, _ := g.value(sc, c.t)
		f := "(%s BETWEEN %s AND %s)"
		if g.coin(30) {
			f = "(%s NOT BETWEEN %s AND %s)"
		}
		return list{f, []node{x, lo, hi}}
	case n < 62:
		if (k == kStrBin || k == kStrCI) && c.base {
			pats := []string{"'a%'", "'A%'", "'%b%'", "'_'", "'a_c'", "'%c'", "'%'", "''", "'a\\_%'"}
			f := "(%s LIKE %s)"
			if g.coin(30) {
				f = "(%s NOT LIKE %s)"
			}
			return list{f, []node{x, raw{pats[g.pick(len(pats))]}}}
		}
		return unary{post: " IS NOT NULL", x: x}
	case n < 70:
		// a column compared with a column of the same kind
		if c2, ok := g.pickCol(sc, ofKind(k)); ok {
			return binary{cmpOps[g.pick(len(cmpOps))], x, raw{c2.ref}}
		}
		return unary{post: " IS NULL", x: x}
	default:
		return g.subqueryPred(sc, c)
	}
}

// subqueryPred is [NOT] EXISTS, [NOT] IN, op ANY/ALL or a comparison with
// a scalar subquery, correlated with sc now and then.
func (g *gen) subqueryPred(sc *scope, c scol) node {
	g.depth++
	defer func() { g.depth-- }()
	x, k := node(raw{c.ref}), c.t.kind
	switch g.pick(5) {
	case 0:
		q := &query{cores: []selectCore{g.existsCore(sc)}, limit: -1}
		if g.coin(40) {
			return subquery{"(NOT EXISTS %s)", nil, q}
		}
		return subquery{"(EXISTS %s)", nil, q}
	case 1, 2:
		q := g.oneColQuery(sc, c.t, true)
		if g.coin(35) {
			return subquery{"(%s NOT IN %s)", []node{x}, q}
		}
		return subquery{"(%s IN %s)", []node{x}, q}
	case 3:
		q := g.oneColQuery(sc, c.t, false)
		quant := []string{"ANY", "ALL", "SOME"}[g.pick(3)]
		op := []string{"=", "<>", "<", "<=", ">", ">="}[g.pick(6)]
		return subquery{"(%s " + op + " " + quant + " %s)", []node{x}, q}
	default:
		g.depth--
		v, _ := g.scalarSubquery(sc, k)
		g.depth++
		return binary{cmpOps[g.pick(len(cmpOps))], x, v}
	}
}

// scalarSubquery is a subquery with one row and one column of kind k: an
// aggregate without GROUP BY, or a lookup by primary key.
func (g *gen) scalarSubquery(sc *scope, k kind) (node, vtype) {
	g.depth++
	defer func() { g.depth-- }()
	t := g.s.tables[g.pick(len(g.s.tables))]
	a := g.alias("a")
	inner := &scope{outer: sc, cols: tableCols(t, a)}
	var cands []scol
	for _, c := range inner.cols {
		if c.t.kind == k {
			cands = append(cands, c)
		}
	}
	core := selectCore{from: []fromItem{{table: t.name, alias: a}}}
	if g.coin(25) && len(cands) > 0 {
		// lookup by primary key, correlated or not
		c := cands[g.pick(len(cands))]
		key := node(raw{fmt.Sprint(1 + g.pick(6))})
		if sc != nil && g.coin(60) {
			if o, ok := g.pickCol(sc, ofKind(kNum)); ok {
				key = raw{o.ref}
			}
		}
		core.items = []selItem{{e: raw{c.ref}, t: c.t}}
		core.where = binary{"=", raw{a + ".id"}, key}
		return subquery{"%s", nil, &query{cores: []selectCore{core}, limit: -1}}, c.t
	}
	var it selItem
	if k == kNum && (len(cands) == 0 || g.coin(30)) {
		it = selItem{e: call{name: "COUNT", args: []node{raw{"*"}}}, t: vtype{name: "COUNT", kind: kNum}}
	} else if len(cands) > 0 {
		c := cands[g.pick(len(cands))]
		it = g.aggOf(c)
	} else {
		return g.literal(vtype{kind: k}), vtype{name: "literal", kind: k}
	}
	core.items = []selItem{it}
	if g.coin(70) {
		core.where = g.pred(inner, 1)
	}
	return subquery{"%s", nil, &query{cores: []selectCore{core}, limit: -1}}, it.t
}

func tableCols(t *table, alias string) []scol {
	cols := []scol{{ref: alias + ".id", t: colTypes[0].vt, base: true}}
	for _, c := range t.cols {
		cols = append(cols, scol{ref: alias + "." + c.name, t: c.ct.vt, base: true})
	}
	return cols
}

// aggOf is an aggregate of column c whose result keeps c's kind.
func (g *gen) aggOf(c scol) selItem {
	t := c.t
	if t.kind == kStrBin || t.kind == kStrCI {
		t.ambiguous = true
	}
	if c.t.kind == kNum && g.coin(50) {
		fn := []string{"SUM", "AVG"}[g.pick(2)]
		return selItem{e: call{name: fn, distinct: g.coin(20), args: []node{raw{c.ref}}}, t: vtype{name: fn, kind: kNum, float: c.t.float, signed: true}}
	}
	fn := []string{"MIN", "MAX"}[g.pick(2)]
	t.name = fn + " " + t.name
	return selItem{e: call{name: fn, args: []node{raw{c.ref}}}, t: t}
}

// existsCore is the SELECT of an EXISTS: one or two tables, a filter that
// is usually correlated.
func (g *gen) existsCore(outer *scope) selectCore {
	from, sc := g.from(outer, 1+g.pick(2))
	c := selectCore{from: from, items: []selItem{{e: raw{"1"}}}}
	if g.coin(20) {
		c.items = []selItem{{e: raw{"*"}}}
	}
	if g.coin(90) {
		c.where = g.pred(sc, 1)
	}
	if g.coin(15) {
		if col, ok := g.localCol(sc, nil); ok {
			c.groupBy = []node{raw{col.ref}}
			c.items = []selItem{{e: raw{col.ref}}}
			if g.coin(50) {
				c.having = binary{[]string{">", ">=", "="}[g.pick(3)], call{name: "COUNT", args: []node{raw{"*"}}}, raw{fmt.Sprint(g.pick(3))}}
			}
		}
	}
	return c
}

// oneColQuery is a subquery of one column of like's type for IN / ANY /
// ALL: a column, DISTINCT, or (union, for IN) a UNION of such. Never an
// aggregate, a column of another numeric type, or a UNION under ANY/ALL:
// MariaDB answers those wrongly (doc.go).
func (g *gen) oneColQuery(outer *scope, like vtype, union bool) *query {
	k := like.kind
	q := &query{limit: -1}
	for i := range 1 + boolInt(union && g.coin(15)) {
		if i > 0 {
			q.unionOp = append(q.unionOp, []string{"UNION", "UNION ALL"}[g.pick(2)])
		}
		from, sc := g.from(outer, 1+boolInt(g.coin(25)))
		c := selectCore{from: from}
		col, ok := g.localCol(sc, func(c scol) bool {
			return c.t.kind == k && (k != kNum || c.t.name == like.name)
		})
		if !ok {
			c.items = []selItem{{e: g.literal(vtype{kind: k}), t: vtype{name: "literal", kind: k}}}
		} else {
			c.items = []selItem{{e: raw{col.ref}, t: col.t}}
			c.distinct = g.coin(15)
		}
		if g.coin(80) {
			c.where = g.pred(sc, 1)
		}
		q.cores = append(q.cores, c)
	}
	return q
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plainCore is a SELECT without aggregates over 1-4 tables.
func (g *gen) plainCore(outer *scope) selectCore {
	n := 1 + g.pick(3)
	if g.coin(15) {
		n = 4
	}
	from, sc := g.from(outer, n)
	c := selectCore{from: from, distinct: g.coin(20)}
	if g.coin(80) {
		c.where = g.pred(sc, 2)
	}
	c.where = g.commaJoinCond(from, sc, c.where)
	for range 1 + g.pick(4) {
		c.items = append(c.items, g.selectItem(sc))
	}
	return c
}

// commaJoinCond is where with a join condition ANDed in front when from
// joins with commas, whose join conditions live in WHERE.
func (g *gen) commaJoinCond(from []fromItem, sc *scope, where node) node {
	if from[len(from)-1].join != "," {
		return where
	}
	cond := g.joinCond(sc.cols[:len(sc.cols)/2], sc.cols[len(sc.cols)/2:])
	if where != nil {
		cond = binary{"AND", cond, where}
	}
	return cond
}

// selectItem is one expression of a plain select list.
func (g *gen) selectItem(sc *scope) selItem {
	switch n := g.pick(100); {
	case n < 8:
		return selItem{e: g.pred(sc, 0), t: vtype{name: "bool", kind: kNum}}
	case n < 14 && g.depth < maxDepth:
		k := kind(g.pick(5))
		e, t := g.scalarSubquery(sc, k)
		if t.kind == kStrBin || t.kind == kStrCI {
			t.ambiguous = true
		}
		return selItem{e: e, t: t}
	case n < 20:
		if c, ok := g.localCol(sc, ofKind(kNum)); ok {
			return selItem{e: call{name: "COALESCE", args: []node{raw{c.ref}, raw{"-7"}}}, t: vtype{name: "coalesce", kind: kNum, float: c.t.float}}
		}
	case n < 28:
		// (never a bare NULL: MariaDB mishandles NULL-typed columns, doc.go)
		if e, t := g.value(sc, vtype{kind: kNum}); nodeSQL(e) != "NULL" {
			return selItem{e: e, t: t}
		}
	}
	c, _ := g.localCol(sc, nil)
	return selItem{e: raw{c.ref}, t: c.t}
}

// aggCore is a SELECT with aggregates, GROUP BY over 0-2 columns and an
// optional HAVING.
func (g *gen) aggCore(outer *scope) selectCore {
	from, sc := g.from(outer, 1+g.pick(3))
	c := selectCore{from: from, distinct: g.coin(10)}
	if g.coin(70) {
		c.where = g.pred(sc, 2)
	}
	c.where = g.commaJoinCond(from, sc, c.where)
	var groups []scol
	seen := map[string]bool{}
	for range g.pick(3) {
		if col, ok := g.localCol(sc, nil); ok && !seen[col.ref] {
			seen[col.ref] = true
			groups = append(groups, col)
			c.groupBy = append(c.groupBy, raw{col.ref})
		}
	}
	for _, gc := range groups {
		if g.coin(80) {
			t := gc.t
			if t.kind == kStrBin || t.kind == kStrCI {
				t.ambiguous = true
			}
			c.items = append(c.items, selItem{e: raw{gc.ref}, t: t})
		}
	}
	for range 1 + g.pick(3) {
		c.items = append(c.items, g.aggregate(sc))
	}
	if len(groups) == 0 && !g.avoid.on("onlyFullGroupBy") && g.coin(5) {
		// invalid under ONLY_FULL_GROUP_BY: MySQL 8 and MariaDB fail with 1140
		col, _ := g.localCol(sc, nil)
		c.items = append(c.items, selItem{e: raw{col.ref}, t: col.t})
	}
	// (HAVING only with GROUP BY: MariaDB does not apply HAVING to the
	// one group of an aggregate over no rows, doc.go)
	if len(groups) > 0 && g.coin(35) {
		c.having = g.havingPred(sc, groups)
	}
	return c
}

// aggregate is COUNT(*), COUNT([DISTINCT] col), SUM, AVG, MIN or MAX of a
// column of sc.
func (g *gen) aggregate(sc *scope) selItem {
	col, ok := g.localCol(sc, nil)
	if !ok || g.coin(20) {
		return selItem{e: call{name: "COUNT", args: []node{raw{"*"}}}, t: vtype{name: "COUNT", kind: kNum}}
	}
	if g.coin(25) {
		return selItem{e: call{name: "COUNT", distinct: g.coin(50), args: []node{raw{col.ref}}}, t: vtype{name: "COUNT", kind: kNum}}
	}
	return g.aggOf(col)
}

// havingPred filters groups by an aggregate or a grouping column.
func (g *gen) havingPred(sc *scope, groups []scol) node {
	var p node
	if len(groups) == 1 && g.coin(30) {
		// (one grouping column only: MariaDB resolves a.c0 in HAVING by
		// the name c0 and fails with 1463 when b.c0 is grouped too)
		gc := groups[0]
		v := g.literal(gc.t)
		p = binary{cmpOps[g.pick(len(cmpOps))], raw{gc.ref}, v}
	} else {
		a := g.aggregate(sc)
		v := g.literal(a.t)
		p = binary{cmpOps[g.pick(len(cmpOps))], a.e, v}
	}
	if g.coin(25) {
		a := g.aggregate(sc)
		op := []string{"AND", "OR"}[g.pick(2)]
		p = binary{op, p, binary{">", a.e, g.literal(a.t)}}
	}
	return p
}

// unionQuery is a UNION [ALL] of 2-3 SELECTs whose columns have the same
// types position by position (a column of that type, or NULL). The first
// SELECT has a column at every position unless nullFirst: MariaDB answers
// IN subqueries over NULL-typed columns wrongly (doc.go).
func (g *gen) unionQuery(outer *scope, nullFirst bool) *query {
	var types []vtype
	q := &query{limit: -1}
	for i := range 2 + boolInt(g.coin(25)) {
		if i > 0 {
			q.unionOp = append(q.unionOp, []string{"UNION", "UNION ALL"}[g.pick(2)])
		}
		from, sc := g.from(outer, 1+boolInt(g.coin(30)))
		c := selectCore{from: from, distinct: g.coin(15)}
		if i == 0 {
			for range 1 + g.pick(3) {
				col, _ := g.localCol(sc, nil)
				types = append(types, col.t)
			}
		}
		for _, t := range types {
			col, ok := g.localCol(sc, func(c scol) bool { return c.t.name == t.name })
			if ok && (g.coin(90) || (i == 0 && !nullFirst)) {
				c.items = append(c.items, selItem{e: raw{col.ref}, t: t})
			} else {
				c.items = append(c.items, selItem{e: raw{"NULL"}, t: t})
			}
		}
		if g.coin(70) {
			c.where = g.pred(sc, 1)
		}
		q.cores = append(q.cores, c)
	}
	return q
}
