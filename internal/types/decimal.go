package types

import (
	"fmt"
	"math"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// Decimal is an exact MySQL DECIMAL value (up to 65 digits, 30 after the
// point), over apd. The scale of a value is -Exponent (for Exponent <= 0):
// 1.50 has scale 2 and prints with two decimals, as MySQL keeps it.
type Decimal struct {
	apd.Decimal
}

// Decimal limits (MySQL).
const (
	MaxDecimalPrecision = 65 // digits in total
	MaxDecimalScale     = 30 // digits after the point
	// DivPrecisionIncrement is MySQL's div_precision_increment default: a
	// quotient has the dividend's scale plus this many digits.
	DivPrecisionIncrement = 4
)

// decCtx computes with more digits than MySQL keeps, rounding half away
// from zero as MySQL does; results are rounded to their scale afterwards.
var decCtx = apd.Context{
	Precision:   2 * MaxDecimalPrecision,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Traps:       apd.InvalidOperation,
	Rounding:    apd.RoundHalfUp,
}

// NewDecFromInt returns the decimal of an int64 (scale 0).
func NewDecFromInt(v int64) *Decimal {
	d := new(Decimal)
	d.SetInt64(v)
	return d
}

// NewDecFromUint returns the decimal of a uint64 (scale 0).
func NewDecFromUint(v uint64) *Decimal {
	d := new(Decimal)
	d.Coeff.SetUint64(v)
	d.Exponent = 0
	return d
}

// NewDecFromFloat returns the decimal of a float64 (shortest digits that
// round-trip); NaN and infinities are ErrOverflow.
func NewDecFromFloat(f float64) (*Decimal, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return new(Decimal), fmt.Errorf("%w: %v as DECIMAL", ErrOverflow, f)
	}
	d := new(Decimal)
	if _, err := d.SetFloat64(f); err != nil {
		return new(Decimal), fmt.Errorf("%w: %v as DECIMAL", ErrOverflow, f)
	}
	if d.Exponent < -MaxDecimalScale {
		_ = d.Round(d, MaxDecimalScale)
	}
	return d, nil
}

// ParseDecimal parses a decimal literal ('1.50', '-3', '.5', '1e3',
// surrounding spaces allowed). Trailing garbage gives the value of the
// valid prefix and ErrTruncated; no digits at all gives 0 and
// ErrIncorrectValue.
func ParseDecimal(s string) (*Decimal, error) {
	t := strings.TrimSpace(s)
	n := numberPrefixLen(t, true)
	d := new(Decimal)
	if n == 0 {
		return d, fmt.Errorf("%w: DECIMAL value: '%s'", ErrIncorrectValue, s)
	}
	num := t[:n]
	if _, _, err := d.SetString(num); err != nil {
		return new(Decimal), fmt.Errorf("%w: DECIMAL value: '%s'", ErrIncorrectValue, s)
	}
	if d.Form != apd.Finite {
		return new(Decimal), fmt.Errorf("%w: DECIMAL value: '%s'", ErrIncorrectValue, s)
	}
	if d.Exponent > 0 {
		// 1e3 is the integer 1000 (scale 0), not 1×10^3.
		_, _ = decCtx.Quantize(&d.Decimal, &d.Decimal, 0)
	}
	if d.Exponent < -MaxDecimalScale {
		_ = d.Round(d, MaxDecimalScale)
	}
	if n < len(t) {
		return d, fmt.Errorf("%w: DECIMAL value: '%s'", ErrTruncated, s)
	}
	return d, nil
}

// numberPrefixLen returns the length of the longest prefix of s that is a
// number: [+-]digits[.digits][e[+-]digits]; a bare sign or point is not.
func numberPrefixLen(s string, allowExp bool) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		fd := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
			fd++
		}
		if digits+fd > 0 {
			i = j
			digits += fd
		}
	}
	if digits == 0 {
		return 0
	}
	if allowExp && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j {
			i = k
		}
	}
	return i
}

// Scale returns the number of digits after the point.
func (d *Decimal) Scale() int {
	if d.Exponent >= 0 {
		return 0
	}
	return int(-d.Exponent)
}

// IntDigits returns the number of digits before the point (0 for |d| < 1).
func (d *Decimal) IntDigits() int {
	n := int(d.NumDigits()) + int(d.Exponent)
	if d.IsZero() || n < 0 {
		return 0
	}
	return n
}

// String formats d with its own scale, as MySQL prints it: "1.50",
// "-0.5", "100".
func (d *Decimal) String() string {
	if d.Exponent > 0 {
		var q apd.Decimal
		_, _ = decCtx.Quantize(&q, &d.Decimal, 0)
		return q.Text('f')
	}
	if d.IsZero() && d.Negative {
		c := *d
		c.Negative = false
		return c.Text('f')
	}
	return d.Text('f')
}

// StringScale formats d rounded to scale digits after the point.
func (d *Decimal) StringScale(scale int) string {
	var r Decimal
	_ = r.Round(d, scale)
	return r.String()
}

// Round sets d to x rounded half away from zero to scale digits after the
// point (scale may be negative: -2 rounds to hundreds) and returns an error
// only for a result beyond apd's limits.
func (d *Decimal) Round(x *Decimal, scale int) error {
	_, err := decCtx.Quantize(&d.Decimal, &x.Decimal, int32(-scale))
	if err == nil && scale < 0 {
		_, err = decCtx.Quantize(&d.Decimal, &d.Decimal, 0)
	}
	if d.IsZero() {
		d.Negative = false
	}
	return err
}

// Compare returns -1, 0 or 1 as d is less than, equal to or greater than o.
func (d *Decimal) Compare(o *Decimal) int { return d.Cmp(&o.Decimal) }

// Add returns a + b with the larger of their scales.
func (d *Decimal) Add(o *Decimal) (*Decimal, error) {
	r := new(Decimal)
	if _, err := decCtx.Add(&r.Decimal, &d.Decimal, &o.Decimal); err != nil {
		return r, fmt.Errorf("%w: DECIMAL", ErrOverflow)
	}
	return r, checkDecRange(r)
}

// Accumulate sets d to d + o in place: Add without a new Decimal (a SUM
// adding a value per row).
func (d *Decimal) Accumulate(o *Decimal) error {
	if _, err := decCtx.Add(&d.Decimal, &d.Decimal, &o.Decimal); err != nil {
		return fmt.Errorf("%w: DECIMAL", ErrOverflow)
	}
	return checkDecRange(d)
}

// Sub returns d - o with the larger of their scales.
func (d *Decimal) Sub(o *Decimal) (*Decimal, error) {
	r := new(Decimal)
	if _, err := decCtx.Sub(&r.Decimal, &d.Decimal, &o.Decimal); err != nil {
		return r, fmt.Errorf("%w: DECIMAL", ErrOverflow)
	}
	return r, checkDecRange(r)
}

// Mul returns d × o with scale min(scale(d)+scale(o), 30).
func (d *Decimal) Mul(o *Decimal) (*Decimal, error) {
	r := new(Decimal)
	if _, err := decCtx.Mul(&r.Decimal, &d.Decimal, &o.Decimal); err != nil {
		return r, fmt.Errorf("%w: DECIMAL", ErrOverflow)
	}
	if r.Scale() > MaxDecimalScale {
		_ = r.Round(r, MaxDecimalScale)
	}
	return r, checkDecRange(r)
}

// Div returns d / o rounded to scale(d) + DivPrecisionIncrement digits
// (at most 30), as MySQL does: 1/3 = 0.3333, 2.0/3 = 0.66667. Division by
// zero returns ErrDivByZero.
func (d *Decimal) Div(o *Decimal) (*Decimal, error) {
	r := new(Decimal)
	if o.IsZero() {
		return r, ErrDivByZero
	}
	if _, err := decCtx.Quo(&r.Decimal, &d.Decimal, &o.Decimal); err != nil {
		return r, fmt.Errorf("%w: DECIMAL", ErrOverflow)
	}
	// MySQL computes a quotient in whole 9-digit words: the scales of
	// the operands rounded up to words, plus what is left of
	// div_precision_increment after that rounding, rounded up to a word
	// again, and truncated there (1/3 is 0.333333333, so 1/3*3 shows as
	// 1.0000). The result type's scale (dividend's + 4) rounds it for
	// display and storage.
	f1, f2 := d.Scale(), o.Scale()
	w1, w2 := roundUpWord(f1), roundUpWord(f2)
	incr := max(DivPrecisionIncrement-(w1-f1)-(w2-f2), 0)
	frac := min(roundUpWord(w1+w2+incr), maxDivScale)
	var t apd.Decimal
	if _, err := decTruncCtx.Quantize(&t, &r.Decimal, -int32(frac)); err == nil {
		r.Set(&t)
	}
	return r, checkDecRange(r)
}

// maxDivScale caps the digits a quotient keeps after the point (MySQL
// keeps whole words, beyond the 30 it displays).
const maxDivScale = 36

// decTruncCtx truncates, as MySQL's long division does.
var decTruncCtx = apd.Context{
	Precision:   3 * MaxDecimalPrecision,
	MaxExponent: apd.MaxExponent,
	MinExponent: apd.MinExponent,
	Traps:       apd.InvalidOperation,
	Rounding:    apd.RoundDown,
}

func roundUpWord(digits int) int { return (digits + 8) / 9 * 9 }

func checkDecRange(r *Decimal) error {
	if r.IntDigits() > MaxDecimalPrecision {
		return fmt.Errorf("%w: DECIMAL result", ErrOverflow)
	}
	return nil
}

// ToInt64 rounds d half away from zero to an int64; out of range gives the
// clamped value and ErrOverflow.
func (d *Decimal) ToInt64() (int64, error) {
	var r Decimal
	_ = r.Round(d, 0)
	v, err := r.Int64()
	if err != nil {
		if r.Negative {
			return math.MinInt64, fmt.Errorf("%w: %s as BIGINT", ErrOverflow, d)
		}
		return math.MaxInt64, fmt.Errorf("%w: %s as BIGINT", ErrOverflow, d)
	}
	return v, nil
}

// ToUint64 rounds d half away from zero to a uint64; negative or too large
// values give the clamped value and ErrOverflow.
func (d *Decimal) ToUint64() (uint64, error) {
	var r Decimal
	_ = r.Round(d, 0)
	if r.Negative && !r.IsZero() {
		return 0, fmt.Errorf("%w: %s as BIGINT UNSIGNED", ErrOverflow, d)
	}
	if r.Exponent != 0 || !r.Coeff.IsUint64() {
		return math.MaxUint64, fmt.Errorf("%w: %s as BIGINT UNSIGNED", ErrOverflow, d)
	}
	return r.Coeff.Uint64(), nil
}

// ToFloat64 returns the nearest float64.
func (d *Decimal) ToFloat64() float64 {
	f, _ := d.Float64()
	return f
}

// ToFieldType rounds d to the column's scale and checks its precision
// (DECIMAL(flen, dec)): too many integer digits give the largest value of
// the type with d's sign (999.99 for DECIMAL(5,2)) and ErrOverflow; lost
// fractional digits are not an error (MySQL rounds silently on INSERT of a
// decimal, with a note only).
func (d *Decimal) ToFieldType(flen, dec int) (*Decimal, error) {
	if flen <= 0 || flen > MaxDecimalPrecision {
		flen = MaxDecimalPrecision
	}
	if dec < 0 {
		dec = 0
	}
	if dec > MaxDecimalScale {
		dec = MaxDecimalScale
	}
	r := new(Decimal)
	_ = r.Round(d, dec)
	if r.IntDigits() > flen-dec {
		m := new(Decimal)
		nines := strings.Repeat("9", flen-dec)
		if nines == "" {
			nines = "0"
		}
		if dec > 0 {
			nines += "." + strings.Repeat("9", dec)
		}
		_, _, _ = m.SetString(nines)
		m.Negative = d.Negative
		return m, fmt.Errorf("%w: %s for DECIMAL(%d,%d)", ErrOverflow, d, flen, dec)
	}
	return r, nil
}
