package planner

import (
	"github.com/strata-db/strata/internal/sql/expr"
)

// markCovering walks p top-down with the set of p's output columns that
// are read (nil: all) and marks the index lookups whose read columns are
// all covered by the index as IndexOnly.
func markCovering(p Plan, needed []bool) {
	n := len(p.Schema())
	if needed == nil {
		needed = make([]bool, n)
		for i := range needed {
			needed[i] = true
		}
	}
	switch x := p.(type) {
	case *Projection:
		// Only the expressions of the outputs read above read the child.
		var used []expr.Expression
		for i, e := range x.Exprs {
			if needed[i] {
				used = append(used, e)
			}
		}
		markCovering(x.Child, usedBy(len(x.Child.Schema()), nil, used...))
	case *Selection:
		markCovering(x.Child, usedBy(n, needed, x.Conds...))
	case *Sort:
		markCovering(x.Child, usedBy(n, needed, byExprs(x.By)...))
	case *TopN:
		markCovering(x.Child, usedBy(n, needed, byExprs(x.By)...))
	case *Limit:
		markCovering(x.Child, needed)
	case *Lock:
		needed = append([]bool(nil), needed...)
		needed[x.Handle] = true
		markCovering(x.Child, needed)
	case *Agg:
		// Its outputs start with the child's columns.
		child := usedBy(len(x.Child.Schema()), needed, x.GroupBy...)
		for _, f := range x.Funcs {
			markUsed(child, f.Args...)
		}
		markCovering(x.Child, child)
	case *IndexLookUp:
		x.IndexOnly = covers(x, usedBy(n, needed, x.RangeConds...))
	case *TableScan:
		x.Needed = usedBy(n, needed, x.RangeConds...)
		x.Needed[x.HandleIndex()] = true
	case *Join:
		markJoin(x, needed, nil)
	case *Apply:
		markJoin(&x.Join, needed, x.Corr)
	case *Window:
		// As Agg's.
		child := usedBy(len(x.Child.Schema()), needed, x.PartitionBy...)
		markUsed(child, byExprs(x.OrderBy)...)
		for _, f := range x.Funcs {
			markUsed(child, f.Args...)
		}
		markCovering(x.Child, child)
	case *MaxOneRow:
		markCovering(x.Child, needed)
	default:
		for _, c := range p.Children() {
			markCovering(c, nil)
		}
	}
}

// markJoin passes a join's needs to its sides: the output columns read
// above, the keys and conditions, and for an Apply the outer columns its
// correlated columns read (the inner side is re-run with them: all of its
// columns stay).
func markJoin(j *Join, needed []bool, corr []CorrBinding) {
	nl, nr := len(j.Left.Schema()), len(j.Right.Schema())
	left := make([]bool, nl)
	right := make([]bool, nr)
	if !j.Kind.IsSemi() {
		copy(left, needed[:nl])
		copy(right, needed[nl:])
	} else {
		copy(left, needed[:min(nl, len(needed))])
	}
	markUsed(left, j.EqLeft...)
	markUsed(right, j.EqRight...)
	// Other and Cmp read the joined row.
	markUsed(left, j.Other...)
	markUsed(left, j.Cmp...)
	markShifted(right, nl, j.Other...)
	markShifted(right, nl, j.Cmp...)
	for _, b := range corr {
		left[b.Outer] = true
	}
	markCovering(j.Left, left)
	if corr != nil || j.IndexJoin != nil {
		markCovering(j.Right, nil)
		return
	}
	markCovering(j.Right, right)
}

// usedBy returns a set of n columns: the first n of base (none when nil)
// and the columns es read.
func usedBy(n int, base []bool, es ...expr.Expression) []bool {
	out := make([]bool, n)
	copy(out, base)
	markUsed(out, es...)
	return out
}

// markUsed adds to set the columns es read (those it has).
func markUsed(set []bool, es ...expr.Expression) { markShifted(set, 0, es...) }

// markShifted adds to set the columns es read at positions off and
// after, as column i-off: the right side's columns of conditions over a
// joined row whose left side has off columns.
func markShifted(set []bool, off int, es ...expr.Expression) {
	for _, e := range es {
		for _, c := range expr.ExtractColumns(e) {
			if i := c.Index - off; i >= 0 && i < len(set) {
				set[i] = true
			}
		}
	}
}

func byExprs(by []ByItem) []expr.Expression {
	out := make([]expr.Expression, len(by))
	for i, b := range by {
		out[i] = b.Expr
	}
	return out
}

// covers reports whether the needed columns of an index read are in the
// index (whole values, with a key encoding that decodes to the value) or
// are the handle.
func covers(p *IndexLookUp, needed []bool) bool {
	in := make([]bool, len(needed))
	in[p.HandleIndex()] = true
	if pk := p.Table.PKHandleColumn(); pk != nil {
		in[pk.Offset] = true
	}
	for _, ic := range p.Index.Columns {
		if ic.Length < 0 && keyDecodable(&p.Table.Columns[ic.Offset].FieldType) {
			in[ic.Offset] = true
		}
	}
	for i, n := range needed {
		if n && !in[i] {
			return false
		}
	}
	return true
}
