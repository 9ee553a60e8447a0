package statistics

import (
	"unicode/utf8"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// MaxValueLen bounds the bytes of a string value the statistics keep: a
// longer value is cut to its first MaxValueLen bytes (at a character
// boundary) before it is encoded, when ANALYZE builds and when callers
// estimate alike, so that histograms stay small.
const MaxValueLen = 256

// cutLong returns d cut to MaxValueLen bytes if it is a long string.
func cutLong(d types.Datum) types.Datum {
	switch d.Kind() {
	case types.KindBytes:
		if b := d.GetBytes(); len(b) > MaxValueLen {
			return types.NewBytesDatum(b[:MaxValueLen])
		}
	case types.KindString:
		if b := d.GetBytes(); len(b) > MaxValueLen {
			n := MaxValueLen
			for n > 0 && !utf8.RuneStart(b[n]) {
				n--
			}
			return types.NewStringDatumBytes(b[:n])
		}
	}
	return d
}

// encodeValue appends the statistics' encoding of d, a value of column
// type ft (a caller's value of another kind is converted to ft first, as
// the comparison with the column would); prefix is an index prefix
// length (-1: none).
func encodeValue(b []byte, d types.Datum, ft *types.FieldType, prefix int) []byte {
	if ft != nil && needsConversion(d, ft) {
		// A value out of the column's range converts to the nearest
		// one (with an error we ignore): right for ranges, close enough
		// for equalities.
		c, _ := types.ConvertDatum(d, ft)
		d = c
	}
	return codec.EncodeKey(b, cutLong(keyDatum(ft, d, prefix)))
}

// keyDatum is the datum the statistics keep for value d of a column of
// type ft under an index prefix length (-1: none): the value as an index
// key holds it, a collation's sort key for a _ci string column, so that
// values the collation calls equal are one value.
func keyDatum(ft *types.FieldType, d types.Datum, prefix int) types.Datum {
	d = catalog.TruncatePrefix(d, prefix)
	if ft == nil {
		return d
	}
	return expr.IndexKeyDatum(ft, d)
}

// needsConversion reports whether d is not already encoded as ft's
// values are (a decimal always converts: its scale must be the column's).
func needsConversion(d types.Datum, ft *types.FieldType) bool {
	switch d.Kind() {
	case types.KindNull, types.KindMinNotNull, types.KindMaxValue:
		return false
	case types.KindDecimal:
		return true
	}
	want := kindOf(ft)
	if want == types.KindString {
		return d.Kind() != types.KindString && d.Kind() != types.KindBytes
	}
	return d.Kind() != want
}

// kindOf is the datum kind the values of a column of type ft have.
func kindOf(ft *types.FieldType) types.Kind {
	d, _ := types.ConvertDatum(types.NewIntDatum(0), ft)
	if d.Kind() == types.KindBytes {
		return types.KindString
	}
	return d.Kind()
}
