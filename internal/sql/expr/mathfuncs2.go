package expr

import (
	"math"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// greatestFunc is GREATEST and LEAST: NULL if any argument is NULL;
// arguments compare in the class of the merged type and the result is
// converted to it.
type greatestFunc struct {
	least bool
	c     comparator
	ft    *types.FieldType
}

func (f *greatestFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var best types.Datum
	for i, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		if d, err = convertTo(ctx, d, f.ft); err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		if i == 0 {
			best = d
			continue
		}
		r := f.c.compare(ctx, &d, &best)
		if (f.least && r < 0) || (!f.least && r > 0) {
			best = d
		}
	}
	return best, nil
}

// comparatorForType compares two values of one merged type.
func comparatorForType(ft *types.FieldType) comparator {
	c := &Constant{Ft: ft, ParamIndex: -1}
	return newComparator(c, c)
}

// realFunc is a function of doubles: SIGN, POW, SQRT. Out-of-domain
// results (SQRT(-1)) are NULL; POW overflow is error 1690.
type realFunc struct{ name string }

func (f *realFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v [2]float64
	if null, err := evalReals(ctx, row, args, v[:len(args)]); err != nil || null {
		return types.NewNullDatum(), err
	}
	switch f.name {
	case "sign":
		switch {
		case v[0] > 0:
			return types.NewIntDatum(1), nil
		case v[0] < 0:
			return types.NewIntDatum(-1), nil
		}
		return types.NewIntDatum(0), nil
	case "sqrt":
		if v[0] < 0 {
			return types.NewNullDatum(), nil
		}
		return types.NewFloat64Datum(math.Sqrt(v[0])), nil
	}
	r := math.Pow(v[0], v[1])
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return types.NewNullDatum(), outOfRange("DOUBLE", "pow", args)
	}
	return types.NewFloat64Datum(r), nil
}
