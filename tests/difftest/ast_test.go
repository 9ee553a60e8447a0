package difftest

import (
	"fmt"
	"strings"
)

// node is a generated SQL expression. Nodes are immutable once built, so
// the minimiser can share subtrees between candidate queries.
type node interface {
	write(b *strings.Builder)
	// shrink returns smaller expressions that could stand in for this one
	// (a child of the same type, the node with one child shrunk).
	shrink() []node
}

type raw struct{ text string } // a column reference, literal, or *

func (n raw) write(b *strings.Builder) { b.WriteString(n.text) }
func (n raw) shrink() []node           { return nil }

// binary is l op r: comparisons, arithmetic, AND, OR.
type binary struct {
	op   string
	l, r node
}

func (n binary) write(b *strings.Builder) {
	b.WriteString("(")
	n.l.write(b)
	b.WriteString(" " + n.op + " ")
	n.r.write(b)
	b.WriteString(")")
}

func (n binary) shrink() []node {
	var out []node
	if n.op == "AND" || n.op == "OR" {
		out = append(out, n.l, n.r)
	}
	for _, l := range n.l.shrink() {
		out = append(out, binary{n.op, l, n.r})
	}
	for _, r := range n.r.shrink() {
		out = append(out, binary{n.op, n.l, r})
	}
	return out
}

// unary is a prefix or postfix operator: NOT x, x IS [NOT] NULL.
type unary struct {
	pre, post string
	x         node
	boolean   bool // NOT: x itself can replace the node
}

func (n unary) write(b *strings.Builder) {
	b.WriteString("(" + n.pre)
	n.x.write(b)
	b.WriteString(n.post + ")")
}

func (n unary) shrink() []node {
	var out []node
	if n.boolean {
		out = append(out, n.x)
	}
	for _, x := range n.x.shrink() {
		out = append(out, unary{n.pre, n.post, x, n.boolean})
	}
	return out
}

// call is name(args...), aggregates included (distinct for COUNT(DISTINCT x)).
type call struct {
	name     string
	distinct bool
	args     []node
}

func (n call) write(b *strings.Builder) {
	b.WriteString(n.name + "(")
	if n.distinct {
		b.WriteString("DISTINCT ")
	}
	for i, a := range n.args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteString(")")
}

func (n call) shrink() []node {
	return shrinkArgs(n.args, func(args []node) node { return call{n.name, n.distinct, args} })
}

// shrinkArgs returns, for each smaller version of each of args, the node
// rebuild makes of args with that one replaced.
func shrinkArgs(args []node, rebuild func([]node) node) []node {
	var out []node
	for i, a := range args {
		for _, s := range a.shrink() {
			c := append([]node(nil), args...)
			c[i] = s
			out = append(out, rebuild(c))
		}
	}
	return out
}

// list is x [NOT] IN (a, b, ...), x [NOT] BETWEEN a AND b, x [NOT] LIKE p,
// CASE WHEN ... : an operator with a fixed layout written by format, whose
// %s are filled with args in order.
type list struct {
	format string
	args   []node
}

func (n list) write(b *strings.Builder) {
	parts := strings.Split(n.format, "%s")
	for i, p := range parts {
		b.WriteString(p)
		if i < len(n.args) {
			n.args[i].write(b)
		}
	}
}

func (n list) shrink() []node {
	return shrinkArgs(n.args, func(args []node) node { return list{n.format, args} })
}

// inList is x [NOT] IN (items...); shrinking drops items.
type inList struct {
	x     node
	not   bool
	items []node
}

func (n inList) write(b *strings.Builder) {
	b.WriteString("(")
	n.x.write(b)
	if n.not {
		b.WriteString(" NOT")
	}
	b.WriteString(" IN (")
	for i, a := range n.items {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteString("))")
}

func (n inList) shrink() []node {
	var out []node
	if len(n.items) > 1 {
		for i := range n.items {
			items := append(append([]node(nil), n.items[:i]...), n.items[i+1:]...)
			out = append(out, inList{n.x, n.not, items})
		}
	}
	return out
}

// subquery is a subquery in an expression: format has one %s for the
// parenthesised query and the others for args, e.g. "(%s IN %s)",
// "EXISTS %s", "%s", "(%s > ALL %s)".
type subquery struct {
	format string
	args   []node // the operands before the subquery
	q      *query
}

func (n subquery) write(b *strings.Builder) {
	parts := strings.Split(n.format, "%s")
	for i, p := range parts {
		b.WriteString(p)
		switch {
		case i < len(n.args):
			n.args[i].write(b)
		case i == len(n.args):
			b.WriteString("(")
			n.q.write(b)
			b.WriteString(")")
		}
	}
}

func (n subquery) shrink() []node {
	var out []node
	for _, q := range n.q.shrink() {
		out = append(out, subquery{n.format, n.args, q})
	}
	return out
}

func nodeSQL(n node) string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

// selItem is one expression of a select list.
type selItem struct {
	e     node
	alias string
	t     vtype
}

// fromItem is one table of a FROM clause: a base table or a derived table,
// with the join that brings it in (empty for the first).
type fromItem struct {
	join    string // "", ",", "JOIN", "LEFT JOIN", "RIGHT JOIN", "CROSS JOIN"
	table   string
	derived *query
	alias   string
	on      node
}

// orderItem orders by a select-list position.
type orderItem struct {
	pos  int // 1-based
	desc bool
}

// selectCore is one SELECT without ORDER BY / LIMIT.
type selectCore struct {
	distinct bool
	items    []selItem
	from     []fromItem
	where    node
	groupBy  []node
	having   node
}

// query is a SELECT or a UNION of SELECTs with an optional ORDER BY over
// select-list positions and LIMIT.
type query struct {
	cores   []selectCore
	unionOp []string // between cores: "UNION" or "UNION ALL"
	orderBy []orderItem
	limit   int // -1: none
	offset  int
}

func (q *query) write(b *strings.Builder) {
	for i, c := range q.cores {
		if i > 0 {
			b.WriteString(" " + q.unionOp[i-1] + " ")
		}
		c.write(b)
	}
	if len(q.orderBy) > 0 {
		b.WriteString(" ORDER BY ")
		for i, o := range q.orderBy {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprint(b, o.pos)
			if o.desc {
				b.WriteString(" DESC")
			}
		}
	}
	if q.limit >= 0 {
		fmt.Fprintf(b, " LIMIT %d", q.limit)
		if q.offset > 0 {
			fmt.Fprintf(b, " OFFSET %d", q.offset)
		}
	}
}

// SQL is the query's text.
func (q *query) SQL() string {
	var b strings.Builder
	q.write(&b)
	return b.String()
}

func (c *selectCore) write(b *strings.Builder) {
	b.WriteString("SELECT ")
	if c.distinct {
		b.WriteString("DISTINCT ")
	}
	for i, it := range c.items {
		if i > 0 {
			b.WriteString(", ")
		}
		it.e.write(b)
		if it.alias != "" {
			b.WriteString(" AS " + it.alias)
		}
	}
	for i, f := range c.from {
		switch {
		case i == 0:
			b.WriteString(" FROM ")
		case f.join == ",":
			b.WriteString(", ")
		default:
			b.WriteString(" " + f.join + " ")
		}
		if f.derived != nil {
			b.WriteString("(")
			f.derived.write(b)
			b.WriteString(")")
		} else {
			b.WriteString(f.table)
		}
		b.WriteString(" AS " + f.alias)
		if f.on != nil {
			b.WriteString(" ON ")
			f.on.write(b)
		}
	}
	if c.where != nil {
		b.WriteString(" WHERE ")
		c.where.write(b)
	}
	if len(c.groupBy) > 0 {
		b.WriteString(" GROUP BY ")
		for i, g := range c.groupBy {
			if i > 0 {
				b.WriteString(", ")
			}
			g.write(b)
		}
	}
	if c.having != nil {
		b.WriteString(" HAVING ")
		c.having.write(b)
	}
}

// ordered reports whether the query's ORDER BY fixes the order of its rows
// (it names every select-list position), so that the order is compared.
func (q *query) ordered() bool {
	if len(q.orderBy) == 0 {
		return false
	}
	seen := map[int]bool{}
	for _, o := range q.orderBy {
		seen[o.pos] = true
	}
	return len(seen) == len(q.cores[0].items)
}
