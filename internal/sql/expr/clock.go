package expr

import (
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// clock is a value read as MySQL's get_time reads it: the time of a
// DATETIME (with its day of month), or a TIME's hours (beyond 24),
// minutes, seconds and microseconds with its sign.
type clock struct {
	neg                        bool
	day, hour, min, sec, micro int64
	fromDatetime               bool
	// t is the DATETIME read, when fromDatetime.
	t types.Time
}

// duration returns the clock as a TIME (the day of a datetime dropped).
func (c clock) duration(fsp int8) types.Duration {
	us := ((c.hour*60+c.min)*60+c.sec)*1000000 + c.micro
	if c.neg {
		us = -us
	}
	return types.Duration{D: durationOfMicros(us), Fsp: fsp}
}

func clockOfDuration(d types.Duration) clock {
	v := d.D
	c := clock{}
	if v < 0 {
		c.neg, v = true, -v
	}
	us := int64(v / time.Microsecond)
	c.micro = us % 1000000
	s := us / 1000000
	c.hour, c.min, c.sec = s/3600, s/60%60, s%60
	return c
}

func clockOfTime(t types.Time) clock {
	return clock{day: int64(t.Day), hour: int64(t.Hour), min: int64(t.Minute), sec: int64(t.Second),
		micro: int64(t.Microsecond), fromDatetime: true, t: t}
}

// clockOf reads a datum as a time of day: text of 12 or more characters
// that is a datetime and numbers beyond 838:59:59 as DATETIMEs, the rest
// as TIMEs ('100:00:00', '-1 2:03', 12345).
func clockOf(d *types.Datum) (clock, bool) {
	switch d.Kind() {
	case types.KindDuration:
		return clockOfDuration(d.GetDuration()), true
	case types.KindTime:
		return clockOfTime(d.GetTime()), true
	case types.KindString, types.KindBytes:
		s := strings.TrimSpace(string(d.GetBytes()))
		if len(s) >= 12 {
			if t, err := types.ParseTime(s, mysql.TypeDatetime, types.MaxFsp); err == nil {
				return clockOfTime(t), true
			}
		}
		du, err := types.ParseDuration(s, types.MaxFsp)
		if err != nil && !isConvWarning(err) {
			if du.D == 0 {
				return clock{}, false
			}
		}
		return clockOfDuration(du), true
	case types.KindNull:
		return clock{}, false
	}
	f := toFloat(nil, d)
	if f > 8385959 || f < -8385959 {
		t, ok := toTime(d, mysql.TypeDatetime, types.MaxFsp)
		if !ok {
			return clock{}, false
		}
		return clockOfTime(t), true
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	du, err := types.ParseDuration(s, types.MaxFsp)
	if err != nil && du.D == 0 {
		return clock{}, false
	}
	return clockOfDuration(du), true
}

// evalClock evaluates e as a time of day; ok false is NULL (with warning
// 1292 for a value that is not a time).
func evalClock(ctx EvalContext, row chunk.Row, e Expression) (clock, bool, error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return clock{}, false, err
	}
	c, ok := clockOf(&d)
	if !ok {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "time", d.String()))
	}
	return c, ok, nil
}

// toDuration reads a datum as a TIME (see clockOf).
func toDuration(ctx EvalContext, d *types.Datum) (types.Duration, bool) {
	c, ok := clockOf(d)
	if !ok {
		if ctx != nil {
			ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, "time", d.String()))
		}
		return types.Duration{}, false
	}
	return c.duration(types.MaxFsp), true
}

func durationOfMicros(us int64) time.Duration { return time.Duration(us) * time.Microsecond }

// constFsp is MySQL's time_precision/datetime_precision of an argument:
// its type's fsp, the fraction digits of a constant string, 6 for other
// strings and for doubles, a decimal's scale.
func constFsp(e Expression) int {
	ft := e.Type()
	switch ft.EvalType() {
	case types.ETDatetime, types.ETDuration:
		return max(ft.Decimal, 0)
	case types.ETInt:
		return 0
	case types.ETDecimal:
		return min(max(ft.Decimal, 0), types.MaxFsp)
	case types.ETString:
		if c, ok := e.(*Constant); ok && !c.IsParam() {
			if c.Value.IsNull() {
				return 0
			}
			s := strings.TrimSpace(string(toBytes(&c.Value)))
			i := strings.LastIndexByte(s, '.')
			if i < 0 {
				return 0
			}
			n := 0
			for _, ch := range s[i+1:] {
				if ch < '0' || ch > '9' {
					break
				}
				n++
			}
			return min(n, types.MaxFsp)
		}
	}
	if isNullType(ft) {
		return 0
	}
	return types.MaxFsp
}
