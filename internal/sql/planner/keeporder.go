package planner

import "github.com/strata-db/strata/internal/sql/expr"

// eliminateSort drops a Sort (or turns a TopN into a Limit) whose single
// ORDER BY item is the int primary key when the rows come from a handle
// scan: the scan then reads in that order (forward or reverse).
func eliminateSort(p Plan) Plan {
	var by []ByItem
	var child Plan
	switch x := p.(type) {
	case *Sort:
		by, child = x.By, x.Child
	case *TopN:
		by, child = x.By, x.Child
	default:
		return p
	}
	proj, ok := child.(*Projection)
	if !ok || len(by) != 1 {
		return p
	}
	c, ok := by[0].Expr.(*expr.Column)
	if !ok {
		return p
	}
	src, ok := proj.Exprs[c.Index].(*expr.Column)
	if !ok {
		return p
	}
	scan := handleScanBelow(proj.Child)
	if scan == nil {
		return p
	}
	pk := scan.Table.PKHandleColumn()
	if pk != nil && pk.FieldType.IsUnsigned() {
		return p
	}
	if src.Index != scan.HandleIndex() && (pk == nil || src.Index != pk.Offset) {
		return p
	}
	scan.Desc = by[0].Desc
	scan.KeepOrder = true
	if t, ok := p.(*TopN); ok {
		return &Limit{Child: child, Offset: t.Offset, Count: t.Count}
	}
	return child
}

// handleScanBelow finds the TableScan under Selections and Locks.
func handleScanBelow(p Plan) *TableScan {
	for {
		switch x := p.(type) {
		case *Selection:
			p = x.Child
		case *Lock:
			p = x.Child
		case *TableScan:
			return x
		default:
			return nil
		}
	}
}
