package expr

import "github.com/strata-db/strata/internal/types"

// Equal reports whether a and b are the same expression: the same columns
// (by Index), the same literal values of the same kind, the same
// parameters, and the same functions of equal arguments. The planner uses
// it to match GROUP BY and ORDER BY items with select fields.
func Equal(a, b Expression) bool {
	switch x := a.(type) {
	case *Column:
		y, ok := b.(*Column)
		return ok && x.Index == y.Index
	case *Constant:
		y, ok := b.(*Constant)
		if !ok || x.ParamIndex != y.ParamIndex {
			return false
		}
		if x.ParamIndex >= 0 {
			return true
		}
		if x.Value.Kind() != y.Value.Kind() || x.binLit != y.binLit {
			return false
		}
		return x.Value.IsNull() || x.Value.Compare(&y.Value) == 0
	case *ScalarFunction:
		y, ok := b.(*ScalarFunction)
		if !ok || x.Name != y.Name || len(x.Args) != len(y.Args) || !sameType(x.Ft, y.Ft) {
			return false
		}
		for i := range x.Args {
			if !Equal(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func sameType(a, b *types.FieldType) bool {
	return a.Tp == b.Tp && a.Decimal == b.Decimal && a.IsUnsigned() == b.IsUnsigned() &&
		a.Collate == b.Collate && a.Flen == b.Flen
}
