package types

import (
	"errors"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// TestConvertEnumSetBitYear pins INSERT's conversions to ENUM, SET, BIT
// and YEAR: the stored value, its text and the error strict mode raises.
func TestConvertEnumSetBitYear(t *testing.T) {
	enumCI := &FieldType{Tp: mysql.TypeEnum, Elems: []string{"small", "Medium", "large"}, Collate: "utf8mb4_general_ci"}
	enumBin := &FieldType{Tp: mysql.TypeEnum, Elems: []string{"a", "A"}, Collate: "utf8mb4_bin"}
	set := &FieldType{Tp: mysql.TypeSet, Elems: []string{"a", "b", "c"}, Collate: "utf8mb4_general_ci"}
	bit5 := &FieldType{Tp: mysql.TypeBit, Flen: 5, Flag: mysql.UnsignedFlag}
	year := &FieldType{Tp: mysql.TypeYear}
	for _, c := range []struct {
		ft   *FieldType
		in   Datum
		text string
		num  uint64
		err  error
	}{
		{enumCI, NewStringDatum("LARGE"), "large", 3, nil},
		{enumCI, NewStringDatum("medium "), "Medium", 2, nil},
		{enumCI, NewIntDatum(1), "small", 1, nil},
		{enumCI, NewStringDatum("2"), "Medium", 2, nil},
		{enumCI, NewStringDatum("huge"), "", 0, ErrTruncated},
		{enumCI, NewIntDatum(0), "", 0, ErrTruncated},
		{enumCI, NewIntDatum(4), "", 0, ErrTruncated},
		{enumBin, NewStringDatum("A"), "A", 2, nil},
		{set, NewStringDatum("c,A,a"), "a,c", 5, nil},
		{set, NewStringDatum(""), "", 0, nil},
		{set, NewIntDatum(6), "b,c", 6, nil},
		{set, NewStringDatum("a,x"), "a", 1, ErrTruncated},
		{set, NewIntDatum(8), "", 0, ErrTruncated},
		{bit5, NewBytesDatum([]byte{5}), "5", 5, nil},
		{bit5, NewIntDatum(31), "31", 31, nil},
		{bit5, NewIntDatum(32), "31", 31, ErrDataTooLong},
		{bit5, NewStringDatum("a"), "31", 31, ErrDataTooLong},
		{year, NewIntDatum(0), "0", 0, nil},
		{year, NewStringDatum("0"), "2000", 2000, nil},
		{year, NewStringDatum("00"), "2000", 2000, nil},
		{year, NewIntDatum(69), "2069", 2069, nil},
		{year, NewIntDatum(70), "1970", 1970, nil},
		{year, NewStringDatum("1999"), "1999", 1999, nil},
		{year, NewIntDatum(1900), "0", 0, ErrOverflow},
		{year, NewIntDatum(2156), "0", 0, ErrOverflow},
		{year, NewStringDatum("abc"), "0", 0, ErrIncorrectValue},
	} {
		got, err := ConvertDatum(c.in, c.ft)
		if (c.err == nil) != (err == nil) || (c.err != nil && !errors.Is(err, c.err)) {
			t.Errorf("%s into %s: error %v, want %v", c.in, c.ft, err, c.err)
		}
		if got.String() != c.text {
			t.Errorf("%s into %s: %q, want %q", c.in, c.ft, got.String(), c.text)
		}
		var num uint64
		switch got.Kind() {
		case KindEnum, KindSet:
			num = got.GetEnumValue()
		default:
			num = uint64(got.GetInt64())
		}
		if num != c.num {
			t.Errorf("%s into %s: number %d, want %d", c.in, c.ft, num, c.num)
		}
	}
}

// TestEnumSetDatums checks the column type helpers chunks and rows use.
func TestEnumSetDatums(t *testing.T) {
	set := &FieldType{Tp: mysql.TypeSet, Elems: []string{"a", "b", "c"}}
	if d := set.SetDatum(5); d.String() != "a,c" || set.SetMask([]byte("a,c")) != 5 {
		t.Errorf("set 5: %s", d)
	}
	enum := &FieldType{Tp: mysql.TypeEnum, Elems: []string{"x", "y"}}
	if d := enum.EnumDatum(2); d.String() != "y" || enum.EnumIndexBytes([]byte("y")) != 2 || enum.EnumIndexBytes([]byte("z")) != 0 {
		t.Errorf("enum 2: %s", d)
	}
	if d := enum.EnumDatum(9); d.String() != "" || d.GetEnumValue() != 0 {
		t.Errorf("enum 9: %s", d)
	}
	// ENUM datums order by index, SET datums by bitmask.
	a, b := enum.EnumDatum(2), enum.EnumDatum(1)
	if a.Compare(&b) <= 0 {
		t.Errorf("enum order")
	}
	if got := (&FieldType{Tp: mysql.TypeEnum, Elems: []string{"it's", `a\b`}}).String(); got != `enum('it''s','a\\b')` {
		t.Errorf("type text %s", got)
	}
}
