package types

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// ConvertDatum converts d to a value of column type ft as MySQL's INSERT
// does, returning the value to store and, when the value had to be
// changed, an error: ErrOverflow (clamped to the type's range),
// ErrTruncated, ErrIncorrectValue (stored as 0), ErrDataTooLong (string cut
// to the column length) or ErrWrongTimeValue (stored as the zero date). In
// strict sql_mode the SQL layer fails the statement on any error; otherwise
// it stores the returned value with a warning. NULL converts to NULL (NOT
// NULL is the caller's check), and so do MinNotNull/MaxValue (not values).
//
// Dates are checked for impossible days (Feb 30) here; the zero-date rules
// of sql_mode (NO_ZERO_DATE, NO_ZERO_IN_DATE) and the TIMESTAMP range, which
// depends on the session time zone, are the caller's (Time.Check).
func ConvertDatum(d Datum, ft *FieldType) (Datum, error) {
	if d.k == KindNull || d.k == KindMinNotNull || d.k == KindMaxValue {
		return d, nil
	}
	switch ft.Tp {
	case mysql.TypeEnum:
		return convertToEnum(&d, ft)
	case mysql.TypeSet:
		return convertToSet(&d, ft)
	case mysql.TypeBit:
		return convertToBit(&d, ft)
	case mysql.TypeJSON:
		return convertToJSON(&d)
	case mysql.TypeYear:
		r, err := convertToYear(&d, ft)
		if ft.IsUnsigned() {
			r = NewUintDatum(uint64(r.GetInt64()))
		}
		return r, err
	}
	switch ft.EvalType() {
	case ETInt:
		if ft.IsUnsigned() {
			v, err := datumToUint(&d)
			v, err2 := ConvertUintToType(v, ft.Tp)
			return NewUintDatum(v), firstErr(err2, err)
		}
		v, err := datumToInt(&d)
		v, err2 := ConvertIntToType(v, ft.Tp)
		return NewIntDatum(v), firstErr(err2, err)
	case ETReal:
		return convertToReal(&d, ft)
	case ETDecimal:
		dec, err := datumToDecimal(&d)
		r, err2 := dec.ToFieldType(ft.Flen, ft.Decimal)
		return NewDecimalDatum(r), firstErr(err2, err)
	case ETDatetime:
		t, err := datumToTime(&d, ft.Tp, ft.Fsp())
		return NewTimeDatum(t), err
	case ETDuration:
		v, err := datumToDuration(&d, ft.Fsp())
		return NewDurationDatum(v), err
	}
	return convertToString(&d, ft)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// ConvertIntToType clamps v to the range of the signed integer type tp
// (TINYINT -128..127, ..., BIGINT), with ErrOverflow when clamped.
func ConvertIntToType(v int64, tp byte) (int64, error) {
	lo, hi, _ := IntRange(tp)
	switch {
	case v < lo:
		return lo, fmt.Errorf("%w: %d for %s", ErrOverflow, v, TypeName(tp))
	case v > hi:
		return hi, fmt.Errorf("%w: %d for %s", ErrOverflow, v, TypeName(tp))
	}
	return v, nil
}

// ConvertUintToType clamps v to the range of the unsigned integer type tp
// (TINYINT UNSIGNED 0..255, ...), with ErrOverflow when clamped.
func ConvertUintToType(v uint64, tp byte) (uint64, error) {
	_, _, umax := IntRange(tp)
	if v > umax {
		return umax, fmt.Errorf("%w: %d for %s UNSIGNED", ErrOverflow, v, TypeName(tp))
	}
	return v, nil
}

func roundFloatToInt(f float64) (int64, error) {
	r := math.Round(f)
	if r < -9.223372036854775808e18 {
		return math.MinInt64, fmt.Errorf("%w: %v as BIGINT", ErrOverflow, f)
	}
	if r >= 9.223372036854775808e18 {
		return math.MaxInt64, fmt.Errorf("%w: %v as BIGINT", ErrOverflow, f)
	}
	return int64(r), nil
}

func datumToInt(d *Datum) (int64, error) {
	switch d.k {
	case KindInt64:
		return d.i, nil
	case KindUint64:
		if uint64(d.i) > math.MaxInt64 {
			return math.MaxInt64, fmt.Errorf("%w: %d as BIGINT", ErrOverflow, uint64(d.i))
		}
		return d.i, nil
	case KindFloat32, KindFloat64:
		return roundFloatToInt(d.GetFloat64())
	case KindDecimal:
		return d.dec.ToInt64()
	case KindString, KindBytes:
		return StrToInt(string(d.b))
	case KindTime:
		return roundFloatToInt(d.GetTime().ToNumber())
	case KindDuration:
		return roundFloatToInt(d.GetDuration().ToNumber())
	}
	return 0, nil
}

func datumToUint(d *Datum) (uint64, error) {
	switch d.k {
	case KindInt64:
		if d.i < 0 {
			return 0, fmt.Errorf("%w: %d as UNSIGNED", ErrOverflow, d.i)
		}
		return uint64(d.i), nil
	case KindUint64:
		return uint64(d.i), nil
	case KindFloat32, KindFloat64:
		f := math.Round(d.GetFloat64())
		if f < 0 {
			return 0, fmt.Errorf("%w: %v as UNSIGNED", ErrOverflow, f)
		}
		if f >= 1.8446744073709551616e19 {
			return math.MaxUint64, fmt.Errorf("%w: %v as UNSIGNED", ErrOverflow, f)
		}
		return uint64(f), nil
	case KindDecimal:
		return d.dec.ToUint64()
	case KindString, KindBytes:
		return StrToUint(string(d.b))
	}
	v, err := datumToInt(d)
	if v < 0 {
		return 0, fmt.Errorf("%w: %d as UNSIGNED", ErrOverflow, v)
	}
	return uint64(v), err
}

func datumToFloat(d *Datum) (float64, error) {
	switch d.k {
	case KindString, KindBytes:
		return StrToFloat(string(d.b))
	}
	return d.toFloatForCompare(), nil
}

func convertToReal(d *Datum, ft *FieldType) (Datum, error) {
	f, err := datumToFloat(d)
	if ft.Decimal > 0 && ft.Flen > 0 && ft.Decimal != UnspecifiedLength {
		// FLOAT(M,D): round to D decimals, at most M-D integer digits.
		p := math.Pow10(ft.Decimal)
		f = math.Round(f*p) / p
		limit := math.Pow10(ft.Flen-ft.Decimal) - 1/p
		if math.Abs(f) > limit {
			f = math.Copysign(limit, f)
			err = firstErr(fmt.Errorf("%w: %v for %s", ErrOverflow, f, ft), err)
		}
	}
	if ft.Tp == mysql.TypeFloat {
		if math.Abs(f) > math.MaxFloat32 {
			f = math.Copysign(math.MaxFloat32, f)
			err = firstErr(fmt.Errorf("%w: %v for FLOAT", ErrOverflow, f), err)
		}
		return NewFloat32Datum(float32(f)), err
	}
	return NewFloat64Datum(f), err
}

func datumToDecimal(d *Datum) (*Decimal, error) {
	switch d.k {
	case KindInt64:
		return NewDecFromInt(d.i), nil
	case KindUint64:
		return NewDecFromUint(uint64(d.i)), nil
	case KindDecimal:
		return d.dec, nil
	case KindString, KindBytes:
		return ParseDecimal(string(d.b))
	}
	f, _ := datumToFloat(d)
	return NewDecFromFloat(f)
}

func datumToTime(d *Datum, tp byte, fsp int8) (Time, error) {
	var t Time
	var err error
	switch d.k {
	case KindTime:
		t = d.GetTime()
		if tp == mysql.TypeDate {
			t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
		}
		t = t.RoundFsp(fsp)
		t.Type = tp
	case KindString, KindBytes:
		t, err = ParseTime(string(d.b), tp, fsp)
	case KindInt64, KindUint64:
		if d.i == 0 {
			return ZeroTime(tp, fsp), nil
		}
		t, err = ParseTime(strconv.FormatUint(uint64(d.i), 10), tp, fsp)
	case KindDecimal:
		t, err = ParseTime(d.dec.String(), tp, fsp)
	case KindFloat32, KindFloat64:
		t, err = ParseTime(strconv.FormatFloat(d.GetFloat64(), 'f', -1, 64), tp, fsp)
	default:
		err = fmt.Errorf("%w: '%s'", ErrWrongTimeValue, d.String())
	}
	if err != nil {
		return ZeroTime(tp, fsp), err
	}
	if tp == mysql.TypeDate {
		t.Hour, t.Minute, t.Second, t.Microsecond = 0, 0, 0, 0
	}
	if err := t.Check(true, true); err != nil {
		return ZeroTime(tp, fsp), err
	}
	return t, nil
}

// timeOfDay is the TIME of a datetime's time of day.
func timeOfDay(t Time, fsp int8) Duration {
	v := time.Duration(t.Hour)*time.Hour + time.Duration(t.Minute)*time.Minute +
		time.Duration(t.Second)*time.Second + time.Duration(t.Microsecond)*time.Microsecond
	return Duration{D: v, Fsp: fsp}.RoundFsp(fsp)
}

func datumToDuration(d *Datum, fsp int8) (Duration, error) {
	switch d.k {
	case KindDuration:
		return d.GetDuration().RoundFsp(fsp).CheckRange()
	case KindTime:
		return timeOfDay(d.GetTime(), fsp), nil
	case KindString, KindBytes:
		v, err := ParseDuration(string(d.b), fsp)
		if errors.Is(err, ErrWrongTimeValue) {
			// A date and time reads as its time of day, as MySQL does.
			if t, terr := ParseTime(string(d.b), mysql.TypeDatetime, fsp); terr == nil && t.Month != 0 {
				return timeOfDay(t, fsp), nil
			}
		}
		return v, err
	case KindInt64:
		return ParseDuration(strconv.FormatInt(d.i, 10), fsp)
	case KindUint64:
		return ParseDuration(strconv.FormatUint(uint64(d.i), 10), fsp)
	}
	return ParseDuration(d.String(), fsp)
}

// maxBlobLength returns the byte limit of BLOB/TEXT types, 0 for others.
func maxBlobLength(tp byte) int {
	switch tp {
	case mysql.TypeTinyBlob:
		return 255
	case mysql.TypeBlob:
		return 65535
	case mysql.TypeMediumBlob:
		return 1<<24 - 1
	case mysql.TypeLongBlob:
		return 1<<32 - 1
	}
	return 0
}

func convertToString(d *Datum, ft *FieldType) (Datum, error) {
	var b []byte
	switch d.k {
	case KindString, KindBytes:
		b = d.b
	case KindFloat32:
		b = AppendFloat(nil, d.GetFloat64(), 32, -1)
	case KindFloat64:
		b = AppendFloat(nil, d.GetFloat64(), 64, -1)
	default:
		b = []byte(d.String())
	}
	binary := ft.IsBinaryString()
	mk := func(v []byte) Datum {
		if binary {
			return NewBytesDatum(v)
		}
		return Datum{k: KindString, b: v}
	}
	var err error
	if limit := maxBlobLength(ft.Tp); limit > 0 {
		if len(b) > limit {
			cut := limit
			if !binary {
				for cut > 0 && !utf8.RuneStart(b[cut]) {
					cut--
				}
			}
			b, err = b[:cut], fmt.Errorf("%w: %d bytes for %s", ErrDataTooLong, len(b), ft)
		}
		return mk(b), err
	}
	if ft.Flen >= 0 {
		b, err = truncateToChars(b, ft.Flen, binary)
		if err != nil {
			err = fmt.Errorf("%w: for %s", err, ft)
		}
	}
	if ft.Tp == mysql.TypeString {
		if binary {
			// BINARY(n) pads with 0x00 to n bytes.
			for len(b) < ft.Flen {
				b = append(b[:len(b):len(b)], 0)
			}
		} else {
			// CHAR(n) is stored without trailing spaces (as MySQL returns it).
			n := len(b)
			for n > 0 && b[n-1] == ' ' {
				n--
			}
			b = b[:n]
		}
	}
	return mk(b), err
}

// truncateToChars cuts b to n characters (bytes when binary); a cut of
// trailing spaces only is not an error, anything else is ErrDataTooLong.
func truncateToChars(b []byte, n int, binary bool) ([]byte, error) {
	cut := -1
	if binary {
		if len(b) > n {
			cut = n
		}
	} else if len(b) > n {
		chars := 0
		for i := range string(b) {
			if chars == n {
				cut = i
				break
			}
			chars++
		}
	}
	if cut < 0 {
		return b, nil
	}
	for _, c := range b[cut:] {
		if c != ' ' {
			return b[:cut], ErrDataTooLong
		}
	}
	return b[:cut], nil
}
