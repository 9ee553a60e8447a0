package expr

import (
	"bytes"
	"fmt"
	"strconv"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Date and time functions. Arguments are read as DATETIME (strings parsed,
// numbers as YYYYMMDD[hhmmss]); a value that is not a date, or a zero
// date where the function needs a real one, gives NULL with warning 1292.

// evalTimeArg evaluates args[i] as a DATETIME; ok false means NULL.
func evalTimeArg(ctx EvalContext, row chunk.Row, e Expression) (types.Time, bool, error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.Time{}, false, err
	}
	tp := byte(mysql.TypeDatetime)
	if d.Kind() == types.KindTime {
		tp = d.GetTime().Type
	}
	t, ok := toTime(&d, tp, types.MaxFsp)
	if !ok {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", d.String()))
		return types.Time{}, false, nil
	}
	return t, true, nil
}

// timePartFunc is DATE, YEAR, MONTH, DAY(OFMONTH), HOUR, MINUTE, SECOND,
// MICROSECOND, DAYOFWEEK, DAYOFYEAR, QUARTER.
type timePartFunc struct{ part string }

func (f *timePartFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	switch f.part {
	case "date":
		t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
		t.Type, t.Fsp = mysql.TypeDate, 0
		return types.NewTimeDatum(t), nil
	case "year":
		return types.NewIntDatum(int64(t.Year)), nil
	case "month":
		return types.NewIntDatum(int64(t.Month)), nil
	case "day":
		return types.NewIntDatum(int64(t.Day)), nil
	case "hour":
		return types.NewIntDatum(int64(t.Hour)), nil
	case "minute":
		return types.NewIntDatum(int64(t.Minute)), nil
	case "second":
		return types.NewIntDatum(int64(t.Second)), nil
	case "microsecond":
		return types.NewIntDatum(int64(t.Microsecond)), nil
	case "quarter":
		return types.NewIntDatum(int64((t.Month + 2) / 3)), nil
	}
	g, err := t.GoTime(time.UTC)
	if err != nil {
		return types.NewNullDatum(), nil
	}
	switch f.part {
	case "dayofweek":
		return types.NewIntDatum(int64(g.Weekday()) + 1), nil
	case "dayofyear":
		return types.NewIntDatum(int64(g.YearDay())), nil
	}
	return types.NewNullDatum(), nil
}

// dateDiffFunc is DATEDIFF(a, b): days from b to a, times ignored.
type dateDiffFunc struct{}

func (dateDiffFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var days [2]int64
	for i, a := range args {
		t, ok, err := evalTimeArg(ctx, row, a)
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		g, err := t.GoTime(time.UTC)
		if err != nil {
			return types.NewNullDatum(), nil
		}
		days[i] = g.Unix() / 86400
		if g.Unix() < 0 && g.Unix()%86400 != 0 {
			days[i]--
		}
	}
	return types.NewIntDatum(days[0] - days[1]), nil
}

// dateAddFunc is DATE_ADD/DATE_SUB/ADDDATE/SUBDATE and "+ INTERVAL": a
// DATE stays a DATE for day and larger units; month arithmetic clamps the
// day to the month's end ('2020-01-31' + INTERVAL 1 MONTH = '2020-02-29');
// results outside years 1..9999 are NULL.
type dateAddFunc struct {
	sub  bool
	unit ast.TimeUnitType
	ft   *types.FieldType
}

func (f *dateAddFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	nd, err := args[1].Eval(ctx, row)
	if err != nil || nd.IsNull() {
		return types.NewNullDatum(), err
	}
	n := toInt(ctx, &nd).v
	if f.sub {
		n = -n
	}
	g, err := t.GoTime(time.UTC)
	if err != nil {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", t.String()))
		return types.NewNullDatum(), nil
	}
	switch f.unit {
	case ast.TimeUnitMicrosecond:
		g = g.Add(time.Duration(n) * time.Microsecond)
	case ast.TimeUnitSecond:
		g = g.Add(time.Duration(n) * time.Second)
	case ast.TimeUnitMinute:
		g = g.Add(time.Duration(n) * time.Minute)
	case ast.TimeUnitHour:
		g = g.Add(time.Duration(n) * time.Hour)
	case ast.TimeUnitDay:
		g = g.AddDate(0, 0, int(n))
	case ast.TimeUnitWeek:
		g = g.AddDate(0, 0, int(n)*7)
	case ast.TimeUnitMonth, ast.TimeUnitQuarter, ast.TimeUnitYear:
		months := n
		switch f.unit {
		case ast.TimeUnitQuarter:
			months *= 3
		case ast.TimeUnitYear:
			months *= 12
		}
		total := int64(g.Year())*12 + int64(g.Month()) - 1 + months
		y, m := total/12, time.Month(total%12+1)
		if y < 1 || y > 9999 {
			return types.NewNullDatum(), nil
		}
		day := min(g.Day(), types.DaysInMonth(int(y), int(m)))
		g = time.Date(int(y), m, day, g.Hour(), g.Minute(), g.Second(), g.Nanosecond(), time.UTC)
	}
	if g.Year() < 1 || g.Year() > 9999 {
		return types.NewNullDatum(), nil
	}
	if f.ft.EvalType() == types.ETString {
		// A string argument gives a string: a date when it was a date and
		// the unit is a day or larger, else a datetime with microseconds
		// only when there are some.
		tp, fsp := byte(mysql.TypeDatetime), int8(0)
		if g.Nanosecond() != 0 {
			fsp = types.MaxFsp
		}
		if !hasTimePart(args[0], ctx, row) && f.unit >= ast.TimeUnitDay && f.unit <= ast.TimeUnitYear {
			tp = mysql.TypeDate
		}
		return strResult([]byte(types.FromGoTime(g, tp, fsp).String()), f.ft), nil
	}
	r := types.FromGoTime(g, f.ft.Tp, f.ft.Fsp())
	return types.NewTimeDatum(r), nil
}

// hasTimePart reports whether a string date argument carries a time.
func hasTimePart(e Expression, ctx EvalContext, row chunk.Row) bool {
	d, err := e.Eval(ctx, row)
	if err != nil {
		return true
	}
	b := toBytes(&d)
	for _, c := range b {
		if c == ':' || c == ' ' || c == 'T' {
			return true
		}
	}
	return len(b) > 8 && !bytes.ContainsAny(b, "-/.")
}

// dateAddType is DATE for a DATE argument and a day-or-larger unit, else
// DATETIME (with microseconds when the unit or argument has them).
func dateAddType(arg *types.FieldType, unit ast.TimeUnitType) *types.FieldType {
	switch unit {
	case ast.TimeUnitDay, ast.TimeUnitWeek, ast.TimeUnitMonth, ast.TimeUnitQuarter, ast.TimeUnitYear:
		if arg.Tp == mysql.TypeDate {
			return types.NewFieldType(mysql.TypeDate)
		}
	}
	if arg.EvalType() == types.ETString {
		return stringType("utf8mb4_bin", false, 29)
	}
	ft := types.NewFieldType(mysql.TypeDatetime)
	if arg.EvalType() == types.ETDatetime {
		ft.Decimal = max(arg.Decimal, 0)
	}
	if unit == ast.TimeUnitMicrosecond {
		ft.Decimal = types.MaxFsp
	}
	return ft
}

// unixTimestampFunc is UNIX_TIMESTAMP([t]): seconds since the epoch of now
// or of t read in the session time zone; 0 for dates before the epoch.
type unixTimestampFunc struct{ ft *types.FieldType }

func (f *unixTimestampFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if len(args) == 0 {
		return types.NewIntDatum(ctx.Now().Unix()), nil
	}
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	loc := ctx.Location()
	if loc == nil {
		loc = time.UTC
	}
	g, err := t.GoTime(loc)
	if err != nil || g.Unix() < 0 {
		return types.NewIntDatum(0), nil
	}
	if f.ft.EvalType() == types.ETDecimal {
		s := strconv.FormatInt(g.Unix(), 10) + "." + fmt.Sprintf("%06d", t.Microsecond)[:max(f.ft.Decimal, 1)]
		d, _ := types.ParseDecimal(s)
		return types.NewDecimalDatum(d), nil
	}
	return types.NewIntDatum(g.Unix()), nil
}

// fromUnixtimeFunc is FROM_UNIXTIME(n): the DATETIME of n seconds since
// the epoch in the session time zone.
type fromUnixtimeFunc struct{}

func (fromUnixtimeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	n := toInt(ctx, &d)
	if n.unsigned || n.v < 0 || n.v > 32536771199 {
		return types.NewNullDatum(), nil
	}
	loc := ctx.Location()
	if loc == nil {
		loc = time.UTC
	}
	return types.NewTimeDatum(types.FromGoTime(time.Unix(n.v, 0).In(loc), mysql.TypeDatetime, 0)), nil
}

// dateFormatFunc is DATE_FORMAT(t, format) with MySQL's specifiers.
type dateFormatFunc struct{ ft *types.FieldType }

var monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

func (f *dateFormatFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	fd, err := args[1].Eval(ctx, row)
	if err != nil || fd.IsNull() {
		return types.NewNullDatum(), err
	}
	return strResult(formatTime(t, toBytes(&fd)), f.ft), nil
}

func formatTime(t types.Time, format []byte) []byte {
	var out []byte
	pad := func(v, w int) { out = append(out, fmt.Sprintf("%0*d", w, v)...) }
	g, gerr := t.GoTime(time.UTC)
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			out = append(out, c)
			continue
		}
		i++
		hour12 := int(t.Hour) % 12
		if hour12 == 0 {
			hour12 = 12
		}
		switch format[i] {
		case 'Y':
			pad(int(t.Year), 4)
		case 'y':
			pad(int(t.Year)%100, 2)
		case 'm':
			pad(int(t.Month), 2)
		case 'c':
			out = strconv.AppendInt(out, int64(t.Month), 10)
		case 'd':
			pad(int(t.Day), 2)
		case 'e':
			out = strconv.AppendInt(out, int64(t.Day), 10)
		case 'H':
			pad(int(t.Hour), 2)
		case 'k':
			out = strconv.AppendInt(out, int64(t.Hour), 10)
		case 'h', 'I':
			pad(hour12, 2)
		case 'l':
			out = strconv.AppendInt(out, int64(hour12), 10)
		case 'i':
			pad(int(t.Minute), 2)
		case 's', 'S':
			pad(int(t.Second), 2)
		case 'f':
			pad(int(t.Microsecond), 6)
		case 'p':
			if t.Hour < 12 {
				out = append(out, "AM"...)
			} else {
				out = append(out, "PM"...)
			}
		case 'T':
			out = append(out, fmt.Sprintf("%02d:%02d:%02d", t.Hour, t.Minute, t.Second)...)
		case 'r':
			ampm := "AM"
			if t.Hour >= 12 {
				ampm = "PM"
			}
			out = append(out, fmt.Sprintf("%02d:%02d:%02d %s", hour12, t.Minute, t.Second, ampm)...)
		case 'M':
			if t.Month >= 1 && t.Month <= 12 {
				out = append(out, monthNames[t.Month-1]...)
			}
		case 'b':
			if t.Month >= 1 && t.Month <= 12 {
				out = append(out, monthNames[t.Month-1][:3]...)
			}
		case 'W', 'a', 'j', 'w':
			if gerr != nil {
				continue
			}
			switch format[i] {
			case 'W':
				out = append(out, g.Weekday().String()...)
			case 'a':
				out = append(out, g.Weekday().String()[:3]...)
			case 'j':
				pad(g.YearDay(), 3)
			case 'w':
				out = strconv.AppendInt(out, int64(g.Weekday()), 10)
			}
		default:
			out = append(out, format[i])
		}
	}
	return out
}
