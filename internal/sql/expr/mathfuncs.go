package expr

import (
	"fmt"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// absFunc is ABS(x) in x's class; ABS(-9223372036854775808) is error 1690.
type absFunc struct{ cls types.EvalType }

func (f *absFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	switch f.cls {
	case types.ETInt:
		x := toInt(ctx, &d)
		if x.unsigned {
			return types.NewUintDatum(uint64(x.v)), nil
		}
		if x.v == math.MinInt64 {
			return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "BIGINT", fmt.Sprintf("abs(%s)", args[0]))
		}
		if x.v < 0 {
			x.v = -x.v
		}
		return types.NewIntDatum(x.v), nil
	case types.ETReal:
		return types.NewFloat64Datum(math.Abs(toFloat(ctx, &d))), nil
	}
	r := new(types.Decimal)
	r.Set(&toDecimal(ctx, &d).Decimal)
	r.Negative = false
	return types.NewDecimalDatum(r), nil
}

// ceilFloorFunc is CEIL and FLOOR: integers unchanged, doubles stay
// doubles, decimals become BIGINT (error 1690 beyond its range).
type ceilFloorFunc struct {
	ceil bool
	cls  types.EvalType
	ft   *types.FieldType
}

func (f *ceilFloorFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	switch f.cls {
	case types.ETInt:
		return convertTo(ctx, d, f.ft)
	case types.ETReal:
		if f.ceil {
			return types.NewFloat64Datum(math.Ceil(toFloat(ctx, &d))), nil
		}
		return types.NewFloat64Datum(math.Floor(toFloat(ctx, &d))), nil
	}
	dec := toDecimal(ctx, &d)
	r := new(types.Decimal)
	c := apd.BaseContext.WithPrecision(2 * types.MaxDecimalPrecision)
	if f.ceil {
		_, _ = c.Ceil(&r.Decimal, &dec.Decimal)
	} else {
		_, _ = c.Floor(&r.Decimal, &dec.Decimal)
	}
	if f.ft.IsUnsigned() {
		v, err := r.ToUint64()
		if err != nil {
			return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "BIGINT UNSIGNED", fmt.Sprintf("%s(%s)", f.name(), args[0]))
		}
		return types.NewUintDatum(v), nil
	}
	v, err := r.ToInt64()
	if err != nil {
		return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "BIGINT", fmt.Sprintf("%s(%s)", f.name(), args[0]))
	}
	return types.NewIntDatum(v), nil
}

func (f *ceilFloorFunc) name() string {
	if f.ceil {
		return "ceiling"
	}
	return "floor"
}

// roundFunc is ROUND(x[, d]): decimals and integers round half away from
// zero, doubles half to even (MySQL: ROUND(2.5) = 3, ROUND(25E-1) = 2); a
// negative d rounds to tens, hundreds, ...
type roundFunc struct {
	cls types.EvalType
	ft  *types.FieldType
}

func (f *roundFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	places := int64(0)
	if len(args) == 2 {
		p, err := args[1].Eval(ctx, row)
		if err != nil || p.IsNull() {
			return types.NewNullDatum(), err
		}
		places = toInt(ctx, &p).v
		places = max(min(places, 30), -65)
	}
	switch f.cls {
	case types.ETReal:
		v := toFloat(ctx, &d)
		s := math.Pow10(int(places))
		r := math.RoundToEven(v*s) / s
		if math.IsInf(r, 0) || math.IsNaN(r) {
			r = v
		}
		return types.NewFloat64Datum(r), nil
	case types.ETInt:
		if places >= 0 {
			return convertTo(ctx, d, f.ft)
		}
	}
	r := new(types.Decimal)
	if err := r.Round(toDecimal(ctx, &d), int(places)); err != nil {
		return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "DECIMAL", fmt.Sprintf("round(%s)", args[0]))
	}
	if f.cls == types.ETInt {
		return convertTo(ctx, types.NewDecimalDatum(r), f.ft)
	}
	if f.ft.Decimal >= 0 && int(places) != f.ft.Decimal && places >= 0 {
		_ = r.Round(r, f.ft.Decimal)
	}
	return types.NewDecimalDatum(r), nil
}

// outOfRange is error 1690 for a function call.
func outOfRange(typeName, fn string, args []Expression) error {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return sqlerr.New(sqlerr.ErrDataOutOfRange, typeName, fn+"("+strings.Join(parts, ",")+")")
}
