package expr

import (
	"bytes"
	"time"

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
		return types.NewTimeDatum(t.Date()), nil
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
