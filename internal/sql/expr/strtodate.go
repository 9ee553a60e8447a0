package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

func init() {
	register("str_to_date", 2, 2, func(b *builder, c *call) (Expression, error) {
		ft := types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = types.MaxFsp
		if v, ok := constValue(c.args[1]); ok {
			ft = strToDateType(string(toBytes(v)))
		}
		return b.newFunc(c.name, c.args, ft, &strToDateFunc{ft: ft}), nil
	})
}

// strToDateType is STR_TO_DATE's type for a constant format: DATE when it
// has only date specifiers, TIME when only time ones, else DATETIME; fsp
// 6 with %f.
func strToDateType(format string) *types.FieldType {
	hasDate, hasTime, frac := false, false, false
	for i := 0; i+1 < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		switch format[i] {
		case 'Y', 'y', 'm', 'c', 'd', 'e', 'M', 'b', 'j', 'D', 'W', 'a', 'U', 'u', 'V', 'v', 'X', 'x', 'w':
			hasDate = true
		case 'f':
			hasTime, frac = true, true
		case 'H', 'k', 'h', 'I', 'l', 'i', 's', 'S', 'p', 'r', 'T':
			hasTime = true
		}
	}
	var ft *types.FieldType
	switch {
	case hasDate && !hasTime:
		return types.NewFieldType(mysql.TypeDate)
	case hasTime && !hasDate:
		ft = types.NewFieldType(mysql.TypeDuration)
	default:
		ft = types.NewFieldType(mysql.TypeDatetime)
	}
	if frac {
		ft.Decimal = types.MaxFsp
	}
	return ft
}

// strToDateFunc is STR_TO_DATE(s, format), MySQL's extract_date_time: a
// value that does not match is NULL; a date with zero parts is NULL with
// warning 1411 under NO_ZERO_DATE / NO_ZERO_IN_DATE (MySQL 8's default
// sql_mode); text left after the format is a warning 1292.
type strToDateFunc struct{ ft *types.FieldType }

func (f *strToDateFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, _, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	p := &dateParser{s: string(v[0]), weekNum: -1, weekYear: -1}
	ok := p.parse(string(v[1])) && p.finish()
	ft := f.ft
	if k, isConst := args[1].(*Constant); !isConst || k.IsParam() {
		ft = strToDateType(string(v[1]))
	}
	warn := func() (types.Datum, error) {
		if ctx.SQLMode()&(modeNoZeroDate|modeNoZeroInDate) != 0 {
			ctx.AppendWarning(sqlerr.New(mysql.ErrWrongValueForType, "datetime", string(v[0]), "str_to_date"))
		}
		return types.NewNullDatum(), nil
	}
	if !ok {
		return warn()
	}
	if rest := strings.TrimSpace(p.s[p.pos:]); rest != "" {
		ctx.AppendWarning(sqlerr.New(sqlerr.ErrTruncatedWrongValue, f.tpName(ft), p.s))
	}
	t := p.t
	if ft.Tp == mysql.TypeDuration {
		c := clock{hour: int64(t.Hour) + 24*int64(t.Day), min: int64(t.Minute), sec: int64(t.Second), micro: int64(t.Microsecond)}
		return types.NewDurationDatum(c.duration(int8(f.ft.Decimal))), nil
	}
	if ctx.SQLMode()&(modeNoZeroDate|modeNoZeroInDate) != 0 && (t.Year == 0 || t.Month == 0 || t.Day == 0) {
		return warn()
	}
	if int(t.Day) > types.DaysInMonth(int(t.Year), int(t.Month)) && t.Month != 0 {
		return warn()
	}
	if ft.Tp == mysql.TypeDate {
		return types.NewTimeDatum(t.Date()), nil
	}
	t.Type, t.Fsp = ft.Tp, int8(max(ft.Decimal, 0))
	return types.NewTimeDatum(t), nil
}

func (f *strToDateFunc) tpName(ft *types.FieldType) string {
	switch ft.Tp {
	case mysql.TypeDate:
		return "date"
	case mysql.TypeDuration:
		return "time"
	}
	return "datetime"
}

// dateParser reads a value by a STR_TO_DATE format.
type dateParser struct {
	s              string
	pos            int
	t              types.Time
	usaTime        bool
	pm             int
	yearday        int
	weekday        int
	weekNum        int
	weekYear       int
	weekYearSunday bool
	strictWk       bool
	sundayFirst    bool
}

// num reads up to n digits (at least one).
func (p *dateParser) num(n int) (int, bool) {
	v, i := 0, 0
	for i < n && p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		v = v*10 + int(p.s[p.pos]-'0')
		p.pos++
		i++
	}
	return v, i > 0
}

// word matches one of names (case-insensitively, whole or by its first
// three letters when abbr) and returns its index.
func (p *dateParser) word(names []string, abbr bool) (int, bool) {
	rest := strings.ToLower(p.s[p.pos:])
	for i, n := range names {
		n = strings.ToLower(n)
		if abbr {
			n = n[:3]
		}
		if strings.HasPrefix(rest, n) {
			p.pos += len(n)
			return i, true
		}
	}
	return 0, false
}

func year2000(y, digits int) int {
	if digits <= 2 {
		if y < 70 {
			return y + 2000
		}
		return y + 1900
	}
	return y
}

func (p *dateParser) parse(format string) bool {
	for i := 0; i < len(format) && p.pos < len(p.s); i++ {
		for p.pos < len(p.s) && isSpace(p.s[p.pos]) {
			p.pos++
		}
		if p.pos >= len(p.s) {
			break
		}
		c := format[i]
		if c != '%' || i+1 == len(format) {
			if !isSpace(c) {
				if p.s[p.pos] != c {
					return false
				}
				p.pos++
			}
			continue
		}
		i++
		var v int
		ok := true
		switch format[i] {
		case 'Y':
			start := p.pos
			v, ok = p.num(4)
			p.t.Year = uint16(year2000(v, p.pos-start))
		case 'y':
			v, ok = p.num(2)
			p.t.Year = uint16(year2000(v, 2))
		case 'm', 'c':
			v, ok = p.num(2)
			p.t.Month = uint8(v)
		case 'M':
			v, ok = p.word(monthNames[:], false)
			p.t.Month = uint8(v + 1)
		case 'b':
			v, ok = p.word(monthNames[:], true)
			p.t.Month = uint8(v + 1)
		case 'd', 'e':
			v, ok = p.num(2)
			p.t.Day = uint8(v)
		case 'D':
			v, ok = p.num(2)
			p.t.Day = uint8(v)
			p.pos = min(p.pos+2, len(p.s))
		case 'h', 'I', 'l':
			p.usaTime = true
			v, ok = p.num(2)
			p.t.Hour = uint8(v)
		case 'H', 'k':
			v, ok = p.num(2)
			p.t.Hour = uint8(v)
		case 'i':
			v, ok = p.num(2)
			p.t.Minute = uint8(v)
		case 's', 'S':
			v, ok = p.num(2)
			p.t.Second = uint8(v)
		case 'f':
			start := p.pos
			v, ok = p.num(6)
			for n := p.pos - start; n < 6; n++ {
				v *= 10
			}
			p.t.Microsecond = uint32(v)
		case 'p':
			rest := strings.ToUpper(p.s[p.pos:])
			switch {
			case !p.usaTime:
				return false
			case strings.HasPrefix(rest, "AM"):
				p.pm = 0
			case strings.HasPrefix(rest, "PM"):
				p.pm = 12
			default:
				return false
			}
			p.pos += 2
		case 'W':
			v, ok = p.word(dayNames[:], false)
			p.weekday = v + 1
		case 'a':
			v, ok = p.word(dayNames[:], true)
			p.weekday = v + 1
		case 'w':
			v, ok = p.num(1)
			if v > 6 {
				return false
			}
			if v == 0 {
				v = 7
			}
			p.weekday = v
		case 'j':
			v, ok = p.num(3)
			p.yearday = v
		case 'U', 'u', 'V', 'v':
			v, ok = p.num(2)
			p.weekNum = v
			p.sundayFirst = format[i] == 'U' || format[i] == 'V'
			p.strictWk = format[i] == 'V' || format[i] == 'v'
		case 'X', 'x':
			v, ok = p.num(4)
			p.weekYear, p.weekYearSunday = v, format[i] == 'X'
		case 'r':
			ok = p.parse("%I:%i:%S %p")
		case 'T':
			ok = p.parse("%H:%i:%S")
		case '.':
			for p.pos < len(p.s) && isPunct(p.s[p.pos]) {
				p.pos++
			}
		case '@':
			for p.pos < len(p.s) && isAlpha(p.s[p.pos]) {
				p.pos++
			}
		case '#':
			for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
				p.pos++
			}
		case '%':
			if p.s[p.pos] != '%' {
				return false
			}
			p.pos++
		default:
			return false
		}
		if !ok {
			return false
		}
	}
	return true
}

// finish applies 12-hour time, day of year and week-based dates, and
// checks the fields' ranges.
func (p *dateParser) finish() bool {
	t := &p.t
	if p.usaTime {
		if t.Hour > 12 || t.Hour < 1 {
			return false
		}
		t.Hour = uint8(int(t.Hour)%12 + p.pm)
	}
	if p.yearday > 0 {
		days := calcDaynr(int(t.Year), 1, 1) + int64(p.yearday) - 1
		if days <= 0 || days > maxDayNumber {
			return false
		}
		y, m, d := dateFromDaynr(days)
		t.Year, t.Month, t.Day = uint16(y), uint8(m), uint8(d)
	}
	if p.weekNum >= 0 && p.weekday > 0 {
		if (p.strictWk && (p.weekYear < 0 || p.weekYearSunday != p.sundayFirst)) || (!p.strictWk && p.weekYear >= 0) {
			return false
		}
		year := int(t.Year)
		if p.strictWk {
			year = p.weekYear
		}
		days := calcDaynr(year, 1, 1)
		wb := int64(calcWeekday(days, p.sundayFirst))
		if p.sundayFirst {
			if wb != 0 {
				days += 7
			}
			days += -wb + int64((p.weekNum-1)*7+p.weekday%7)
		} else {
			if wb > 3 {
				days += 7
			}
			days += -wb + int64((p.weekNum-1)*7+p.weekday-1)
		}
		if days <= 0 || days > maxDayNumber {
			return false
		}
		y, m, d := dateFromDaynr(days)
		t.Year, t.Month, t.Day = uint16(y), uint8(m), uint8(d)
	}
	return t.Month <= 12 && t.Day <= 31 && t.Hour <= 23 && t.Minute <= 59 && t.Second <= 59
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isPunct(c byte) bool {
	return c > ' ' && c < 127 && !isAlpha(c) && !(c >= '0' && c <= '9')
}
