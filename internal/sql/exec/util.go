package exec

import (
	"github.com/strata-db/strata/internal/types"
)

func ptr(d types.Datum) *types.Datum { return &d }

// fitType makes an evaluated datum storable in a column of type ft (the
// expression's class may differ from the column's layout, e.g. a string
// for a CHAR column is the same; a Float64 for a FLOAT column is not).
func fitType(d types.Datum, ft *types.FieldType) (types.Datum, error) {
	if d.IsNull() {
		return d, nil
	}
	switch ft.EvalType() {
	case types.ETInt:
		if d.Kind() == types.KindInt64 || d.Kind() == types.KindUint64 {
			return d, nil
		}
	case types.ETReal:
		if d.Kind() == types.KindFloat64 || d.Kind() == types.KindFloat32 {
			return d, nil
		}
	case types.ETDecimal:
		if d.Kind() == types.KindDecimal {
			return d, nil
		}
	case types.ETString:
		if d.Kind() == types.KindString || d.Kind() == types.KindBytes {
			return d, nil
		}
	default:
		return d, nil
	}
	cd, _ := types.ConvertDatum(d, ft)
	return cd, nil
}
