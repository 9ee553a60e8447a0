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
		x := toInt(ctx, &d)
		if places >= 0 {
			return convertTo(ctx, d, f.ft)
		}
		if places < -20 {
			return convertTo(ctx, types.NewIntDatum(0), f.ft)
		}
		p := uint64(pow10(int(-places)))
		if -places >= 20 {
			return convertTo(ctx, types.NewIntDatum(0), f.ft)
		}
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
	invalidLog := func() (types.Datum, error) {
		ctx.AppendWarning(sqlerr.Newf(3020, "Invalid argument for logarithm"))
		return types.NewNullDatum(), nil
	}
	var r float64
	switch f.name {
	case "exp":
		r = math.Exp(x)
	case "ln":
		if x <= 0 {
			return invalidLog()
		}
		r = math.Log(x)
	case "log":
		if len(args) == 2 {
			if x <= 0 || x == 1 || v[1] <= 0 {
				return invalidLog()
			}
			r = math.Log(v[1]) / math.Log(x)
			break
		}
		if x <= 0 {
			return invalidLog()
		}
		r = math.Log(x)
	case "log2":
		if x <= 0 {
			return invalidLog()
		}
		r = math.Log2(x)
	case "log10":
		if x <= 0 {
			return invalidLog()
		}
		r = math.Log10(x)
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
	if k, ok := args[0].(*Constant); !ok {
		d, err := args[0].Eval(ctx, row)
		if err != nil {
			return d, err
		}
		var seed int64
		if !d.IsNull() {
			seed = toInt(ctx, &d).v
		}
		r := newMySQLRand(seed)
		return types.NewFloat64Datum(r.next()), nil
	} else {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.ctx != ctx || !f.start.Equal(ctx.Now()) {
			d, err := k.Eval(ctx, row)
			if err != nil {
				return d, err
			}
			var seed int64
			if !d.IsNull() {
				seed = toInt(ctx, &d).v
			}
			f.ctx, f.start, f.st = ctx, ctx.Now(), newMySQLRand(seed)
		}
		return types.NewFloat64Datum(f.st.next()), nil
	}
}
