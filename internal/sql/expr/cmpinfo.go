package expr

import "github.com/strata-db/strata/internal/types"

// CompareType reports the class in which a comparison (eq, ne, lt, le,
// gt, ge, nulleq), in, between, or like compares its first argument with
// the others, and the collation for strings ("binary" for byte strings).
// The planner may use an index range on a column only when this class is
// the column's own (an INT column compared as DOUBLE with '1abc', or a
// string column compared as a number, must not become a key range) and,
// for strings, the collation is the index's. ok is false for other
// functions. For IN it is the class of the first item's pair (items may
// differ: check each with CompareTypeOfItem).
func (f *ScalarFunction) CompareType() (cls types.EvalType, collation string, ok bool) {
	switch fn := f.fn.(type) {
	case *compareFunc:
		return fn.c.info()
	case *betweenFunc:
		if fn.lo.cls != fn.hi.cls {
			return types.ETReal, "", true
		}
		return fn.lo.info()
	case *inFunc:
		if len(fn.cmps) > 0 {
			return fn.cmps[0].info()
		}
	case *likeFunc:
		return types.ETString, fn.coll.name(), true
	}
	return 0, "", false
}

// CompareTypeOfItem is CompareType for item i (0-based, after the first
// argument) of an IN list.
func (f *ScalarFunction) CompareTypeOfItem(i int) (cls types.EvalType, collation string, ok bool) {
	if fn, isIn := f.fn.(*inFunc); isIn && i >= 0 && i < len(fn.cmps) {
		return fn.cmps[i].info()
	}
	return 0, "", false
}

func (c *comparator) info() (types.EvalType, string, bool) {
	switch c.cls {
	case cmpInt:
		return types.ETInt, "", true
	case cmpDecimal:
		return types.ETDecimal, "", true
	case cmpString:
		return types.ETString, c.coll.name(), true
	case cmpTime:
		return types.ETDatetime, "", true
	case cmpDuration:
		return types.ETDuration, "", true
	}
	return types.ETReal, "", true
}
