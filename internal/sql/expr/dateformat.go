package expr

import (
	"strconv"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

var monthNames = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// dateFormatFunc is DATE_FORMAT(t, format) and TIME_FORMAT(t, format)
// with MySQL's specifiers (make_date_time). TIME_FORMAT reads a TIME
// (hours beyond 24 kept, sign in front) and is NULL for specifiers that
// need a date (%M, %W, %D, %j, %U, ...).
type dateFormatFunc struct{ time bool }

func (f *dateFormatFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var t types.Time
	var neg bool
	var hour int64
	if f.time {
		c, ok, err := evalClock(ctx, row, args[0])
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		neg, hour = c.neg, c.hour
		t = types.Time{Minute: uint8(c.min), Second: uint8(c.sec), Microsecond: uint32(c.micro)}
	} else {
		tt, ok, err := evalTimeArg(ctx, row, args[0])
		if err != nil || !ok {
			return types.NewNullDatum(), err
		}
		t, hour = tt, int64(tt.Hour)
	}
	fd, err := args[1].Eval(ctx, row)
	if err != nil || fd.IsNull() {
		return types.NewNullDatum(), err
	}
	out, ok := makeDateTime(t, hour, neg, f.time, toBytes(&fd))
	if !ok {
		return types.NewNullDatum(), nil
	}
	return types.NewStringDatumBytes(out), nil
}

// formatTime formats a datetime as DATE_FORMAT does (nil for a format
// that a zero date cannot satisfy).
func formatTime(t types.Time, format []byte) []byte {
	out, _ := makeDateTime(t, int64(t.Hour), false, false, format)
	return out
}

// weekSpecifierMode is the calcWeek behaviour of a week specifier: weeks
// from Sunday for the upper-case ones, from Monday for the lower-case
// ones; %V, %v and the years %X, %x count weeks that belong to a year.
func weekSpecifierMode(c byte) int {
	mode := weekMondayFirst
	if c == 'U' || c == 'V' || c == 'X' {
		mode = weekFirstWeekday
	}
	if c != 'U' && c != 'u' {
		mode |= weekYear
	}
	return mode
}

// makeDateTime is MySQL's make_date_time; ok false is NULL.
func makeDateTime(t types.Time, hour int64, neg, isTime bool, format []byte) ([]byte, bool) {
	out := make([]byte, 0, len(format)+16)
	if neg {
		out = append(out, '-')
	}
	pad := func(v int64, w int) {
		s := strconv.FormatInt(v, 10)
		for i := len(s); i < w; i++ {
			out = append(out, '0')
		}
		out = append(out, s...)
	}
	hour12 := (hour%24+11)%12 + 1
	ampm := func() string {
		if hour%24 < 12 {
			return "AM"
		}
		return "PM"
	}
	y, m, d := int(t.Year), int(t.Month), int(t.Day)
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			out = append(out, c)
			continue
		}
		i++
		switch format[i] {
		case 'M':
			if m == 0 {
				return nil, false
			}
			out = append(out, monthNames[m-1]...)
		case 'b':
			if m == 0 {
				return nil, false
			}
			out = append(out, monthNames[m-1][:3]...)
		case 'W', 'a':
			if isTime || (m == 0 && y == 0) {
				return nil, false
			}
			name := dayNames[calcWeekday(calcDaynr(y, m, d), false)]
			if format[i] == 'a' {
				name = name[:3]
			}
			out = append(out, name...)
		case 'D':
			if isTime {
				return nil, false
			}
			out = strconv.AppendInt(out, int64(d), 10)
			switch {
			case d >= 10 && d <= 19:
				out = append(out, "th"...)
			case d%10 == 1:
				out = append(out, "st"...)
			case d%10 == 2:
				out = append(out, "nd"...)
			case d%10 == 3:
				out = append(out, "rd"...)
			default:
				out = append(out, "th"...)
			}
		case 'Y':
			pad(int64(y), 4)
		case 'y':
			pad(int64(y%100), 2)
		case 'm':
			pad(int64(m), 2)
		case 'c':
			out = strconv.AppendInt(out, int64(m), 10)
		case 'd':
			pad(int64(d), 2)
		case 'e':
			out = strconv.AppendInt(out, int64(d), 10)
		case 'f':
			pad(int64(t.Microsecond), 6)
		case 'H':
			pad(hour, 2)
		case 'h', 'I':
			pad(hour12, 2)
		case 'i':
			pad(int64(t.Minute), 2)
		case 'j':
			if isTime {
				return nil, false
			}
			pad(calcDaynr(y, m, d)-calcDaynr(y, 1, 1)+1, 3)
		case 'k':
			out = strconv.AppendInt(out, hour, 10)
		case 'l':
			out = strconv.AppendInt(out, hour12, 10)
		case 'p':
			out = append(out, ampm()...)
		case 'r':
			pad(hour12, 2)
			out = append(out, ':')
			pad(int64(t.Minute), 2)
			out = append(out, ':')
			pad(int64(t.Second), 2)
			out = append(out, ' ')
			out = append(out, ampm()...)
		case 'S', 's':
			pad(int64(t.Second), 2)
		case 'T':
			pad(hour, 2)
			out = append(out, ':')
			pad(int64(t.Minute), 2)
			out = append(out, ':')
			pad(int64(t.Second), 2)
		case 'U', 'u', 'V', 'v', 'X', 'x':
			if isTime {
				return nil, false
			}
			w, wy := calcWeek(y, m, d, weekSpecifierMode(format[i]))
			if format[i] == 'X' || format[i] == 'x' {
				pad(int64(wy), 4)
			} else {
				pad(int64(w), 2)
			}
		case 'w':
			if isTime || (m == 0 && y == 0) {
				return nil, false
			}
			out = strconv.AppendInt(out, int64(calcWeekday(calcDaynr(y, m, d), true)), 10)
		default:
			out = append(out, format[i])
		}
	}
	return out, true
}
