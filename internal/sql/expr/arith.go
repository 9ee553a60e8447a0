package expr

import (
	"fmt"
	"math"
	"math/big"

	"github.com/cockroachdb/apd/v3"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// arithFunc is + - * / DIV % over two arguments in one class (ETInt,
// ETReal or ETDecimal), with MySQL's result types: integers stay integers
// (unsigned if either side is, BIGINT overflow is error 1690), any double
// or string makes a double, otherwise decimal; "/" is never integer.
type arithFunc struct {
	op       string // FnPlus, FnMinus, FnMul, FnDiv, FnIntDiv, FnMod
	code     opCode
	cls      types.EvalType
	unsigned bool // integer result is unsigned
	ft       *types.FieldType
}

var opSymbols = map[string]string{
	FnPlus: "+", FnMinus: "-", FnMul: "*", FnDiv: "/", FnIntDiv: "DIV", FnMod: "%",
}

// newArith decides the class and type of a op b.
func newArith(ctx BuildContext, op string, a, b Expression) *arithFunc {
	ca, cb := numClass(a.Type()), numClass(b.Type())
	f := &arithFunc{op: op, code: opCodes[op]}
	switch {
	case ca == types.ETReal || cb == types.ETReal:
		f.cls = types.ETReal
	case ca == types.ETDecimal || cb == types.ETDecimal:
		f.cls = types.ETDecimal
	default:
		f.cls = types.ETInt
	}
	if op == FnDiv && f.cls == types.ETInt {
		f.cls = types.ETDecimal
	}
	ua, ub := a.Type().IsUnsigned(), b.Type().IsUnsigned()
	switch op {
	case FnMod:
		f.unsigned = ua
	case FnMinus:
		f.unsigned = (ua || ub) && ctx.SQLMode()&modeNoUnsignedSubtraction == 0
	default:
		f.unsigned = ua || ub
	}
	sa, sb := decScale(a.Type()), decScale(b.Type())
	ia, ib := decIntDigits(a.Type()), decIntDigits(b.Type())
	switch {
	case op == FnIntDiv:
		f.ft = intType(f.unsigned)
	case f.cls == types.ETInt:
		f.ft = intType(f.unsigned)
	case f.cls == types.ETReal:
		f.ft = doubleType()
	case op == FnMul:
		f.ft = decimalType(ia+ib+sa+sb, sa+sb)
	case op == FnDiv:
		s := min(sa+types.DivPrecisionIncrement, types.MaxDecimalScale)
		f.ft = decimalType(ia+sb+s, s)
	default:
		s := max(sa, sb)
		f.ft = decimalType(max(ia, ib)+1+s, s)
	}
	return f
}

func (f *arithFunc) outOfRange(args []Expression) error {
	name := "BIGINT"
	switch {
	case f.cls == types.ETReal && f.op != FnIntDiv:
		name = "DOUBLE"
	case f.cls == types.ETDecimal && f.op != FnIntDiv:
		name = "DECIMAL"
	case f.unsigned:
		name = "BIGINT UNSIGNED"
	}
	return sqlerr.New(sqlerr.ErrDataOutOfRange, name,
		fmt.Sprintf("(%s %s %s)", args[0], opSymbols[f.op], args[1]))
}

func divByZero(ctx EvalContext) (types.Datum, error) {
	ctx.AppendWarning(sqlerr.New(sqlerr.ErrDivisionByZero))
	return types.NewNullDatum(), nil
}

func (f *arithFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if f.cls == types.ETInt && !f.unsigned {
		if x, xn, ok := fastInt(ctx, args[0], row); ok {
			if y, yn, ok := fastInt(ctx, args[1], row); ok {
				if xn || yn {
					return types.NewNullDatum(), nil
				}
				return f.evalInt(ctx, intVal{v: x}, intVal{v: y}, args)
			}
		}
	}
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	b, err := args[1].Eval(ctx, row)
	if err != nil || b.IsNull() {
		return types.NewNullDatum(), err
	}
	switch f.cls {
	case types.ETInt:
		return f.evalInt(ctx, toInt(ctx, &a), toInt(ctx, &b), args)
	case types.ETReal:
		return f.evalReal(ctx, toFloat(ctx, &a), toFloat(ctx, &b), args)
	}
	return f.evalDecimal(ctx, toDecimal(ctx, &a), toDecimal(ctx, &b), args)
}

func (f *arithFunc) intResult(r *big.Int, args []Expression) (types.Datum, error) {
	if f.unsigned {
		if r.Sign() < 0 || !r.IsUint64() {
			return types.NewNullDatum(), f.outOfRange(args)
		}
		return types.NewUintDatum(r.Uint64()), nil
	}
	if !r.IsInt64() {
		return types.NewNullDatum(), f.outOfRange(args)
	}
	return types.NewIntDatum(r.Int64()), nil
}

func bigOf(x intVal) *big.Int {
	if x.unsigned {
		return new(big.Int).SetUint64(uint64(x.v))
	}
	return big.NewInt(x.v)
}

func (f *arithFunc) evalInt(ctx EvalContext, x, y intVal, args []Expression) (types.Datum, error) {
	if !x.unsigned && !y.unsigned && !f.unsigned {
		// Fast path: signed BIGINT with overflow checks.
		a, b := x.v, y.v
		switch f.code {
		case opPlus:
			r := a + b
			if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewIntDatum(r), nil
		case opMinus:
			r := a - b
			if (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0) {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewIntDatum(r), nil
		case opMul:
			if a == 0 || b == 0 {
				return types.NewIntDatum(0), nil
			}
			r := a * b
			if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewIntDatum(r), nil
		case opIntDiv:
			if b == 0 {
				return divByZero(ctx)
			}
			if a == math.MinInt64 && b == -1 {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewIntDatum(a / b), nil
		case opMod:
			if b == 0 {
				return divByZero(ctx)
			}
			if b == -1 {
				return types.NewIntDatum(0), nil
			}
			return types.NewIntDatum(a % b), nil
		}
	}
	bx, by := bigOf(x), bigOf(y)
	r := new(big.Int)
	switch f.op {
	case FnPlus:
		r.Add(bx, by)
	case FnMinus:
		r.Sub(bx, by)
	case FnMul:
		r.Mul(bx, by)
	case FnIntDiv:
		if by.Sign() == 0 {
			return divByZero(ctx)
		}
		r.Quo(bx, by)
	case FnMod:
		if by.Sign() == 0 {
			return divByZero(ctx)
		}
		r.Rem(bx, by) // sign of the dividend, as MySQL
		if f.unsigned && r.Sign() < 0 {
			return types.NewNullDatum(), f.outOfRange(args)
		}
	}
	return f.intResult(r, args)
}

func (f *arithFunc) evalReal(ctx EvalContext, a, b float64, args []Expression) (types.Datum, error) {
	var r float64
	switch f.op {
	case FnPlus:
		r = a + b
	case FnMinus:
		r = a - b
	case FnMul:
		r = a * b
	case FnDiv:
		if b == 0 {
			return divByZero(ctx)
		}
		r = a / b
	case FnMod:
		if b == 0 {
			return divByZero(ctx)
		}
		r = math.Mod(a, b)
	case FnIntDiv:
		if b == 0 {
			return divByZero(ctx)
		}
		q := math.Trunc(a / b)
		if f.unsigned {
			if q < 0 || q >= 1<<64 {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewUintDatum(uint64(q)), nil
		}
		if q < -1<<63 || q >= 1<<63 {
			return types.NewNullDatum(), f.outOfRange(args)
		}
		return types.NewIntDatum(int64(q)), nil
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return types.NewNullDatum(), f.outOfRange(args)
	}
	return types.NewFloat64Datum(r), nil
}

var decRemCtx = apd.BaseContext.WithPrecision(2 * types.MaxDecimalPrecision)

func (f *arithFunc) evalDecimal(ctx EvalContext, a, b *types.Decimal, args []Expression) (types.Datum, error) {
	var r *types.Decimal
	var err error
	switch f.op {
	case FnPlus:
		r, err = a.Add(b)
	case FnMinus:
		r, err = a.Sub(b)
	case FnMul:
		r, err = a.Mul(b)
	case FnDiv:
		if b.IsZero() {
			return divByZero(ctx)
		}
		r, err = a.Div(b)
	case FnMod:
		if b.IsZero() {
			return divByZero(ctx)
		}
		r = new(types.Decimal)
		if _, e := decRemCtx.Rem(&r.Decimal, &a.Decimal, &b.Decimal); e != nil {
			err = e
		}
	case FnIntDiv:
		if b.IsZero() {
			return divByZero(ctx)
		}
		q := new(types.Decimal)
		if _, e := decRemCtx.QuoInteger(&q.Decimal, &a.Decimal, &b.Decimal); e != nil {
			return types.NewNullDatum(), f.outOfRange(args)
		}
		if f.unsigned {
			v, e := q.ToUint64()
			if e != nil {
				return types.NewNullDatum(), f.outOfRange(args)
			}
			return types.NewUintDatum(v), nil
		}
		v, e := q.ToInt64()
		if e != nil {
			return types.NewNullDatum(), f.outOfRange(args)
		}
		return types.NewIntDatum(v), nil
	}
	if err != nil {
		return types.NewNullDatum(), f.outOfRange(args)
	}
	if r.IsZero() {
		r.Negative = false
	}
	return types.NewDecimalDatum(r), nil
}

// unaryMinus is -x: integers stay BIGINT (-(-9223372036854775808) is error
// 1690; an unsigned argument gives a signed result), decimals and doubles
// negate.
type unaryMinus struct{ cls types.EvalType }

func (f *unaryMinus) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	switch f.cls {
	case types.ETInt:
		x := toInt(ctx, &a)
		switch {
		case x.unsigned && uint64(x.v) > 1<<63:
			return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "BIGINT", fmt.Sprintf("-(%s)", args[0]))
		case x.unsigned && uint64(x.v) == 1<<63:
			return types.NewIntDatum(math.MinInt64), nil
		case !x.unsigned && x.v == math.MinInt64:
			return types.NewNullDatum(), sqlerr.New(sqlerr.ErrDataOutOfRange, "BIGINT", fmt.Sprintf("-(%s)", args[0]))
		}
		return types.NewIntDatum(-x.v), nil
	case types.ETReal:
		return types.NewFloat64Datum(-toFloat(ctx, &a)), nil
	}
	d := toDecimal(ctx, &a)
	r := new(types.Decimal)
	r.Set(&d.Decimal)
	r.Negative = !r.Negative
	if r.IsZero() {
		r.Negative = false
	}
	return types.NewDecimalDatum(r), nil
}
