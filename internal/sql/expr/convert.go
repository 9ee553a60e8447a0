package expr

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Conversions between evaluation classes inside expressions. Unlike INSERT
// (types.ConvertDatum), an expression never fails on a bad value: '1abc'
// is 1 and 'abc' is 0 with a warning 1292, as MySQL's SELECT does.

// warnTruncated records MySQL's "Truncated incorrect <what> value: '<s>'".
func warnTruncated(ctx EvalContext, what string, s string) {
	ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, what, s))
}

// isConvWarning reports the conversion errors that are warnings in
// expression context.
func isConvWarning(err error) bool {
	return errors.Is(err, types.ErrTruncated) || errors.Is(err, types.ErrIncorrectValue)
}

// toFloat converts any datum to a double (strings by their numeric prefix,
// with a warning when that loses text).
func toFloat(ctx EvalContext, d *types.Datum) float64 {
	switch d.Kind() {
	case types.KindInt64:
		return float64(d.GetInt64())
	case types.KindUint64:
		return float64(d.GetUint64())
	case types.KindFloat32, types.KindFloat64:
		return d.GetFloat64()
	case types.KindDecimal:
		return d.GetDecimal().ToFloat64()
	case types.KindString, types.KindBytes:
		f, err := types.StrToFloat(string(d.GetBytes()))
		if err != nil && ctx != nil {
			warnTruncated(ctx, "DOUBLE", string(d.GetBytes()))
		}
		return f
	case types.KindTime:
		return d.GetTime().ToNumber()
	case types.KindDuration:
		return d.GetDuration().ToNumber()
	case types.KindEnum, types.KindSet:
		return float64(d.GetEnumValue())
	case types.KindJSON:
		return jsonToFloat(ctx, d)
	}
	return 0
}

// toDecimal converts any datum to a decimal.
func toDecimal(ctx EvalContext, d *types.Datum) *types.Decimal {
	switch d.Kind() {
	case types.KindInt64:
		return types.NewDecFromInt(d.GetInt64())
	case types.KindUint64:
		return types.NewDecFromUint(d.GetUint64())
	case types.KindDecimal:
		return d.GetDecimal()
	case types.KindString, types.KindBytes:
		v, err := types.ParseDecimal(string(d.GetBytes()))
		if err != nil && ctx != nil {
			warnTruncated(ctx, "DECIMAL", string(d.GetBytes()))
		}
		return v
	case types.KindTime:
		t := d.GetTime()
		v, _ := types.ParseDecimal(strconv.FormatFloat(t.ToNumber(), 'f', int(t.Fsp), 64))
		return v
	case types.KindDuration:
		du := d.GetDuration()
		v, _ := types.ParseDecimal(strconv.FormatFloat(du.ToNumber(), 'f', int(du.Fsp), 64))
		return v
	case types.KindEnum, types.KindSet:
		return types.NewDecFromUint(d.GetEnumValue())
	case types.KindJSON:
		if j, err := d.GetJSON(); err == nil && j.Type == types.JSONDecimal {
			return j.Dec
		}
	}
	v, _ := types.NewDecFromFloat(toFloat(ctx, d))
	return v
}

// intVal is an integer with its signedness: the evaluation form of ETInt.
type intVal struct {
	v        int64
	unsigned bool
}

// toInt converts any datum to an integer (rounding fractions half away
// from zero, strings by their integer prefix with a warning, clamping
// out-of-range values with a warning).
func toInt(ctx EvalContext, d *types.Datum) intVal {
	switch d.Kind() {
	case types.KindInt64:
		return intVal{v: d.GetInt64()}
	case types.KindUint64:
		return intVal{v: d.GetInt64(), unsigned: true}
	case types.KindString, types.KindBytes:
		v, u := strToIntPrefix(ctx, string(d.GetBytes()))
		return intVal{v: v, unsigned: u}
	case types.KindEnum, types.KindSet:
		return intVal{v: int64(d.GetEnumValue()), unsigned: true}
	case types.KindJSON:
		if j, err := d.GetJSON(); err == nil {
			switch j.Type {
			case types.JSONInt:
				return intVal{v: j.Int}
			case types.JSONUint:
				return intVal{v: j.Int, unsigned: true}
			case types.JSONBoolean:
				return intVal{v: int64(b2i(j.Bool))}
			}
		}
	case types.KindDecimal:
		dec := d.GetDecimal()
		if dec.Negative {
			v, _ := dec.ToInt64()
			return intVal{v: v}
		}
		v, _ := dec.ToUint64()
		return intVal{v: int64(v), unsigned: v > math.MaxInt64}
	}
	f := toFloat(ctx, d)
	r := math.Round(f)
	switch {
	case r >= 1<<63 && r < 1<<64:
		return intVal{v: int64(uint64(r)), unsigned: true}
	case r >= 1<<64:
		return intVal{v: -1, unsigned: true}
	case r < -1<<63:
		return intVal{v: math.MinInt64}
	}
	return intVal{v: int64(r)}
}

// strToIntPrefix reads the integer prefix of s as CAST(s AS SIGNED) does:
// '12abc' → 12 and '1.5' → 1 with a warning, big values clamped.
func strToIntPrefix(ctx EvalContext, s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\r")
	i := 0
	neg := false
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		neg = t[i] == '-'
		i++
	}
	start := i
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	digits := t[start:i]
	if strings.TrimRight(t[i:], " \t\n\r") != "" || digits == "" {
		if ctx != nil {
			warnTruncated(ctx, "INTEGER", s)
		}
	}
	if digits == "" {
		return 0, false
	}
	u, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		u = math.MaxUint64
	}
	if neg {
		if u > 1<<63 {
			return math.MinInt64, false
		}
		return -int64(u), false
	}
	return int64(u), u > math.MaxInt64
}

// toBytes renders any datum as text.
func toBytes(d *types.Datum) []byte {
	switch d.Kind() {
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		return d.GetBytes()
	case types.KindJSON:
		j, err := d.GetJSON()
		if err != nil {
			return nil
		}
		return j.AppendText(nil)
	case types.KindFloat32:
		return types.AppendFloat(nil, d.GetFloat64(), 32, -1)
	case types.KindFloat64:
		return types.AppendFloat(nil, d.GetFloat64(), 64, -1)
	case types.KindNull:
		return nil
	}
	return []byte(d.String())
}

// toTime converts a datum to a DATE/DATETIME of type tp (ok false for a
// value that is not a date; the caller decides between NULL and a
// warning).
func toTime(d *types.Datum, tp byte, fsp int8) (types.Time, bool) {
	if d.Kind() == types.KindTime {
		t := d.GetTime()
		if tp == mysql.TypeDate {
			t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
		}
		t = t.RoundFsp(fsp)
		t.Type = tp
		return t, true
	}
	dd, err := types.ConvertDatum(*d, &types.FieldType{Tp: tp, Decimal: int(fsp)})
	if err != nil || dd.IsNull() {
		return types.Time{}, false
	}
	return dd.GetTime(), true
}

// kindFits reports whether a datum of kind k is a value of ft's class.
func kindFits(k types.Kind, ft *types.FieldType) bool {
	switch ft.Tp {
	case mysql.TypeJSON:
		return k == types.KindJSON
	case mysql.TypeEnum:
		return k == types.KindEnum
	case mysql.TypeSet:
		return k == types.KindSet
	}
	switch ft.EvalType() {
	case types.ETInt:
		if ft.IsUnsigned() {
			return k == types.KindUint64
		}
		return k == types.KindInt64
	case types.ETReal:
		return k == types.KindFloat64 || k == types.KindFloat32
	case types.ETDecimal:
		return k == types.KindDecimal
	case types.ETDatetime:
		return k == types.KindTime
	case types.ETDuration:
		return k == types.KindDuration
	}
	if ft.Tp == mysql.TypeNull {
		return k == types.KindNull
	}
	if ft.IsBinaryString() {
		return k == types.KindBytes
	}
	return k == types.KindString
}

// convertTo returns d as a value of ft's class with expression semantics
// (no errors for bad text: warnings and best-effort values; dates that are
// not dates are NULL with a warning).
func convertTo(ctx EvalContext, d types.Datum, ft *types.FieldType) (types.Datum, error) {
	if d.IsNull() || kindFits(d.Kind(), ft) {
		return d, nil
	}
	switch ft.EvalType() {
	case types.ETInt:
		iv := toInt(ctx, &d)
		if ft.IsUnsigned() {
			return types.NewUintDatum(uint64(iv.v)), nil
		}
		return types.NewIntDatum(iv.v), nil
	case types.ETReal:
		return types.NewFloat64Datum(toFloat(ctx, &d)), nil
	case types.ETDecimal:
		dec := toDecimal(ctx, &d)
		if ft.Decimal >= 0 && dec.Scale() != ft.Decimal {
			r := new(types.Decimal)
			_ = r.Round(dec, ft.Decimal)
			dec = r
		}
		return types.NewDecimalDatum(dec), nil
	case types.ETDatetime:
		t, ok := toTime(&d, ft.Tp, ft.Fsp())
		if !ok {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", d.String()))
			return types.NewNullDatum(), nil
		}
		return types.NewTimeDatum(t), nil
	case types.ETDuration:
		dd, err := types.ConvertDatum(d, ft)
		if err != nil {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "time", d.String()))
			return types.NewNullDatum(), nil
		}
		return dd, nil
	}
	switch ft.Tp {
	case mysql.TypeNull:
		return types.NewNullDatum(), nil
	case mysql.TypeJSON:
		return types.NewJSONDatum(d.ToJSON()), nil
	case mysql.TypeEnum, mysql.TypeSet:
		if dd, err := types.ConvertDatum(d, ft); err == nil {
			return dd, nil
		}
	}
	b := toBytes(&d)
	if ft.IsBinaryString() {
		return types.NewBytesDatum(b), nil
	}
	return types.NewStringDatumBytes(b), nil
}

// toBool evaluates a datum as a condition: 1, 0, or NULL (null true).
func toBool(ctx EvalContext, d *types.Datum) (v, null bool) {
	switch d.Kind() {
	case types.KindNull:
		return false, true
	case types.KindInt64, types.KindUint64:
		return d.GetInt64() != 0, false
	case types.KindDecimal:
		return !d.GetDecimal().IsZero(), false
	case types.KindTime:
		return !d.GetTime().IsZero(), false
	case types.KindDuration:
		return d.GetDuration().D != 0, false
	case types.KindEnum, types.KindSet:
		return d.GetEnumValue() != 0, false
	}
	return toFloat(ctx, d) != 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// jsonToFloat is a JSON value in numeric context: numbers by value,
// booleans as 0/1, strings by their numeric prefix (warning 1292),
// anything else 0 with a warning.
func jsonToFloat(ctx EvalContext, d *types.Datum) float64 {
	j, err := d.GetJSON()
	if err != nil {
		return 0
	}
	switch j.Type {
	case types.JSONInt, types.JSONUint, types.JSONDouble, types.JSONDecimal, types.JSONBoolean:
		return j.ToFloat()
	case types.JSONString:
		f, err := types.StrToFloat(j.Str)
		if err != nil && ctx != nil {
			warnTruncated(ctx, "DOUBLE", j.Str)
		}
		return f
	}
	if ctx != nil {
		warnTruncated(ctx, "DOUBLE", j.String())
	}
	return 0
}

// boolDatum returns 1 or 0.
func boolDatum(b bool) types.Datum {
	if b {
		return types.NewIntDatum(1)
	}
	return types.NewIntDatum(0)
}
