package expr

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Date and time functions of the function table.

func init() {
	for _, p := range []string{"hour", "minute", "second", "microsecond"} {
		register(p, 1, 1, fixed(intResult, &clockPartFunc{part: p}))
	}
	register("weekday", 1, 1, fixed(intResult, &datePartFunc{part: "weekday"}))
	register("dayname", 1, 1, fixed(textType(9), &datePartFunc{part: "dayname"}))
	register("monthname", 1, 1, fixed(textType(9), &datePartFunc{part: "monthname"}))
	register("to_days", 1, 1, fixed(intResult, &datePartFunc{part: "to_days"}))
	register("last_day", 1, 1, fixed(dateResult, &datePartFunc{part: "last_day"}))
	register("week", 1, 2, fixed(intResult, &weekFunc{}))
	register("yearweek", 1, 2, fixed(intResult, &weekFunc{yearweek: true}))
	register("from_days", 1, 1, fixed(dateResult, fromDaysFunc{}))
	register("makedate", 2, 2, fixed(dateResult, makeDateFunc{}))
	register("maketime", 3, 3, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, timeResult(constFsp(c.args[2])), makeTimeFunc{}), nil
	})
	register("time", 1, 1, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, timeResult(constFsp(c.args[0])), timeFunc{}), nil
	})
	register("timediff", 2, 2, func(b *builder, c *call) (Expression, error) {
		fsp := max(constFsp(c.args[0]), constFsp(c.args[1]))
		return b.newFunc(c.name, c.args, timeResult(fsp), timeDiffFunc{}), nil
	})
	register("sec_to_time", 1, 1, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, timeResult(constFsp(c.args[0])), secToTimeFunc{}), nil
	})
	register("time_to_sec", 1, 1, fixed(intResult, timeToSecFunc{}))
	register("convert_tz", 3, 3, func(b *builder, c *call) (Expression, error) {
		ft := types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = constFsp(c.args[0])
		return b.newFunc(c.name, c.args, ft, &convertTZFunc{ft: ft}), nil
	})
	for _, n := range []string{"curtime", "current_time", "utc_time", "utc_timestamp", "sysdate"} {
		register(n, 0, 1, buildClockFunc)
	}
	register("utc_date", 0, 0, buildClockFunc)
	register("unix_timestamp", 0, 1, func(b *builder, c *call) (Expression, error) {
		ft := intType(false)
		if len(c.args) == 1 {
			if c.args[0].Type().EvalType() == types.ETReal {
				ft = decimalType(18, types.MaxFsp)
			} else if fsp := constFsp(c.args[0]); fsp > 0 {
				ft = decimalType(12+fsp, fsp)
			}
		}
		return b.newFunc(c.name, c.args, ft, &unixTimestampFunc{ft: ft}), nil
	})
	register("from_unixtime", 1, 2, func(b *builder, c *call) (Expression, error) {
		if len(c.args) == 2 {
			ft := stringType("utf8mb4_bin", false, 64)
			return b.newFunc(c.name, c.args, ft, &fromUnixtimeFunc{ft: ft}), nil
		}
		ft := types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = constFsp(c.args[0])
		return b.newFunc(c.name, c.args, ft, &fromUnixtimeFunc{ft: ft}), nil
	})
	register("date_format", 2, 2, fixed(textType(64), &dateFormatFunc{}))
	register("time_format", 2, 2, fixed(textType(64), &dateFormatFunc{time: true}))
}

func dateResult() *types.FieldType { return types.NewFieldType(mysql.TypeDate) }

func timeResult(fsp int) *types.FieldType {
	ft := types.NewFieldType(mysql.TypeDuration)
	ft.Decimal = fsp
	return ft
}

// clockPartFunc is HOUR, MINUTE, SECOND, MICROSECOND of a time of day
// (HOUR('272:59:59') = 272).
type clockPartFunc struct{ part string }

func (f *clockPartFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	c, ok, err := evalClock(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	switch f.part {
	case "hour":
		return types.NewIntDatum(c.hour), nil
	case "minute":
		return types.NewIntDatum(c.min), nil
	case "second":
		return types.NewIntDatum(c.sec), nil
	}
	return types.NewIntDatum(c.micro), nil
}

// evalDate evaluates a date argument that must have non-zero month and
// day; ok false is NULL (with warning 1292).
func evalDate(ctx EvalContext, row chunk.Row, e Expression) (types.Time, bool, error) {
	t, ok, err := evalTimeArg(ctx, row, e)
	if err != nil || !ok {
		return t, false, err
	}
	if t.Month == 0 || t.Day == 0 {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "datetime", t.String()))
		return t, false, nil
	}
	return t, true, nil
}

// datePartFunc is WEEKDAY, DAYNAME, MONTHNAME, TO_DAYS, LAST_DAY.
type datePartFunc struct{ part string }

func (f *datePartFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var t types.Time
	var ok bool
	var err error
	if f.part == "to_days" || f.part == "monthname" {
		t, ok, err = evalTimeArg(ctx, row, args[0])
		if ok && f.part == "monthname" && t.Month == 0 {
			return types.NewNullDatum(), nil
		}
		if ok && f.part == "to_days" && (t.Month == 0 || t.Day == 0) && !t.IsZero() {
			ok = false
		}
	} else {
		t, ok, err = evalDate(ctx, row, args[0])
	}
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	daynr := calcDaynr(int(t.Year), int(t.Month), int(t.Day))
	switch f.part {
	case "weekday":
		return types.NewIntDatum(int64(calcWeekday(daynr, false))), nil
	case "dayname":
		return types.NewStringDatum(dayNames[calcWeekday(daynr, false)]), nil
	case "monthname":
		return types.NewStringDatum(monthNames[t.Month-1]), nil
	case "to_days":
		return types.NewIntDatum(daynr), nil
	}
	t.Day = uint8(types.DaysInMonth(int(t.Year), int(t.Month)))
	return types.NewTimeDatum(t.Date()), nil
}

// weekFunc is WEEK(d[, mode]) and YEARWEEK(d[, mode]); the default mode
// is @@default_week_format.
type weekFunc struct{ yearweek bool }

func (f *weekFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	t, ok, err := evalDate(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	mode := 0
	if len(args) == 2 {
		md, err := args[1].Eval(ctx, row)
		if err != nil || md.IsNull() {
			return types.NewNullDatum(), err
		}
		mode = int(toInt(ctx, &md).v)
	} else if !f.yearweek {
		if v, err := ctx.GetSysVar("default_week_format", false); err == nil {
			mode, _ = strconv.Atoi(v)
		}
	}
	if f.yearweek {
		w, y := calcWeek(int(t.Year), int(t.Month), int(t.Day), weekModeOf(mode)|weekYear)
		return types.NewIntDatum(int64(y*100 + w)), nil
	}
	w, _ := calcWeek(int(t.Year), int(t.Month), int(t.Day), weekModeOf(mode))
	return types.NewIntDatum(int64(w)), nil
}

// fromDaysFunc is FROM_DAYS(n): the date of day number n (0000-00-00
// for n <= 365).
type fromDaysFunc struct{}

func (fromDaysFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	n := toInt(ctx, &d)
	if n.unsigned {
		n.v = 1 << 62
	}
	y, m, dd := dateFromDaynr(n.v)
	return types.NewTimeDatum(types.Time{Year: uint16(y), Month: uint8(m), Day: uint8(dd), Type: mysql.TypeDate}), nil
}

// makeDateFunc is MAKEDATE(year, dayofyear): NULL for dayofyear < 1;
// years 0-69 and 70-99 are 2000-2069 and 1970-1999.
type makeDateFunc struct{}

func (makeDateFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v [2]int64
	for i, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		iv := toInt(ctx, &d)
		if iv.unsigned {
			return types.NewNullDatum(), nil
		}
		v[i] = iv.v
	}
	year, doy := v[0], v[1]
	if doy <= 0 || year < 0 || year > 9999 {
		return types.NewNullDatum(), nil
	}
	if year < 70 {
		year += 2000
	} else if year < 100 {
		year += 1900
	}
	daynr := calcDaynr(int(year), 1, 1) + doy - 1
	if daynr > maxDayNumber || daynr < 366 {
		return types.NewNullDatum(), nil
	}
	y, m, dd := dateFromDaynr(daynr)
	return types.NewTimeDatum(types.Time{Year: uint16(y), Month: uint8(m), Day: uint8(dd), Type: mysql.TypeDate}), nil
}

// makeTimeFunc is MAKETIME(h, m, s): NULL unless 0 <= m < 60 and
// 0 <= s < 60; beyond 838:59:59 clamped with warning 1292.
type makeTimeFunc struct{}

func (makeTimeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var ds [3]types.Datum
	if null, err := evalArgs(ctx, row, args, ds[:]); err != nil || null {
		return types.NewNullDatum(), err
	}
	h, m := toInt(ctx, &ds[0]), toInt(ctx, &ds[1])
	sec := toDecimal(ctx, &ds[2])
	if m.unsigned || m.v < 0 || m.v > 59 || sec.Negative || sec.Compare(types.NewDecFromInt(60)) >= 0 {
		return types.NewNullDatum(), nil
	}
	us, err := sec.Mul(types.NewDecFromInt(1000000))
	if err != nil {
		return types.NewNullDatum(), nil
	}
	r := new(types.Decimal)
	_ = r.Round(us, 0)
	usv, _ := r.ToInt64()
	hv := h.v
	neg := hv < 0 && !h.unsigned
	if neg {
		hv = -hv
	}
	if h.unsigned || hv > 1000000 {
		hv = 1000000
	}
	total := ((hv*60+m.v)*60)*1000000 + usv
	if neg {
		total = -total
	}
	fsp := int8(min(max(sec.Scale(), 0), types.MaxFsp))
	if ds[2].Kind() == types.KindFloat64 || ds[2].Kind() == types.KindString {
		fsp = types.MaxFsp
	}
	return durationResult(ctx, types.Duration{D: durationOfMicros(total), Fsp: fsp}.RoundFsp(fsp))
}

// durationResult clamps a TIME to ±838:59:59 with warning 1292.
func durationResult(ctx EvalContext, d types.Duration) (types.Datum, error) {
	r, err := d.CheckRange()
	if err != nil {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "time", d.String()))
	}
	return types.NewDurationDatum(r), nil
}

// timeFunc is TIME(expr): the time part of a datetime, or a TIME.
type timeFunc struct{}

func (timeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	c, ok, err := evalClock(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	fsp := int8(constFsp(args[0]))
	return durationResult(ctx, c.duration(types.MaxFsp).RoundFsp(fsp))
}

// timeDiffFunc is TIMEDIFF(a, b): a - b as a TIME when both are datetimes
// or both are times, else NULL.
type timeDiffFunc struct{}

func (timeDiffFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var cs [2]clock
	for i, a := range args {
		c, ok, err := evalClock(ctx, row, a)
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		cs[i] = c
	}
	if cs[0].fromDatetime != cs[1].fromDatetime {
		return types.NewNullDatum(), nil
	}
	var us int64
	if cs[0].fromDatetime {
		us = timeMicros(cs[0].t) - timeMicros(cs[1].t)
	} else {
		us = int64(cs[0].duration(6).D/time.Microsecond) - int64(cs[1].duration(6).D/time.Microsecond)
	}
	fsp := int8(max(constFsp(args[0]), constFsp(args[1])))
	return durationResult(ctx, types.Duration{D: durationOfMicros(us), Fsp: fsp})
}

// secToTimeFunc is SEC_TO_TIME(s), clamped to ±838:59:59.
type secToTimeFunc struct{}

func (secToTimeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	fsp := int8(constFsp(args[0]))
	dec := toDecimal(ctx, &d)
	us, err := dec.Mul(types.NewDecFromInt(1000000))
	var v int64
	if err == nil {
		r := new(types.Decimal)
		_ = r.Round(us, 0)
		if v, err = r.ToInt64(); err != nil {
			v = 1 << 62
			if dec.Negative {
				v = -v
			}
		}
	}
	const limit = int64(1) << 50
	v = max(min(v, limit), -limit)
	return durationResult(ctx, types.Duration{D: durationOfMicros(v), Fsp: fsp}.RoundFsp(fsp))
}

// timeToSecFunc is TIME_TO_SEC(t): whole seconds of a time of day.
type timeToSecFunc struct{}

func (timeToSecFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	c, ok, err := evalClock(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	s := (c.hour*60+c.min)*60 + c.sec
	if c.neg {
		s = -s
	}
	return types.NewIntDatum(s), nil
}

// convertTZFunc is CONVERT_TZ(dt, from, to) with '+hh:mm' offsets
// (-13:59 .. +14:00), SYSTEM and the IANA zone names Go knows; an unknown
// zone is NULL. A value outside TIMESTAMP's range is returned unchanged,
// as MySQL does.
type convertTZFunc struct{ ft *types.FieldType }

func (f *convertTZFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	var locs [2]*time.Location
	for i, a := range args[1:] {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		if locs[i] = parseTimeZone(string(toBytes(&d))); locs[i] == nil {
			return types.NewNullDatum(), nil
		}
	}
	t = t.RoundFsp(int8(f.ft.Decimal))
	t.Type = mysql.TypeDatetime
	if t.Month == 0 || t.Day == 0 {
		return types.NewNullDatum(), nil
	}
	g, _ := t.GoTime(locs[0])
	if u := g.Unix(); u < 1 || u > maxUnixTime {
		return types.NewTimeDatum(t), nil
	}
	r := types.FromGoTime(g.In(locs[1]), mysql.TypeDatetime, t.Fsp)
	return types.NewTimeDatum(r), nil
}

// parseTimeZone reads a time zone name: '+hh:mm', SYSTEM, or an IANA
// name; nil when unknown.
func parseTimeZone(s string) *time.Location {
	if s == "" {
		return nil
	}
	if s[0] == '+' || s[0] == '-' {
		parts := strings.SplitN(s[1:], ":", 2)
		if len(parts) != 2 {
			return nil
		}
		h, err1 := strconv.Atoi(parts[0])
		m, err2 := strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil || m > 59 || m < 0 || h < 0 {
			return nil
		}
		off := h*60 + m
		if s[0] == '-' {
			off = -off
		}
		if off < -(13*60+59) || off > 14*60 {
			return nil
		}
		return time.FixedZone(s, off*60)
	}
	if strings.EqualFold(s, "SYSTEM") {
		return time.Local
	}
	if strings.EqualFold(s, "UTC") {
		return time.UTC
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil
	}
	return loc
}

// clockFspArg reads the optional fsp argument of NOW, CURTIME, SYSDATE,
// UTC_TIME and UTC_TIMESTAMP: a constant 0..6.
func clockFspArg(name string, args []Expression) (int, error) {
	if len(args) == 0 {
		return 0, nil
	}
	k, ok := args[0].(*Constant)
	if !ok || k.IsParam() {
		return 0, sqlerr.New(mysql.ErrWrongArguments, strings.ToUpper(name))
	}
	fsp := int(toInt(nil, &k.Value).v)
	if fsp < 0 || fsp > types.MaxFsp {
		return 0, sqlerr.New(mysql.ErrTooBigPrecision, fsp, name, types.MaxFsp)
	}
	return fsp, nil
}

// buildClockFunc builds CURTIME, UTC_TIME, UTC_TIMESTAMP, UTC_DATE and
// SYSDATE with their optional fsp.
func buildClockFunc(b *builder, c *call) (Expression, error) {
	fsp, err := clockFspArg(c.name, c.args)
	if err != nil {
		return nil, err
	}
	var ft *types.FieldType
	switch c.name {
	case "curtime", "current_time", "utc_time":
		ft = timeResult(fsp)
	case "utc_date":
		ft = dateResult()
	default:
		ft = types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = fsp
	}
	return b.newFunc(c.name, nil, ft, &clockFunc{name: c.name, ft: ft}), nil
}

// clockFunc is CURTIME, UTC_TIME, UTC_TIMESTAMP, UTC_DATE (the
// statement's time) and SYSDATE (the time it runs).
type clockFunc struct {
	name string
	ft   *types.FieldType
}

func (*clockFunc) volatile() bool { return true }

func (f *clockFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	fsp := int8(max(f.ft.Decimal, 0))
	t := clockTime(ctx, f.name == "sysdate", strings.HasPrefix(f.name, "utc"), fsp)
	switch f.ft.Tp {
	case mysql.TypeDuration:
		c := clockOfTime(t)
		return types.NewDurationDatum(c.duration(fsp)), nil
	case mysql.TypeDate:
		return types.NewTimeDatum(t.Date()), nil
	}
	return types.NewTimeDatum(t), nil
}

// clockTime is the statement's time (the current time for SYSDATE) in
// the session time zone, or in UTC, as a DATETIME truncated to fsp digits
// (MySQL's clock never rounds up into the next second).
func clockTime(ctx EvalContext, sysdate, utc bool, fsp int8) types.Time {
	now := ctx.Now()
	if sysdate {
		now = time.Now()
	}
	if utc {
		now = now.UTC()
	} else if loc := ctx.Location(); loc != nil {
		now = now.In(loc)
	}
	t := types.FromGoTime(now, mysql.TypeDatetime, types.MaxFsp)
	unit := uint32(pow10(types.MaxFsp - int(fsp)))
	t.Microsecond = t.Microsecond / unit * unit
	t.Fsp = fsp
	return t
}

func pow10(n int) int64 {
	v := int64(1)
	for i := 0; i < n; i++ {
		v *= 10
	}
	return v
}

// maxUnixTime is the last second TIMESTAMP holds (3001-01-19 03:14:07
// UTC, 64-bit MySQL's limit): CONVERT_TZ, UNIX_TIMESTAMP and FROM_UNIXTIME
// work up to it.
const maxUnixTime = 32536771199

// sessionZone is the session's time zone (UTC when the context has none).
func sessionZone(ctx EvalContext) *time.Location {
	if loc := ctx.Location(); loc != nil {
		return loc
	}
	return time.UTC
}

// unixTimestampFunc is UNIX_TIMESTAMP([t]): seconds since the epoch of now
// or of t read in the session time zone, with t's fraction digits; 0 for
// values outside 1970-01-01 00:00:01 UTC .. 3001-01-19 03:14:07.
type unixTimestampFunc struct{ ft *types.FieldType }

// volatile: the result depends on the clock or the session time zone.
func (*unixTimestampFunc) volatile() bool { return true }

func (f *unixTimestampFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if len(args) == 0 {
		return types.NewIntDatum(ctx.Now().Unix()), nil
	}
	t, ok, err := evalTimeArg(ctx, row, args[0])
	if err != nil || !ok {
		return types.NewNullDatum(), err
	}
	g, err := t.GoTime(sessionZone(ctx))
	sec, micro := int64(0), 0
	if err == nil && g.Unix() >= 0 && g.Unix() <= maxUnixTime {
		sec, micro = g.Unix(), int(t.Microsecond)
	}
	if f.ft.EvalType() == types.ETDecimal {
		s := strconv.FormatInt(sec, 10) + "." + fmt.Sprintf("%06d", micro)
		d, _ := types.ParseDecimal(s)
		r := new(types.Decimal)
		_ = r.Round(d, f.ft.Decimal)
		return types.NewDecimalDatum(r), nil
	}
	return types.NewIntDatum(sec), nil
}

// fromUnixtimeFunc is FROM_UNIXTIME(n[, format]): the DATETIME of n
// seconds since the epoch in the session time zone (NULL for negative n
// or beyond 3001-01-19), formatted like DATE_FORMAT when format is given.
type fromUnixtimeFunc struct{ ft *types.FieldType }

// volatile: the result depends on the clock or the session time zone.
func (*fromUnixtimeFunc) volatile() bool { return true }

func (f *fromUnixtimeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	dec := toDecimal(ctx, &d)
	if dec.Negative {
		return types.NewNullDatum(), nil
	}
	us, err := dec.Mul(types.NewDecFromInt(1000000))
	if err != nil {
		return types.NewNullDatum(), nil
	}
	r := new(types.Decimal)
	_ = r.Round(us, 0)
	v, err := r.ToInt64()
	if err != nil || v > maxUnixTime*1000000+999999 {
		return types.NewNullDatum(), nil
	}
	g := time.UnixMicro(v).In(sessionZone(ctx))
	if len(args) == 2 {
		fd, err := args[1].Eval(ctx, row)
		if err != nil || fd.IsNull() {
			return types.NewNullDatum(), err
		}
		t := types.FromGoTime(g, mysql.TypeDatetime, types.MaxFsp)
		return strResult(formatTime(t, toBytes(&fd)), f.ft), nil
	}
	return types.NewTimeDatum(types.FromGoTime(g, mysql.TypeDatetime, int8(f.ft.Decimal))), nil
}
