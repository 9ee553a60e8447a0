package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// unitFuncArity are the argument counts, unit included, of the functions
// unitFuncCall builds.
var unitFuncArity = map[string]arity{"date_add": {2, 3}, "date_sub": {2, 3}, "extract": {2, 2},
	"timestampdiff": {3, 3}, "timestampadd": {3, 3}}

// unitFuncCall builds the functions whose time unit the parser passes as
// an argument node: DATE_ADD/DATE_SUB (and ADDDATE, SUBDATE, + INTERVAL)
// as (date, value, unit), EXTRACT as (unit, date), TIMESTAMPDIFF as
// (unit, a, b) and TIMESTAMPADD as (unit, n, date).
func (b *builder) unitFuncCall(n *ast.FuncCallExpr, name string, want arity) (Expression, error) {
	nodes := n.Args
	if len(nodes) < want.min || len(nodes) > want.max {
		return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, n.FnName.O)
	}
	unit := ast.TimeUnitDay // ADDDATE(d, n) adds days
	at := -1
	switch name {
	case "date_add", "date_sub":
		if len(nodes) == 3 {
			at = 2
		}
	default:
		at = 0
	}
	if at >= 0 {
		u, ok := nodes[at].(*ast.TimeUnitExpr)
		if !ok {
			return nil, sqlerr.New(mysql.ErrWrongArguments, n.FnName.O)
		}
		unit = u.Unit
		nodes = append(append([]ast.ExprNode{}, nodes[:at]...), nodes[at+1:]...)
	}
	args, err := b.buildArgs(nodes)
	if err != nil {
		return nil, err
	}
	switch name {
	case "extract":
		return b.newFunc(name, args, intType(false), &extractFunc{unit: unit}), nil
	case "timestampdiff":
		return b.newFunc(name, args, intType(false), &timestampDiffFunc{unit: unit}), nil
	case "timestampadd":
		args[0], args[1] = args[1], args[0]
		name = "date_add"
	}
	if _, ok := unitFields[unit]; !ok {
		return nil, notSupported("INTERVAL unit " + unit.String())
	}
	ft := dateAddType(args[0], args[1], unit)
	return b.newFunc(name, args, ft, &dateAddFunc{sub: name == "date_sub", unit: unit, ft: ft}), nil
}

// dateAddType is MySQL's result type of DATE_ADD: DATE for a DATE and a
// unit of days or more, TIME for a TIME and a unit of days or less,
// DATETIME for other temporal arguments (fsp from the argument, 6 for
// microsecond units, the fraction digits of INTERVAL x SECOND), and a
// string for anything else.
func dateAddType(arg, iv Expression, unit ast.TimeUnitType) *types.FieldType {
	at := arg.Type()
	fsp := 0
	if at.EvalType() == types.ETDatetime || at.EvalType() == types.ETDuration {
		fsp = max(at.Decimal, 0)
	}
	if unitHasMicro(unit) {
		fsp = types.MaxFsp
	} else if unit == ast.TimeUnitSecond {
		switch it := iv.Type(); it.EvalType() {
		case types.ETDecimal:
			fsp = max(fsp, min(max(it.Decimal, 0), types.MaxFsp))
		case types.ETReal, types.ETString:
			fsp = types.MaxFsp
		}
	}
	switch at.EvalType() {
	case types.ETDatetime:
		if at.Tp == mysql.TypeDate && !unitHasTime(unit) {
			return types.NewFieldType(mysql.TypeDate)
		}
		ft := types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = fsp
		return ft
	case types.ETDuration:
		ft := types.NewFieldType(mysql.TypeDuration)
		ft.Decimal = fsp
		return ft
	}
	return stringType("utf8mb4_bin", false, 29)
}

// dateAddFunc is DATE_ADD/DATE_SUB/ADDDATE/SUBDATE/TIMESTAMPADD and
// "+ INTERVAL": month arithmetic clamps the day to the month's end
// ('2020-01-31' + INTERVAL 1 MONTH = '2020-02-29'); results outside years
// 0..9999 are NULL with warning 1441.
type dateAddFunc struct {
	sub  bool
	unit ast.TimeUnitType
	ft   *types.FieldType
}

func (f *dateAddFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	nd, err := args[1].Eval(ctx, row)
	if err != nil || nd.IsNull() {
		return types.NewNullDatum(), err
	}
	iv, ok := parseInterval(ctx, &nd, f.unit)
	if !ok {
		return types.NewNullDatum(), nil
	}
	if f.sub {
		iv.neg = !iv.neg
	}
	if f.ft.EvalType() == types.ETDuration {
		d, err := args[0].Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		du, ok := toDuration(ctx, &d)
		if !ok || iv.years != 0 || iv.months != 0 {
			return types.NewNullDatum(), nil
		}
		r := types.Duration{D: du.D + durationOfMicros(iv.micros64()), Fsp: int8(f.ft.Decimal)}
		r, err2 := r.CheckRange()
		if err2 != nil {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "time", r.String()))
		}
		return types.NewDurationDatum(r), nil
	}
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	if t.Month == 0 || t.Day == 0 {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", t.String()))
		return types.NewNullDatum(), nil
	}
	r, ok := addInterval(ctx, t, iv, f.unit)
	if !ok {
		return types.NewNullDatum(), nil
	}
	if f.ft.EvalType() == types.ETString {
		// A string argument gives a string: a date when it was a date and
		// the unit is a day or larger, else a datetime with microseconds
		// only when there are some.
		r.Type, r.Fsp = mysql.TypeDatetime, 0
		if r.Microsecond != 0 {
			r.Fsp = types.MaxFsp
		}
		if !hasTimePart(args[0], ctx, row) && !unitHasTime(f.unit) {
			r.Type = mysql.TypeDate
		}
		return strResult([]byte(r.String()), f.ft), nil
	}
	if f.ft.Tp == mysql.TypeDate {
		return types.NewTimeDatum(r.Date()), nil
	}
	r.Type, r.Fsp = f.ft.Tp, int8(max(f.ft.Decimal, 0))
	return types.NewTimeDatum(r), nil
}

// extractFunc is EXTRACT(unit FROM t): time units read t as a TIME
// (EXTRACT(HOUR FROM '100:00:00') = 100), date units as a date; compound
// units concatenate their fields' digits (DAY_MINUTE of 2019-07-02 01:02
// is 20102).
type extractFunc struct{ unit ast.TimeUnitType }

func (f *extractFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	span, known := unitFields[f.unit]
	if !known {
		return types.NewNullDatum(), nil
	}
	var fields [fieldMicro + 1]int64
	sign := int64(1)
	if !unitHasTime(f.unit) {
		t, ok, err := evalTimeArg(ctx, row, args[0])
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		fields[fieldYear], fields[fieldMonth], fields[fieldDay] = int64(t.Year), int64(t.Month), int64(t.Day)
	} else {
		c, ok, err := evalClock(ctx, row, args[0])
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		fields[fieldDay], fields[fieldHour], fields[fieldMinute], fields[fieldSecond], fields[fieldMicro] =
			c.day, c.hour, c.min, c.sec, c.micro
		if c.neg {
			sign = -1
		}
	}
	switch f.unit {
	case ast.TimeUnitQuarter:
		return types.NewIntDatum((fields[fieldMonth] + 2) / 3), nil
	case ast.TimeUnitWeek:
		w, _ := calcWeek(int(fields[fieldYear]), int(fields[fieldMonth]), int(fields[fieldDay]), weekModeOf(0))
		return types.NewIntDatum(int64(w)), nil
	}
	// The unit's fields' digits side by side: two each, six for
	// microseconds.
	var v int64
	for i := span[0]; i <= span[1]; i++ {
		if i == fieldMicro {
			v = v*1000000 + fields[i]
		} else {
			v = v*100 + fields[i]
		}
	}
	return types.NewIntDatum(sign * v), nil
}

// timestampDiffFunc is TIMESTAMPDIFF(unit, a, b): b - a in whole units;
// months, quarters and years count complete months as MySQL does (a month
// is complete when b's day and time reach a's).
type timestampDiffFunc struct{ unit ast.TimeUnitType }

func (f *timestampDiffFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	b, ok, err := evalTimeArg(ctx, row, args[1])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	if a.Month == 0 || a.Day == 0 || b.Month == 0 || b.Day == 0 {
		return types.NewNullDatum(), nil
	}
	diff := timeMicros(b) - timeMicros(a)
	switch f.unit {
	case ast.TimeUnitMicrosecond:
		return types.NewIntDatum(diff), nil
	case ast.TimeUnitSecond:
		return types.NewIntDatum(diff / 1000000), nil
	case ast.TimeUnitMinute:
		return types.NewIntDatum(diff / 60000000), nil
	case ast.TimeUnitHour:
		return types.NewIntDatum(diff / 3600000000), nil
	case ast.TimeUnitDay:
		return types.NewIntDatum(diff / 86400000000), nil
	case ast.TimeUnitWeek:
		return types.NewIntDatum(diff / (7 * 86400000000)), nil
	case ast.TimeUnitMonth, ast.TimeUnitQuarter, ast.TimeUnitYear:
	default:
		return types.NewNullDatum(), sqlerr.New(mysql.ErrWrongArguments, "timestampdiff")
	}
	sign := int64(1)
	beg, end := a, b
	if diff < 0 {
		sign, beg, end = -1, b, a
	}
	secBeg := int64(beg.Hour)*3600 + int64(beg.Minute)*60 + int64(beg.Second)
	secEnd := int64(end.Hour)*3600 + int64(end.Minute)*60 + int64(end.Second)
	years := int64(end.Year) - int64(beg.Year)
	before := end.Month < beg.Month || (end.Month == beg.Month && end.Day < beg.Day)
	if before {
		years--
	}
	months := 12 * years
	if before {
		months += 12 - (int64(beg.Month) - int64(end.Month))
	} else {
		months += int64(end.Month) - int64(beg.Month)
	}
	if end.Day < beg.Day {
		months--
	} else if end.Day == beg.Day && (secEnd < secBeg || (secEnd == secBeg && end.Microsecond < beg.Microsecond)) {
		months--
	}
	switch f.unit {
	case ast.TimeUnitQuarter:
		months /= 3
	case ast.TimeUnitYear:
		months /= 12
	}
	return types.NewIntDatum(sign * months), nil
}
