package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// interval is an INTERVAL value split into MySQL's fields (all
// non-negative; neg applies to all of them).
type interval struct {
	neg                                    bool
	years, months, days, hours, mins, secs int64
	micros                                 int64
}

// The fields of a time unit, largest first.
const (
	fieldYear = iota
	fieldMonth
	fieldDay
	fieldHour
	fieldMinute
	fieldSecond
	fieldMicro
)

// unitFields are the first and last field of each unit INTERVAL and
// EXTRACT take (WEEK counts days, QUARTER months): one field for the
// simple units, several for the compound ones ('1 2:03' DAY_MINUTE).
var unitFields = map[ast.TimeUnitType][2]int{
	ast.TimeUnitYear: {fieldYear, fieldYear}, ast.TimeUnitQuarter: {fieldMonth, fieldMonth},
	ast.TimeUnitMonth: {fieldMonth, fieldMonth}, ast.TimeUnitWeek: {fieldDay, fieldDay},
	ast.TimeUnitDay: {fieldDay, fieldDay}, ast.TimeUnitHour: {fieldHour, fieldHour},
	ast.TimeUnitMinute: {fieldMinute, fieldMinute}, ast.TimeUnitSecond: {fieldSecond, fieldSecond},
	ast.TimeUnitMicrosecond: {fieldMicro, fieldMicro},
	ast.TimeUnitYearMonth:   {fieldYear, fieldMonth},
	ast.TimeUnitDayHour:     {fieldDay, fieldHour}, ast.TimeUnitDayMinute: {fieldDay, fieldMinute},
	ast.TimeUnitDaySecond: {fieldDay, fieldSecond}, ast.TimeUnitDayMicrosecond: {fieldDay, fieldMicro},
	ast.TimeUnitHourMinute: {fieldHour, fieldMinute}, ast.TimeUnitHourSecond: {fieldHour, fieldSecond},
	ast.TimeUnitHourMicrosecond: {fieldHour, fieldMicro},
	ast.TimeUnitMinuteSecond:    {fieldMinute, fieldSecond}, ast.TimeUnitMinuteMicrosecond: {fieldMinute, fieldMicro},
	ast.TimeUnitSecondMicrosecond: {fieldSecond, fieldMicro},
}

// field returns the interval's field i.
func (iv *interval) field(i int) *int64 {
	switch i {
	case fieldYear:
		return &iv.years
	case fieldMonth:
		return &iv.months
	case fieldDay:
		return &iv.days
	case fieldHour:
		return &iv.hours
	case fieldMinute:
		return &iv.mins
	case fieldSecond:
		return &iv.secs
	}
	return &iv.micros
}

// unitHasTime reports units finer than a day.
func unitHasTime(u ast.TimeUnitType) bool { return unitFields[u][1] >= fieldHour }

// unitHasMicro reports units with a microseconds field.
func unitHasMicro(u ast.TimeUnitType) bool { return unitFields[u][1] == fieldMicro }

// parseInterval reads an INTERVAL value of unit u as MySQL's
// get_interval_value does: simple units take an integer (SECOND keeps a
// fraction), compound units read their fields from text
// ('1 2:03:04' DAY_SECOND), missing leading fields being zero; ok false
// (NULL) for too many fields.
func parseInterval(ctx EvalContext, d *types.Datum, u ast.TimeUnitType) (iv interval, ok bool) {
	span, known := unitFields[u]
	if !known {
		return iv, false
	}
	if n := span[1] - span[0] + 1; n > 1 {
		s := strings.TrimLeft(string(toBytes(d)), " \t\n")
		if strings.HasPrefix(s, "-") {
			iv.neg = true
			s = s[1:]
		}
		vals, ok := intervalFields(s, n, span[1] == fieldMicro)
		if !ok {
			return iv, false
		}
		for k, v := range vals {
			*iv.field(span[0] + k) = v
		}
		return iv, true
	}
	if u == ast.TimeUnitSecond && hasFraction(d) {
		dec := toDecimal(ctx, d)
		if dec.Negative {
			iv.neg = true
		}
		r := new(types.Decimal)
		r.Set(&dec.Decimal)
		r.Negative = false
		micro := new(types.Decimal)
		if err := micro.Round(r, 6); err != nil {
			return iv, false
		}
		us, err := micro.Mul(types.NewDecFromInt(1000000))
		if err != nil {
			return iv, false
		}
		total, err := us.ToInt64()
		if err != nil {
			return iv, false
		}
		iv.secs, iv.micros = total/1000000, total%1000000
		return iv, true
	}
	n := toInt(ctx, d)
	v := n.v
	if n.unsigned && v < 0 {
		return iv, false
	}
	if v < 0 {
		iv.neg, v = true, -v
	}
	switch u {
	case ast.TimeUnitWeek:
		v *= 7
	case ast.TimeUnitQuarter:
		v *= 3
	}
	*iv.field(span[0]) = v
	return iv, true
}

// hasFraction reports a decimal, double or text value with a fraction
// part (INTERVAL 1.5 SECOND).
func hasFraction(d *types.Datum) bool {
	switch d.Kind() {
	case types.KindDecimal:
		return d.GetDecimal().Scale() > 0
	case types.KindFloat32, types.KindFloat64:
		return true
	case types.KindString, types.KindBytes:
		return strings.IndexByte(string(d.GetBytes()), '.') >= 0
	}
	return false
}

// intervalFields is MySQL's get_interval_info: n digit groups separated
// by anything else, right-aligned when fewer are given; a microseconds
// field is scaled as a fraction ('1.5' SECOND_MICROSECOND is 1.5 s).
func intervalFields(s string, n int, micro bool) ([]int64, bool) {
	vals := make([]int64, n)
	i := 0
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	fieldLen := 0
	for k := 0; k < n; k++ {
		start := i
		var v int64
		for i < len(s) && isDigit(s[i]) {
			if v > (1<<63-1-10)/10 {
				return nil, false
			}
			v = v*10 + int64(s[i]-'0')
			i++
		}
		fieldLen = i - start
		vals[k] = v
		for i < len(s) && !isDigit(s[i]) {
			i++
		}
		if i == len(s) && k != n-1 {
			got := k + 1
			copy(vals[n-got:], vals[:got])
			clear(vals[:n-got])
			break
		}
	}
	if micro && fieldLen > 0 {
		for ; fieldLen < 6; fieldLen++ {
			vals[n-1] *= 10
		}
		for ; fieldLen > 6; fieldLen-- {
			vals[n-1] /= 10
		}
	}
	return vals, i == len(s)
}

// addInterval is MySQL's date_add_interval on a valid date: month units
// clamp the day to the month's end, others move through day numbers;
// ok false when the result leaves years 0..9999 (warning 1441).
func addInterval(ctx EvalContext, t types.Time, iv interval, u ast.TimeUnitType) (types.Time, bool) {
	sign := int64(1)
	if iv.neg {
		sign = -1
	}
	overflow := func() (types.Time, bool) {
		ctx.AppendWarning(sqlerr.New(1441, "datetime"))
		return t, false
	}
	switch u {
	case ast.TimeUnitYear, ast.TimeUnitYearMonth, ast.TimeUnitQuarter, ast.TimeUnitMonth:
		period := int64(t.Year)*12 + sign*iv.years*12 + int64(t.Month) - 1 + sign*iv.months
		if period < 0 || period >= 120000 {
			return overflow()
		}
		t.Year, t.Month = uint16(period/12), uint8(period%12+1)
		if dm := types.DaysInMonth(int(t.Year), int(t.Month)); int(t.Day) > dm {
			t.Day = uint8(dm)
		}
		return t, true
	case ast.TimeUnitDay, ast.TimeUnitWeek:
		period := calcDaynr(int(t.Year), int(t.Month), int(t.Day)) + sign*iv.days
		if period < 0 || period > maxDayNumber {
			return overflow()
		}
		y, m, d := dateFromDaynr(period)
		t.Year, t.Month, t.Day = uint16(y), uint8(m), uint8(d)
		return t, true
	}
	usec := int64(t.Microsecond) + sign*iv.micros
	sec := (int64(t.Day)-1)*86400 + int64(t.Hour)*3600 + int64(t.Minute)*60 + int64(t.Second) +
		sign*(iv.days*86400+iv.hours*3600+iv.mins*60+iv.secs)
	sec += usec / 1000000
	usec %= 1000000
	if usec < 0 {
		usec += 1000000
		sec--
	}
	days := sec / 86400
	sec %= 86400
	if sec < 0 {
		days--
		sec += 86400
	}
	daynr := calcDaynr(int(t.Year), int(t.Month), 1) + days
	if daynr < 0 || daynr > maxDayNumber {
		return overflow()
	}
	y, m, d := dateFromDaynr(daynr)
	t.Year, t.Month, t.Day = uint16(y), uint8(m), uint8(d)
	t.Hour, t.Minute, t.Second, t.Microsecond = uint8(sec/3600), uint8(sec/60%60), uint8(sec%60), uint32(usec)
	return t, true
}

// micros returns the interval's time part in microseconds (signed).
func (iv interval) micros64() int64 {
	v := ((iv.days*24+iv.hours)*60+iv.mins)*60 + iv.secs
	v = v*1000000 + iv.micros
	if iv.neg {
		return -v
	}
	return v
}
