package expr

import (
	"github.com/cockroachdb/apd/v3"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Numeric functions of the function table: TRUNCATE, EXP, LN, LOG,
// LOG2, LOG10, PI, RAND, the trigonometric ones, DEGREES, RADIANS,
// CRC32.

func init() {
	register("truncate", 2, 2, buildTruncate)
	for _, n := range []string{"exp", "ln", "log2", "log10", "sin", "cos", "tan", "cot", "asin", "acos",
		"degrees", "radians"} {
		register(n, 1, 1, fixed(doubleType, &doubleFunc{name: n}))
	}
	register("log", 1, 2, fixed(doubleType, &doubleFunc{name: "log"}))
	register("atan", 1, 2, fixed(doubleType, &doubleFunc{name: "atan"}))
	register("atan2", 2, 2, fixed(doubleType, &doubleFunc{name: "atan"}))
	register("pi", 0, 0, func(b *builder, c *call) (Expression, error) {
		ft := doubleType()
		ft.Flen, ft.Decimal = 8, 6
		return NewConstant(types.NewFloat64Datum(math.Pi), ft), nil
	})
	register("rand", 0, 1, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, doubleType(), &randFunc{}), nil
	})
	register("crc32", 1, 1, fixed(uintResult, strFnInt(func(v []byte) uint64 { return uint64(crc32.ChecksumIEEE(v)) })))
}

// strFnInt is an unsigned integer function of one string.
type strFnInt func([]byte) uint64

func (f strFnInt) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	return types.NewUintDatum(f(toBytes(&d))), nil
}

func buildTruncate(b *builder, c *call) (Expression, error) {
	args := c.args
	args[0] = numArg(args[0])
	cls := numClass(args[0].Type())
	ft := numResultType(cls, args[0].Type())
	if cls == types.ETDecimal {
		scale := constDecimals(args[1], ft.Decimal)
		ft = decimalType(ft.Flen-ft.Decimal+scale, scale)
	}
	return b.newFunc(c.name, args, ft, &truncateFunc{cls: cls, ft: ft}), nil
}

// truncateFunc is TRUNCATE(x, d): x cut (toward zero) to d decimals; a
// negative d zeroes digits left of the point.
type truncateFunc struct {
	cls types.EvalType
	ft  *types.FieldType
}

func (f *truncateFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var ds [2]types.Datum
	if null, err := evalArgs(ctx, row, args, ds[:]); err != nil || null {
		return types.NewNullDatum(), err
	}
	d := ds[0]
	pv := toInt(ctx, &ds[1])
	places := pv.v
	if pv.unsigned {
		places = 1 << 30
	}
	switch f.cls {
	case types.ETInt:
		switch {
		case places >= 0:
			return convertTo(ctx, d, f.ft)
		case places <= -20: // 10^20 is beyond 64 bits
			return convertTo(ctx, types.NewIntDatum(0), f.ft)
		}
		x := toInt(ctx, &d)
		p := uint64(pow10(int(-places)))
		if x.unsigned {
			return types.NewUintDatum(uint64(x.v) / p * p), nil
		}
		return types.NewIntDatum(x.v / int64(p) * int64(p)), nil
	case types.ETReal:
		v := toFloat(ctx, &d)
		if places >= 308 {
			return types.NewFloat64Datum(v), nil
		}
		if places <= -308 {
			return types.NewFloat64Datum(0), nil
		}
		s := math.Pow10(int(places))
		r := math.Trunc(v*s) / s
		if math.IsInf(v*s, 0) {
			r = v
		}
		return types.NewFloat64Datum(r), nil
	}
	dec := toDecimal(ctx, &d)
	places = max(min(places, types.MaxDecimalScale), -types.MaxDecimalPrecision)
	r := new(types.Decimal)
	c := apd.BaseContext.WithPrecision(2 * types.MaxDecimalPrecision)
	c.Rounding = apd.RoundDown
	if _, err := c.Quantize(&r.Decimal, &dec.Decimal, int32(-places)); err != nil {
		return types.NewNullDatum(), outOfRange("DECIMAL", "truncate", args)
	}
	if places < 0 {
		_, _ = c.Quantize(&r.Decimal, &r.Decimal, 0)
	}
	if r.IsZero() {
		r.Negative = false
	}
	return types.NewDecimalDatum(r), nil
}

// doubleFunc is a DOUBLE function of doubles. Logarithms of values <= 0
// are NULL with warning 3020; EXP and COT overflow is error 1690;
// ASIN/ACOS out of [-1, 1] are NULL.
type doubleFunc struct{ name string }

func (f *doubleFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v [2]float64
	if null, err := evalReals(ctx, row, args, v[:len(args)]); err != nil || null {
		return types.NewNullDatum(), err
	}
	x := v[0]
	var r float64
	switch f.name {
	case "exp":
		r = math.Exp(x)
	case "ln", "log", "log2", "log10":
		// LOG(b, x) is the logarithm of x in base b.
		arg, base := x, 0.0
		if len(args) == 2 {
			arg, base = v[1], x
		}
		if arg <= 0 || (len(args) == 2 && (base <= 0 || base == 1)) {
			ctx.AppendWarning(sqlerr.Newf(3020, "Invalid argument for logarithm"))
			return types.NewNullDatum(), nil
		}
		switch f.name {
		case "log2":
			r = math.Log2(arg)
		case "log10":
			r = math.Log10(arg)
		default:
			r = math.Log(arg)
		}
		if len(args) == 2 {
			r /= math.Log(base)
		}
	case "sin":
		r = math.Sin(x)
	case "cos":
		r = math.Cos(x)
	case "tan":
		r = math.Tan(x)
	case "cot":
		if x == 0 {
			return types.NewNullDatum(), outOfRange("DOUBLE", "cot", args)
		}
		r = 1 / math.Tan(x)
	case "asin", "acos":
		if x < -1 || x > 1 {
			return types.NewNullDatum(), nil
		}
		if f.name == "asin" {
			r = math.Asin(x)
		} else {
			r = math.Acos(x)
		}
	case "atan":
		if len(args) == 2 {
			r = math.Atan2(x, v[1])
		} else {
			r = math.Atan(x)
		}
	case "degrees":
		r = x * (180 / math.Pi)
	case "radians":
		r = x * (math.Pi / 180)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return types.NewNullDatum(), outOfRange("DOUBLE", f.name, args)
	}
	return types.NewFloat64Datum(r), nil
}

// mysqlRand is MySQL's my_rnd generator (so RAND(n) gives MySQL's
// sequence: RAND(3) starts 0.9057697559760601).
type mysqlRand struct{ seed1, seed2 uint64 }

const randMax = 0x3FFFFFFF

func newMySQLRand(seed int64) mysqlRand {
	tmp := uint32(seed)
	return mysqlRand{
		seed1: uint64(uint32(tmp*0x10001+55555555)) % randMax,
		seed2: uint64(uint32(tmp*0x10000001)) % randMax,
	}
}

func (r *mysqlRand) next() float64 {
	r.seed1 = (r.seed1*3 + r.seed2) % randMax
	r.seed2 = (r.seed1 + r.seed2 + 33) % randMax
	return float64(r.seed1) / float64(randMax)
}

// randFunc is RAND([seed]). With a constant seed the sequence runs over
// the rows of one statement (a new statement, told apart by its context
// and start time, starts it again); with a seed from each row, each row
// gets the first value of its seed; without a seed, Go's generator.
type randFunc struct {
	mu    sync.Mutex
	ctx   EvalContext
	start time.Time
	st    mysqlRand
}

func (*randFunc) volatile() bool { return true }

func (f *randFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if len(args) == 0 {
		return types.NewFloat64Datum(rand.Float64()), nil
	}
	k, isConst := args[0].(*Constant)
	if !isConst {
		seed, err := randSeed(ctx, row, args[0])
		if err != nil {
			return types.NewNullDatum(), err
		}
		r := newMySQLRand(seed)
		return types.NewFloat64Datum(r.next()), nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ctx != ctx || !f.start.Equal(ctx.Now()) {
		seed, err := randSeed(ctx, row, k)
		if err != nil {
			return types.NewNullDatum(), err
		}
		f.ctx, f.start, f.st = ctx, ctx.Now(), newMySQLRand(seed)
	}
	return types.NewFloat64Datum(f.st.next()), nil
}

// randSeed evaluates RAND's seed (NULL is 0).
func randSeed(ctx EvalContext, row chunk.Row, e Expression) (int64, error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return 0, err
	}
	return toInt(ctx, &d).v, nil
}
