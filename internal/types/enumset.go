package types

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ENUM, SET and BIT values. An ENUM stores the 1-based index of its
// member (0 for the '' MySQL stores for an invalid value outside strict
// mode), a SET the bitmask of its members (bit i for member i), a BIT(n)
// an unsigned integer below 2^n. ENUM and SET datums carry their text as
// well (KindEnum, KindSet), so that string contexts see the names and
// numeric contexts the index or mask.

// ciCollation reports a case-insensitive collation (ENUM and SET members
// match by the column's collation).
func ciCollation(collate string) bool { return strings.HasSuffix(collate, "_ci") }

// matchElem returns the 0-based position of s among elems by the
// collation, -1 if none; trailing spaces are ignored, as MySQL strips
// them from member names.
func matchElem(elems []string, s string, ci bool) int {
	s = strings.TrimRight(s, " ")
	for i, e := range elems {
		if e == s || (ci && strings.EqualFold(e, s)) {
			return i
		}
	}
	return -1
}

// EnumDatum returns the ENUM datum of index i of column type ft (” and
// index 0 when i is not a member).
func (ft *FieldType) EnumDatum(i uint64) Datum {
	if i == 0 || i > uint64(len(ft.Elems)) {
		return NewEnumDatum("", 0)
	}
	return NewEnumDatum(ft.Elems[i-1], i)
}

// SetDatum returns the SET datum of bitmask m of column type ft (bits
// without a member are dropped).
func (ft *FieldType) SetDatum(m uint64) Datum {
	if m == 0 {
		return NewSetDatum("", 0)
	}
	var sb strings.Builder
	var kept uint64
	for i, e := range ft.Elems {
		if i < 64 && m&(1<<i) != 0 {
			if sb.Len() > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(e)
			kept |= 1 << i
		}
	}
	return NewSetDatum(sb.String(), kept)
}

// EnumIndexBytes returns the 1-based index of an ENUM column's member
// named exactly name (as stored), 0 if none.
func (ft *FieldType) EnumIndexBytes(name []byte) uint64 {
	for i, e := range ft.Elems {
		if e == string(name) {
			return uint64(i + 1)
		}
	}
	return 0
}

// SetMask returns the bitmask of a SET column's stored text (members
// separated by commas, as SetDatum writes them).
func (ft *FieldType) SetMask(text []byte) uint64 {
	var m uint64
	for len(text) > 0 {
		part := text
		if i := bytes.IndexByte(text, ','); i >= 0 {
			part, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		for i, e := range ft.Elems {
			if i < 64 && e == string(part) {
				m |= 1 << i
				break
			}
		}
	}
	return m
}

// convertToEnum converts a value to an ENUM member: a string by name (by
// the column's collation), a number, or a string of digits that names no
// member, by index. Anything else is ErrTruncated with ” (index 0).
func convertToEnum(d *Datum, ft *FieldType) (Datum, error) {
	n := uint64(len(ft.Elems))
	bad := func() (Datum, error) {
		return NewEnumDatum("", 0), fmt.Errorf("%w: '%s' for %s", ErrTruncated, d.String(), ft)
	}
	switch d.k {
	case KindString, KindBytes, KindEnum, KindSet, KindJSON:
		s := d.String()
		if i := matchElem(ft.Elems, s, ciCollation(ft.Collate)); i >= 0 {
			return ft.EnumDatum(uint64(i + 1)), nil
		}
		if v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64); err == nil && v >= 1 && v <= n {
			return ft.EnumDatum(v), nil
		}
		return bad()
	}
	v, err := datumToUint(d)
	if err != nil || v < 1 || v > n {
		return bad()
	}
	return ft.EnumDatum(v), nil
}

// convertToSet converts a value to a SET: a string as a comma-separated
// list of members in any order, duplicates allowed (ErrTruncated for a
// part that is no member, which is dropped); a number as the bitmask
// (ErrTruncated with bits beyond the members).
func convertToSet(d *Datum, ft *FieldType) (Datum, error) {
	n := len(ft.Elems)
	all := uint64(math.MaxUint64)
	if n < 64 {
		all = 1<<n - 1
	}
	switch d.k {
	case KindString, KindBytes, KindEnum, KindSet, KindJSON:
		s := d.String()
		if s == "" {
			return NewSetDatum("", 0), nil
		}
		ci := ciCollation(ft.Collate)
		var m uint64
		var err error
		for _, part := range strings.Split(s, ",") {
			if i := matchElem(ft.Elems, part, ci); i >= 0 {
				m |= 1 << i
			} else {
				err = fmt.Errorf("%w: '%s' for %s", ErrTruncated, s, ft)
			}
		}
		if err != nil && m == 0 {
			// A number written as text is a bitmask.
			if v, perr := strconv.ParseUint(strings.TrimSpace(s), 10, 64); perr == nil && v&^all == 0 {
				return ft.SetDatum(v), nil
			}
		}
		return ft.SetDatum(m), err
	}
	v, err := datumToUint(d)
	if err != nil || v&^all != 0 {
		return ft.SetDatum(v & all), fmt.Errorf("%w: '%s' for %s", ErrTruncated, d.String(), ft)
	}
	return ft.SetDatum(v), nil
}

// convertToBit converts a value to BIT(n): integers by value (negative
// ones as their two's complement), strings by their bytes as a big-endian
// number (b'101', x'0f', 'a' = 97). A value of more than n bits is
// ErrDataTooLong (MySQL's 1406), stored as the largest BIT(n).
func convertToBit(d *Datum, ft *FieldType) (Datum, error) {
	width := ft.Flen
	if width <= 0 || width > 64 {
		width = 64
	}
	maxV := uint64(math.MaxUint64)
	if width < 64 {
		maxV = 1<<width - 1
	}
	tooLong := func() (Datum, error) {
		return NewUintDatum(maxV), fmt.Errorf("%w: for %s", ErrDataTooLong, ft)
	}
	var v uint64
	switch d.k {
	case KindString, KindBytes, KindEnum, KindSet:
		b := d.b
		for len(b) > 0 && b[0] == 0 {
			b = b[1:]
		}
		if len(b) > 8 {
			return tooLong()
		}
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
	case KindInt64, KindUint64:
		v = uint64(d.i)
	default:
		iv, err := datumToInt(d)
		if err != nil {
			return tooLong()
		}
		v = uint64(iv)
	}
	if v > maxV {
		return tooLong()
	}
	return NewUintDatum(v), nil
}

// convertToYear converts a value to YEAR: 1901..2155 as is; numbers 1..69
// are 2001..2069 and 70..99 1970..1999; the number 0 is 0000 but the
// strings '0' and '00' are 2000; a date gives its year. Anything else is
// ErrOverflow (1264), or ErrIncorrectValue for text that is no number.
func convertToYear(d *Datum, ft *FieldType) (Datum, error) {
	switch d.k {
	case KindString, KindBytes, KindEnum, KindSet:
		s := strings.TrimSpace(string(d.b))
		iv, err := StrToInt(s)
		if errors.Is(err, ErrIncorrectValue) {
			return NewIntDatum(0), fmt.Errorf("%w: '%s' for YEAR", ErrIncorrectValue, s)
		}
		if iv == 0 && len(s) <= 2 {
			return NewIntDatum(2000), err
		}
		r, err2 := fitYear(iv)
		return r, firstErr(err2, err)
	case KindTime:
		t := d.GetTime()
		return NewIntDatum(int64(t.Year)), nil
	default:
		v, err := datumToInt(d)
		if err != nil {
			return NewIntDatum(0), fmt.Errorf("%w: %s for YEAR", ErrOverflow, d.String())
		}
		return fitYear(v) // the number 0 is the year 0
	}
}

func fitYear(v int64) (Datum, error) {
	switch {
	case v >= 1 && v <= 69:
		return NewIntDatum(v + 2000), nil
	case v >= 70 && v <= 99:
		return NewIntDatum(v + 1900), nil
	case v == 0 || (v >= 1901 && v <= 2155):
		return NewIntDatum(v), nil
	}
	return NewIntDatum(0), fmt.Errorf("%w: %d for YEAR", ErrOverflow, v)
}
