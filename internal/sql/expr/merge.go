package expr

import "github.com/strata-db/strata/internal/types"

// MergeTypes returns the type of a column holding values of the given
// types (a UNION's columns), by the rules of CASE and COALESCE.
func MergeTypes(fts ...*types.FieldType) *types.FieldType {
	args := make([]Expression, len(fts))
	for i, ft := range fts {
		args[i] = &Column{Ft: ft}
	}
	ft := mergeTypes(args)
	if isNullType(ft) { // all NULL: a nullable BINARY(0) as MySQL
		ft = stringType("binary", true, 0)
	}
	return ft
}

// ConvertTo converts d to ft's evaluation class, as CASE converts the
// value of its branch.
func ConvertTo(ctx EvalContext, d types.Datum, ft *types.FieldType) (types.Datum, error) {
	return convertTo(ctx, d, ft)
}
