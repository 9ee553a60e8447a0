package types

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Duration is a MySQL TIME value: a signed span (MySQL's range is
// -838:59:59 to 838:59:59) with a fractional seconds precision.
type Duration struct {
	D   time.Duration
	Fsp int8
}

// MaxDuration is the largest TIME value, 838:59:59.
const MaxDuration = 838*time.Hour + 59*time.Minute + 59*time.Second

// Compare orders two durations by value.
func (d Duration) Compare(o Duration) int {
	switch {
	case d.D < o.D:
		return -1
	case d.D > o.D:
		return 1
	}
	return 0
}

// String formats d as '[-]HH:MM:SS[.ffffff]' with Fsp fractional digits
// (hours may exceed 24: '838:59:59').
func (d Duration) String() string { return string(d.AppendFormat(nil)) }

// AppendFormat appends String's text to b.
func (d Duration) AppendFormat(b []byte) []byte {
	v := d.D
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	us := int64(v / time.Microsecond)
	secs := us / 1000000
	b = appendPad(b, int(secs/3600), 2)
	b = append(b, ':')
	b = appendPad(b, int(secs/60%60), 2)
	b = append(b, ':')
	b = appendPad(b, int(secs%60), 2)
	return appendFrac(b, int(us%1000000), d.Fsp)
}

// RoundFsp returns d rounded half away from zero to fsp fractional digits,
// with Fsp set.
func (d Duration) RoundFsp(fsp int8) Duration {
	unit := time.Duration(1000)
	for i := int8(0); i < 6-fsp; i++ {
		unit *= 10
	}
	v := d.D
	neg := v < 0
	if neg {
		v = -v
	}
	v = (v + unit/2) / unit * unit
	if neg {
		v = -v
	}
	return Duration{D: v, Fsp: fsp}
}

// CheckRange clamps d to ±838:59:59; a clamped value comes with
// ErrOverflow.
func (d Duration) CheckRange() (Duration, error) {
	switch {
	case d.D > MaxDuration:
		return Duration{D: MaxDuration, Fsp: d.Fsp}, fmt.Errorf("%w: time value %s", ErrOverflow, d)
	case d.D < -MaxDuration:
		return Duration{D: -MaxDuration, Fsp: d.Fsp}, fmt.Errorf("%w: time value %s", ErrOverflow, d)
	}
	return d, nil
}

// ParseDuration parses a TIME literal: '[-][D ]HH:MM:SS[.ffffff]',
// 'HH:MM', '[-]HHMMSS[.ffffff]', 'MMSS', 'SS'. Fractional digits beyond fsp
// are rounded. Values beyond ±838:59:59 are clamped with ErrOverflow;
// malformed strings give ErrWrongTimeValue.
func ParseDuration(s string, fsp int8) (Duration, error) {
	str := strings.TrimSpace(s)
	bad := func() (Duration, error) {
		return Duration{Fsp: fsp}, fmt.Errorf("%w: '%s'", ErrWrongTimeValue, s)
	}
	neg := false
	if strings.HasPrefix(str, "-") {
		neg = true
		str = str[1:]
	}
	if str == "" {
		return bad()
	}
	fracStr := ""
	if i := strings.IndexByte(str, '.'); i >= 0 {
		str, fracStr = str[:i], str[i+1:]
	}
	var days, h, m, sec int
	var err error
	if i := strings.IndexByte(str, ' '); i >= 0 {
		if days, err = strconv.Atoi(str[:i]); err != nil || days < 0 {
			return bad()
		}
		str = strings.TrimSpace(str[i+1:])
	}
	if strings.IndexByte(str, ':') >= 0 {
		parts := strings.Split(str, ":")
		if len(parts) > 3 {
			return bad()
		}
		vals := [3]int{}
		for i, p := range parts {
			if !isAllDigits(p) {
				return bad()
			}
			vals[i], _ = strconv.Atoi(p)
		}
		h, m, sec = vals[0], vals[1], vals[2]
	} else {
		if !isAllDigits(str) {
			return bad()
		}
		v, _ := strconv.Atoi(str)
		h, m, sec = v/10000, v/100%100, v%100
	}
	if m > 59 || sec > 59 {
		return bad()
	}
	frac, fracDigits := parseFracDigits(fracStr)
	if fracDigits < 0 {
		return bad()
	}
	micro7 := int64(frac) * 10
	if fracDigits > 6 {
		micro7 = int64(frac)
	}
	total := (time.Duration(days*24+h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(sec)*time.Second) +
		time.Duration(micro7)*100
	if neg {
		total = -total
	}
	return Duration{D: total, Fsp: fsp}.RoundFsp(fsp).CheckRange()
}

// ToNumber returns d as MySQL's numeric form [-]HHMMSS[.ffffff].
func (d Duration) ToNumber() float64 {
	v := d.D
	sign := 1.0
	if v < 0 {
		sign, v = -1, -v
	}
	us := int64(v / time.Microsecond)
	secs := us / 1000000
	n := float64(secs/3600*10000 + secs/60%60*100 + secs%60)
	return sign * (n + float64(us%1000000)/1e6)
}
