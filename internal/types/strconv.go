package types

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// StrToInt converts a string to a signed integer as MySQL does on INSERT:
// surrounding spaces are ignored, a fraction or exponent rounds half away
// from zero ('1.5' → 2, '1e3' → 1000), an out of range value is clamped
// with ErrOverflow, trailing garbage keeps the numeric prefix with
// ErrTruncated ('12abc' → 12), and no number at all is 0 with
// ErrIncorrectValue.
func StrToInt(s string) (int64, error) {
	t := strings.TrimSpace(s)
	n := numberPrefixLen(t, true)
	if n == 0 {
		return 0, fmt.Errorf("%w: integer value: '%s'", ErrIncorrectValue, s)
	}
	num := t[:n]
	var v int64
	if isIntLiteral(num) {
		var err error
		v, err = strconv.ParseInt(num, 10, 64)
		if err != nil {
			return v, fmt.Errorf("%w: '%s' as BIGINT", ErrOverflow, s)
		}
	} else {
		d, err := ParseDecimal(num)
		if err != nil {
			return 0, err
		}
		if v, err = d.ToInt64(); err != nil {
			return v, err
		}
	}
	if n < len(t) {
		return v, fmt.Errorf("%w: integer value '%s'", ErrTruncated, s)
	}
	return v, nil
}

// StrToUint is StrToInt for unsigned targets: negative values are clamped
// to 0 and values above 2^64-1 to 2^64-1, with ErrOverflow.
func StrToUint(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	n := numberPrefixLen(t, true)
	if n == 0 {
		return 0, fmt.Errorf("%w: integer value: '%s'", ErrIncorrectValue, s)
	}
	num := t[:n]
	var v uint64
	if isIntLiteral(num) && num[0] != '-' {
		var err error
		v, err = strconv.ParseUint(strings.TrimPrefix(num, "+"), 10, 64)
		if err != nil {
			return v, fmt.Errorf("%w: '%s' as BIGINT UNSIGNED", ErrOverflow, s)
		}
	} else {
		d, err := ParseDecimal(num)
		if err != nil {
			return 0, err
		}
		if v, err = d.ToUint64(); err != nil {
			return v, err
		}
	}
	if n < len(t) {
		return v, fmt.Errorf("%w: integer value '%s'", ErrTruncated, s)
	}
	return v, nil
}

func isIntLiteral(s string) bool {
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	return isAllDigits(s)
}

// StrToFloat converts a string to a double: spaces ignored, trailing
// garbage keeps the numeric prefix with ErrTruncated, no number is 0 with
// ErrIncorrectValue, beyond ±1.8e308 is clamped with ErrOverflow.
func StrToFloat(s string) (float64, error) {
	t := strings.TrimSpace(s)
	n := numberPrefixLen(t, true)
	if n == 0 {
		return 0, fmt.Errorf("%w: double value: '%s'", ErrIncorrectValue, s)
	}
	f, err := strconv.ParseFloat(t[:n], 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			if math.IsInf(f, 0) {
				f = math.Copysign(math.MaxFloat64, f)
			}
			return f, fmt.Errorf("%w: '%s' as DOUBLE", ErrOverflow, s)
		}
		return 0, fmt.Errorf("%w: double value: '%s'", ErrIncorrectValue, s)
	}
	if n < len(t) {
		return f, fmt.Errorf("%w: double value '%s'", ErrTruncated, s)
	}
	return f, nil
}

const (
	expFormatBig   = 1e15
	expFormatSmall = 1e-15
)

// FormatFloat formats a FLOAT (bitSize 32) or DOUBLE (64) as MySQL prints
// it: with dec >= 0 digits after the point when the column declares them,
// otherwise the shortest digits that round-trip, in plain notation for
// 1e-15 <= |f| < 1e15 and as '1.5e15' / '1e-16' (no '+', no padding)
// outside.
func FormatFloat(f float64, bitSize, dec int) string {
	return string(AppendFloat(nil, f, bitSize, dec))
}

// AppendFloat appends FormatFloat's text to b.
func AppendFloat(b []byte, f float64, bitSize, dec int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	if dec >= 0 && dec < 31 {
		return strconv.AppendFloat(b, f, 'f', dec, bitSize)
	}
	abs := math.Abs(f)
	if bitSize == 32 {
		abs = float64(float32(abs))
	}
	if abs >= expFormatBig || (abs != 0 && abs < expFormatSmall) {
		start := len(b)
		b = strconv.AppendFloat(b, f, 'e', -1, bitSize)
		// Drop the '+' of the exponent: 1e+20 → 1e20.
		for i := start; i < len(b); i++ {
			if b[i] == '+' {
				b = append(b[:i], b[i+1:]...)
				break
			}
		}
		return b
	}
	return strconv.AppendFloat(b, f, 'f', -1, bitSize)
}
