package expr

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// castFunc is CAST(x AS type) / CONVERT(x, type) with MySQL's rules:
// SIGNED/UNSIGNED wrap around rather than clamp (CAST(-1 AS UNSIGNED) is
// 18446744073709551615) and read strings by their integer prefix with a
// warning; DECIMAL(m,d) clamps with warning 1264; CHAR(n) cuts with a
// warning; DATE/DATETIME of a non-date is NULL with warning 1292.
type castFunc struct {
	ft *types.FieldType
	// limit is CHAR(n)/BINARY(n)'s n, -1 without a length.
	limit int
}

func (f *castFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	ft := f.ft
	if ft.Tp == mysql.TypeJSON {
		return castToJSON(&d, args[0])
	}
	switch ft.EvalType() {
	case types.ETInt:
		var iv intVal
		switch d.Kind() {
		case types.KindFloat32, types.KindFloat64:
			iv = castFloatToInt(ctx, d.GetFloat64(), ft.IsUnsigned())
		default:
			iv = toInt(ctx, &d)
		}
		if ft.IsUnsigned() {
			return types.NewUintDatum(uint64(iv.v)), nil
		}
		return types.NewIntDatum(iv.v), nil
	case types.ETReal:
		return types.NewFloat64Datum(toFloat(ctx, &d)), nil
	case types.ETDecimal:
		r, err := toDecimal(ctx, &d).ToFieldType(ft.Flen, ft.Decimal)
		if err != nil {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrWarnDataOutOfRange, fmt.Sprintf("cast(%s)", args[0]), 1))
		}
		return types.NewDecimalDatum(r), nil
	case types.ETDatetime:
		t, ok := toTime(&d, ft.Tp, ft.Fsp())
		if !ok {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", d.String()))
			return types.NewNullDatum(), nil
		}
		return types.NewTimeDatum(t), nil
	case types.ETDuration:
		return convertTo(ctx, d, ft)
	}
	b := toBytes(&d)
	if f.limit >= 0 {
		n := f.limit
		if ft.IsBinaryString() {
			if len(b) > n {
				ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, fmt.Sprintf("BINARY(%d)", n), string(b)))
				b = b[:n]
			} else if len(b) < n {
				// BINARY(n) pads with 0x00 to n bytes.
				b = append(append(make([]byte, 0, n), b...), make([]byte, n-len(b))...)
			}
		} else if utf8.RuneCount(b) > n {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, fmt.Sprintf("CHAR(%d)", n), string(b)))
			b = runeSlice(b, 0, n)
		}
	}
	return strResult(b, ft), nil
}

// castToJSON is CAST(x AS JSON): text parsed as JSON (3141 when it is
// not), booleans true/false, other values by their type.
func castToJSON(d *types.Datum, arg Expression) (types.Datum, error) {
	switch d.Kind() {
	case types.KindJSON:
		return *d, nil
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		j, err := types.ParseJSON(string(d.GetBytes()))
		if err != nil {
			return types.NewNullDatum(), jsonTextError(err, 0, "cast_as_json")
		}
		return types.NewJSONDatum(j), nil
	case types.KindInt64, types.KindUint64:
		if isBoolExpr(arg) {
			return types.NewJSONDatum(types.JSONBool(d.GetInt64() != 0)), nil
		}
	}
	return types.NewJSONDatum(d.ToJSON()), nil
}

func castFloatToInt(ctx EvalContext, f float64, unsigned bool) intVal {
	r := math.Round(f)
	if unsigned {
		switch {
		case r < 0:
			return intVal{v: int64(r), unsigned: true}
		case r >= 1<<64:
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "INTEGER", types.FormatFloat(f, 64, -1)))
			return intVal{v: -1, unsigned: true}
		}
		return intVal{v: int64(uint64(r)), unsigned: true}
	}
	switch {
	case r < -1<<63:
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "INTEGER", types.FormatFloat(f, 64, -1)))
		return intVal{v: math.MinInt64}
	case r >= 1<<63:
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "INTEGER", types.FormatFloat(f, 64, -1)))
		return intVal{v: math.MaxInt64}
	}
	return intVal{v: int64(r)}
}

// castType returns the type CAST produces for the parser's target type.
func castType(ft *types.FieldType) *types.FieldType {
	r := ft.Clone()
	switch r.EvalType() {
	case types.ETInt:
		r.Tp = mysql.TypeLonglong
		r.Flen = 20
	case types.ETString:
		if r.Tp == mysql.TypeJSON {
			return r
		}
		if r.Tp != mysql.TypeVarString {
			r.Tp = mysql.TypeVarString
		}
		if r.Charset == "" || r.Collate == "" {
			r.Charset, r.Collate = "utf8mb4", "utf8mb4_bin"
		}
	}
	return r
}
