package types

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Time is a MySQL DATE, DATETIME or TIMESTAMP value. Type is the mysql type
// code (mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp); Fsp is
// the fractional seconds precision (0-6). The zero value of the fields
// (0000-00-00 00:00:00) is MySQL's zero date.
type Time struct {
	Year        uint16
	Month       uint8
	Day         uint8
	Hour        uint8
	Minute      uint8
	Second      uint8
	Microsecond uint32
	Type        byte
	Fsp         int8
}

// ZeroTime returns the zero date of a type ('0000-00-00 00:00:00').
func ZeroTime(tp byte, fsp int8) Time { return Time{Type: tp, Fsp: fsp} }

// FromGoTime returns the Time of a Go time's wall clock fields.
func FromGoTime(t time.Time, tp byte, fsp int8) Time {
	r := Time{
		Year: uint16(t.Year()), Month: uint8(t.Month()), Day: uint8(t.Day()),
		Hour: uint8(t.Hour()), Minute: uint8(t.Minute()), Second: uint8(t.Second()),
		Microsecond: uint32(t.Nanosecond() / 1000), Type: tp, Fsp: fsp,
	}
	return r.roundFrac(fsp)
}

// GoTime returns t as a Go time in loc (an error for zero dates or dates
// with zero parts, which Go cannot represent).
func (t Time) GoTime(loc *time.Location) (time.Time, error) {
	if t.Month == 0 || t.Day == 0 {
		return time.Time{}, fmt.Errorf("%w: '%s'", ErrWrongTimeValue, t)
	}
	return time.Date(int(t.Year), time.Month(t.Month), int(t.Day), int(t.Hour), int(t.Minute),
		int(t.Second), int(t.Microsecond)*1000, loc), nil
}

// IsZero reports whether t is the zero date 0000-00-00 00:00:00.
func (t Time) IsZero() bool { return t.Pack() == 0 }

// Pack returns MySQL's packed form: ((ymd<<17 | hms) << 24) | microsecond
// with ymd = (year*13+month)<<5 | day and hms = hour<<12 | minute<<6 |
// second. Packed values order like the times (for any Type and Fsp).
func (t Time) Pack() uint64 {
	ymd := (uint64(t.Year)*13+uint64(t.Month))<<5 | uint64(t.Day)
	hms := uint64(t.Hour)<<12 | uint64(t.Minute)<<6 | uint64(t.Second)
	return (ymd<<17|hms)<<24 | uint64(t.Microsecond)
}

// TimeFromPacked is the inverse of Pack; tp and fsp come from the column.
func TimeFromPacked(p uint64, tp byte, fsp int8) Time {
	micro := uint32(p & (1<<24 - 1))
	ymdhms := p >> 24
	ymd := ymdhms >> 17
	hms := ymdhms & (1<<17 - 1)
	ym := ymd >> 5
	return Time{
		Year: uint16(ym / 13), Month: uint8(ym % 13), Day: uint8(ymd & 31),
		Hour: uint8(hms >> 12), Minute: uint8(hms >> 6 & 63), Second: uint8(hms & 63),
		Microsecond: micro, Type: tp, Fsp: fsp,
	}
}

// Compare orders two times by value (Type and Fsp are ignored).
func (t Time) Compare(o Time) int {
	a, b := t.Pack(), o.Pack()
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Date returns t's date: a DATE, its time of day cleared.
func (t Time) Date() Time {
	t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
	t.Type, t.Fsp = mysql.TypeDate, 0
	return t
}

// String formats t per its Type and Fsp: 'YYYY-MM-DD' for DATE,
// 'YYYY-MM-DD HH:MM:SS[.ffffff]' (Fsp digits) otherwise.
func (t Time) String() string {
	b := make([]byte, 0, 26)
	return string(t.AppendFormat(b))
}

// AppendFormat appends String's text to b.
func (t Time) AppendFormat(b []byte) []byte {
	b = appendPad(b, int(t.Year), 4)
	b = append(b, '-')
	b = appendPad(b, int(t.Month), 2)
	b = append(b, '-')
	b = appendPad(b, int(t.Day), 2)
	if t.Type == mysql.TypeDate || t.Type == mysql.TypeNewDate {
		return b
	}
	b = append(b, ' ')
	b = appendPad(b, int(t.Hour), 2)
	b = append(b, ':')
	b = appendPad(b, int(t.Minute), 2)
	b = append(b, ':')
	b = appendPad(b, int(t.Second), 2)
	return appendFrac(b, int(t.Microsecond), t.Fsp)
}

func appendPad(b []byte, v, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], int64(v), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

func appendFrac(b []byte, micro int, fsp int8) []byte {
	if fsp <= 0 {
		return b
	}
	b = append(b, '.')
	var tmp [6]byte
	for i := 5; i >= 0; i-- {
		tmp[i] = byte('0' + micro%10)
		micro /= 10
	}
	return append(b, tmp[:fsp]...)
}

// DaysInMonth returns the days of a month (0 for month 0 or > 12).
func DaysInMonth(year, month int) int {
	switch month {
	case 1, 3, 5, 7, 8, 10, 12:
		return 31
	case 4, 6, 9, 11:
		return 30
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 0
}

// Check validates t's fields. A zero date is allowed only with
// allowZeroDate (sql_mode without NO_ZERO_DATE); a zero month or day in a
// non-zero date only with allowZeroInDate (without NO_ZERO_IN_DATE). A day
// beyond the month's length is always an error.
func (t Time) Check(allowZeroDate, allowZeroInDate bool) error {
	if t.IsZero() {
		if allowZeroDate {
			return nil
		}
		return fmt.Errorf("%w: '%s'", ErrWrongTimeValue, t)
	}
	if t.Year > 9999 || t.Month > 12 || t.Hour > 23 || t.Minute > 59 || t.Second > 59 || t.Microsecond > 999999 {
		return fmt.Errorf("%w: '%s'", ErrWrongTimeValue, t)
	}
	if t.Month == 0 || t.Day == 0 {
		if allowZeroInDate && (t.Month != 0 || t.Day <= 31) {
			return nil
		}
		return fmt.Errorf("%w: '%s'", ErrWrongTimeValue, t)
	}
	if int(t.Day) > DaysInMonth(int(t.Year), int(t.Month)) {
		return fmt.Errorf("%w: '%s'", ErrWrongTimeValue, t)
	}
	return nil
}

// ParseTime parses a date or datetime literal for a column of type tp and
// fsp: 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS[.ffffff]' (any punctuation as
// delimiter, 'T' between date and time, 2-digit years: 70-99 → 19xx, 00-69
// → 20xx), 'YYYYMMDD', 'YYYYMMDDHHMMSS[.ffffff]' and 'YYMMDD[HHMMSS]'.
// Fractional digits beyond fsp are rounded. Zero dates parse; validate
// them with Check. A DATE keeps only the date part (a time part is not an
// error here). Malformed strings give ErrWrongTimeValue.
func ParseTime(s string, tp byte, fsp int8) (Time, error) {
	str := strings.TrimSpace(s)
	bad := func() (Time, error) {
		return ZeroTime(tp, fsp), fmt.Errorf("%w: '%s'", ErrWrongTimeValue, s)
	}
	if str == "" {
		return bad()
	}
	var fields [6]int
	var nf int
	frac, fracDigits := 0, 0
	yearDigits := 0
	if isAllDigits(str) || (strings.IndexByte(str, '.') > 0 && isAllDigits(str[:strings.IndexByte(str, '.')]) && isAllDigits(str[strings.IndexByte(str, '.')+1:])) {
		// Numeric forms: YYYYMMDD[HHMMSS], YYMMDD[HHMMSS].
		digits, rest := str, ""
		if i := strings.IndexByte(str, '.'); i >= 0 {
			digits, rest = str[:i], str[i+1:]
		}
		var widths []int
		switch len(digits) {
		case 8:
			widths = []int{4, 2, 2}
		case 6:
			widths = []int{2, 2, 2}
		case 14:
			widths = []int{4, 2, 2, 2, 2, 2}
		case 12:
			widths = []int{2, 2, 2, 2, 2, 2}
		default:
			return bad()
		}
		yearDigits = widths[0]
		off := 0
		for _, w := range widths {
			v, _ := strconv.Atoi(digits[off : off+w])
			fields[nf] = v
			nf++
			off += w
		}
		if rest != "" {
			if nf < 6 {
				return bad()
			}
			frac, fracDigits = parseFracDigits(rest)
		}
	} else {
		i := 0
		for nf < 6 && i < len(str) {
			j := i
			for j < len(str) && str[j] >= '0' && str[j] <= '9' {
				j++
			}
			if j == i || j-i > 4 && nf > 0 {
				return bad()
			}
			v, _ := strconv.Atoi(str[i:j])
			if nf == 0 {
				yearDigits = j - i
			}
			fields[nf] = v
			nf++
			i = j
			if i >= len(str) {
				break
			}
			if nf == 6 {
				break
			}
			// Delimiter: one punctuation char, or spaces/'T' between date and time.
			if nf == 3 {
				if str[i] != ' ' && str[i] != 'T' {
					return bad()
				}
				for i < len(str) && (str[i] == ' ' || str[i] == 'T') {
					i++
				}
				continue
			}
			if isDigit(str[i]) || str[i] == ' ' {
				return bad()
			}
			i++
		}
		if i < len(str) {
			if nf == 6 && str[i] == '.' {
				frac, fracDigits = parseFracDigits(str[i+1:])
				if fracDigits < 0 {
					return bad()
				}
			} else {
				return bad()
			}
		}
		if nf != 3 && nf < 5 {
			return bad()
		}
	}
	if fracDigits < 0 {
		return bad()
	}
	year := fields[0]
	if yearDigits <= 2 {
		if year < 70 {
			year += 2000
		} else {
			year += 1900
		}
	}
	if year > 9999 || fields[1] > 12 || fields[2] > 31 || fields[3] > 23 || fields[4] > 59 || fields[5] > 59 {
		return bad()
	}
	t := Time{
		Year: uint16(year), Month: uint8(fields[1]), Day: uint8(fields[2]),
		Hour: uint8(fields[3]), Minute: uint8(fields[4]), Second: uint8(fields[5]),
		Type: tp, Fsp: fsp,
	}
	t = t.roundFracDigits(frac, fracDigits, fsp)
	if tp == mysql.TypeDate || tp == mysql.TypeNewDate {
		t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
	}
	return t, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// parseFracDigits parses up to 7 fractional digits: microseconds scaled to
// 6 digits, or (when more than 6 were given) 7 digits for rounding.
// fracDigits is -1 for a non-digit.
func parseFracDigits(s string) (frac, fracDigits int) {
	if !isAllDigits(s) {
		if s == "" {
			return 0, 0
		}
		return 0, -1
	}
	n := len(s)
	if n > 7 {
		s = s[:7]
	}
	v, _ := strconv.Atoi(s)
	if len(s) <= 6 {
		for i := len(s); i < 6; i++ {
			v *= 10
		}
		return v, n
	}
	return v, n
}

// roundFracDigits sets the fraction from frac (6 digits, or 7 when
// fracDigits > 6) rounded half up to fsp digits, carrying into seconds.
func (t Time) roundFracDigits(frac, fracDigits int, fsp int8) Time {
	micro7 := frac * 10
	if fracDigits > 6 {
		micro7 = frac
	}
	unit := 10
	for i := int8(0); i < 6-fsp; i++ {
		unit *= 10
	}
	rounded := (micro7 + unit/2) / unit * unit / 10
	t.Microsecond = 0
	return t.addMicro(rounded)
}

// roundFrac rounds t's microseconds to fsp digits.
func (t Time) roundFrac(fsp int8) Time {
	return t.roundFracDigits(int(t.Microsecond), 6, fsp)
}

// addMicro adds us (< 2s) microseconds to t, carrying through the
// calendar; zero-part dates only carry within the day.
func (t Time) addMicro(us int) Time {
	total := int(t.Microsecond) + us
	t.Microsecond = uint32(total % 1000000)
	carry := total / 1000000
	if carry == 0 {
		return t
	}
	if t.Month == 0 || t.Day == 0 {
		t.Second += uint8(carry)
		return t
	}
	g := time.Date(int(t.Year), time.Month(t.Month), int(t.Day), int(t.Hour), int(t.Minute), int(t.Second)+carry, 0, time.UTC)
	n := FromGoTime(g, t.Type, t.Fsp)
	n.Microsecond = t.Microsecond
	return n
}

// RoundFsp returns t rounded to fsp fractional digits with Fsp set.
func (t Time) RoundFsp(fsp int8) Time {
	r := t.roundFrac(fsp)
	r.Fsp = fsp
	return r
}

// ToNumber returns t as MySQL's numeric form YYYYMMDD or YYYYMMDDhhmmss
// (plus .ffffff as a fraction when Fsp > 0).
func (t Time) ToNumber() float64 {
	v := float64(t.Year)*10000 + float64(t.Month)*100 + float64(t.Day)
	if t.Type == mysql.TypeDate || t.Type == mysql.TypeNewDate {
		return v
	}
	v = v*1000000 + float64(t.Hour)*10000 + float64(t.Minute)*100 + float64(t.Second)
	return v + float64(t.Microsecond)/1e6
}
