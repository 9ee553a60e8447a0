package types

import (
	"bytes"
	"cmp"
	"math"
)

// Compare orders d against o by MySQL's comparison rules, with binary
// (byte-wise) string comparison for now:
//
//   - NULL < MinNotNull < every value < MaxValue; two NULLs compare equal
//     (the order of sorting and of range bounds; SQL's three-valued "="
//     is the evaluator's business);
//   - numbers compare by value across Int64, Uint64, Float and Decimal
//     (exactly for integer/decimal pairs, as doubles when a float is
//     involved);
//   - strings and bytes compare byte-wise;
//   - times and durations compare by value; against a string, the string
//     is parsed as a time (or duration); against a number, the time's
//     numeric form (YYYYMMDDhhmmss) is used;
//   - a string against a number compares both as doubles.
func (d *Datum) Compare(o *Datum) int {
	if d.k == o.k {
		return d.compareSameKind(o)
	}
	if r, ok := compareBounds(d.k, o.k); ok {
		return r
	}
	switch {
	case d.k == KindJSON || o.k == KindJSON:
		a, b := d.ToJSON(), o.ToJSON()
		return CompareJSON(&a, &b)
	case d.k == KindEnum || d.k == KindSet:
		if o.isNumber() {
			n := NewUintDatum(uint64(d.i))
			return compareNumbers(&n, o)
		}
		return bytes.Compare(d.b, []byte(o.String()))
	case o.k == KindEnum || o.k == KindSet:
		return -o.Compare(d)
	case d.isNumber() && o.isNumber():
		return compareNumbers(d, o)
	case d.isString() && o.isString():
		return bytes.Compare(d.b, o.b)
	case d.k == KindTime && o.isString():
		t, err := ParseTime(string(o.b), d.tp, MaxFsp)
		if err != nil {
			return bytes.Compare([]byte(d.GetTime().String()), o.b)
		}
		return d.GetTime().Compare(t)
	case d.isString() && o.k == KindTime:
		return -o.Compare(d)
	case d.k == KindDuration && o.isString():
		t, err := ParseDuration(string(o.b), MaxFsp)
		if err != nil {
			return bytes.Compare([]byte(d.GetDuration().String()), o.b)
		}
		return d.GetDuration().Compare(t)
	case d.isString() && o.k == KindDuration:
		return -o.Compare(d)
	}
	return cmp.Compare(d.toFloatForCompare(), o.toFloatForCompare())
}

func compareBounds(a, b Kind) (int, bool) {
	rank := func(k Kind) int {
		switch k {
		case KindNull:
			return 0
		case KindMinNotNull:
			return 1
		case KindMaxValue:
			return 3
		}
		return 2
	}
	ra, rb := rank(a), rank(b)
	if ra == 2 && rb == 2 {
		return 0, false
	}
	return cmp.Compare(ra, rb), true
}

func (d *Datum) isNumber() bool {
	switch d.k {
	case KindInt64, KindUint64, KindFloat32, KindFloat64, KindDecimal:
		return true
	}
	return false
}

func (d *Datum) isString() bool { return d.k == KindString || d.k == KindBytes }

func (d *Datum) compareSameKind(o *Datum) int {
	switch d.k {
	case KindNull, KindMinNotNull, KindMaxValue:
		return 0
	case KindInt64, KindDuration:
		return cmp.Compare(d.i, o.i)
	case KindUint64, KindTime, KindEnum, KindSet:
		return cmp.Compare(uint64(d.i), uint64(o.i))
	case KindFloat32, KindFloat64:
		return cmp.Compare(d.GetFloat64(), o.GetFloat64())
	case KindString, KindBytes:
		return bytes.Compare(d.b, o.b)
	case KindDecimal:
		return d.dec.Compare(o.dec)
	case KindJSON:
		a, b := d.ToJSON(), o.ToJSON()
		return CompareJSON(&a, &b)
	}
	return 0
}

func compareNumbers(d, o *Datum) int {
	switch {
	case d.k == KindInt64 && o.k == KindUint64:
		if d.i < 0 {
			return -1
		}
		return cmp.Compare(uint64(d.i), uint64(o.i))
	case d.k == KindUint64 && o.k == KindInt64:
		return -compareNumbers(o, d)
	case d.k == KindFloat32 || d.k == KindFloat64 || o.k == KindFloat32 || o.k == KindFloat64:
		return cmp.Compare(d.toFloatForCompare(), o.toFloatForCompare())
	}
	// Integer and decimal: exact, in decimal.
	return d.toDecimal().Compare(o.toDecimal())
}

func (d *Datum) toDecimal() *Decimal {
	switch d.k {
	case KindInt64:
		return NewDecFromInt(d.i)
	case KindUint64:
		return NewDecFromUint(uint64(d.i))
	case KindDecimal:
		return d.dec
	}
	return new(Decimal)
}

// toFloatForCompare converts any non-bound datum to a double the way MySQL
// does when comparing mixed types (strings by their numeric prefix).
func (d *Datum) toFloatForCompare() float64 {
	switch d.k {
	case KindInt64:
		return float64(d.i)
	case KindUint64:
		return float64(uint64(d.i))
	case KindFloat32, KindFloat64:
		return d.GetFloat64()
	case KindDecimal:
		return d.dec.ToFloat64()
	case KindString, KindBytes:
		f, _ := StrToFloat(string(d.b))
		return f
	case KindTime:
		return d.GetTime().ToNumber()
	case KindDuration:
		return d.GetDuration().ToNumber()
	case KindEnum, KindSet:
		return float64(uint64(d.i))
	case KindJSON:
		j, _ := d.GetJSON()
		return j.ToFloat()
	}
	return math.NaN()
}
