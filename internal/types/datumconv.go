package types

// ToInt64 converts the datum to a signed integer as MySQL does in an
// integer context (rounding, string prefix rules; see ConvertDatum for the
// errors). NULL gives 0.
func (d *Datum) ToInt64() (int64, error) { return datumToInt(d) }

// ToUint64 converts the datum to an unsigned integer (negative → 0 with
// ErrOverflow).
func (d *Datum) ToUint64() (uint64, error) { return datumToUint(d) }

// ToFloat64 converts the datum to a double. NULL gives 0.
func (d *Datum) ToFloat64() (float64, error) {
	if d.k == KindNull {
		return 0, nil
	}
	return datumToFloat(d)
}

// ToDecimal converts the datum to a decimal. NULL gives 0.
func (d *Datum) ToDecimal() (*Decimal, error) {
	if d.k == KindNull {
		return new(Decimal), nil
	}
	return datumToDecimal(d)
}

// ToBool reports the datum's truth value as MySQL's WHERE sees it: nonzero
// numbers are true, strings by their numeric prefix; ok is false for NULL.
func (d *Datum) ToBool() (v, ok bool) {
	switch d.k {
	case KindNull, KindMinNotNull, KindMaxValue:
		return false, false
	case KindInt64, KindUint64, KindDuration:
		return d.i != 0, true
	case KindDecimal:
		return !d.dec.IsZero(), true
	case KindTime:
		return d.i != 0, true
	}
	f, _ := datumToFloat(d)
	return f != 0, true
}

// Neg returns -d.
func (d *Decimal) Neg() *Decimal {
	r := new(Decimal)
	r.Set(&d.Decimal)
	if !r.IsZero() {
		r.Negative = !r.Negative
	}
	return r
}
