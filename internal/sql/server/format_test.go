package server

import (
	"math"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

func TestFormatFloat(t *testing.T) {
	cases := []struct {
		f    float64
		prec int
		bits int
		want string
	}{
		{0, -1, 64, "0"},
		{1.5, -1, 64, "1.5"},
		{-0.25, -1, 64, "-0.25"},
		{100, -1, 64, "100"},
		{0.1, -1, 64, "0.1"},
		{float64(float32(0.1)), -1, 32, "0.1"},
		{1e15, -1, 64, "1e15"},
		{1.5e20, -1, 64, "1.5e20"},
		{123456789012345, -1, 64, "123456789012345"},
		{1e-16, -1, 64, "1e-16"},
		{2.5e-7, -1, 64, "0.00000025"},
		{3.14159, 2, 64, "3.14"},
		{math.NaN(), -1, 64, "0"},
	}
	for _, c := range cases {
		if got := string(appendFormatFloat(nil, c.f, c.prec, c.bits)); got != c.want {
			t.Errorf("%v (prec %d, %d bits): got %q, want %q", c.f, c.prec, c.bits, got, c.want)
		}
	}
}

func TestFormatDecimal(t *testing.T) {
	cases := []struct {
		in    string
		scale uint8
		want  string
	}{
		{"12.5", 2, "12.50"},
		{"12.345", 2, "12.35"},
		{"-12.345", 2, "-12.35"},
		{"-0.001", 2, "0.00"},
		{"100", 0, "100"},
		{"1E+3", 0, "1000"},
		{"0.000001", 6, "0.000001"},
		{"123.456", 31, "123.456"},
	}
	for _, c := range cases {
		if got := string(appendDecimal(nil, mustDecimal(c.in), c.scale)); got != c.want {
			t.Errorf("%s scale %d: got %q, want %q", c.in, c.scale, got, c.want)
		}
	}
}

func TestFormatTimeAndDuration(t *testing.T) {
	dt := types.Time{Year: 7, Month: 1, Day: 2, Hour: 3, Minute: 4, Second: 5, Microsecond: 60, Fsp: 6}
	cases := []struct {
		got, want string
	}{
		{string(appendTime(nil, dt, &Column{Type: mysql.TypeDate})), "0007-01-02"},
		{string(appendTime(nil, dt, &Column{Type: mysql.TypeDatetime})), "0007-01-02 03:04:05"},
		{string(appendTime(nil, dt, &Column{Type: mysql.TypeDatetime, Decimals: 6})), "0007-01-02 03:04:05.000060"},
		{string(appendTime(nil, dt, &Column{Type: mysql.TypeTimestamp, Decimals: notFixedDec})), "0007-01-02 03:04:05.000060"},
		{string(appendTime(nil, types.Time{}, &Column{Type: mysql.TypeDatetime})), "0000-00-00 00:00:00"},
		{string(appendDuration(nil, types.Duration{D: 0}, &Column{})), "00:00:00"},
		{string(appendDuration(nil, types.Duration{D: 100*time.Hour + time.Second}, &Column{})), "100:00:01"},
		{string(appendDuration(nil, types.Duration{D: -(time.Minute + 500*time.Millisecond)}, &Column{Decimals: 1})), "-00:01:00.5"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestBinaryTimeRoundTrip(t *testing.T) {
	times := []types.Time{
		{Type: mysql.TypeDatetime},
		{Year: 2024, Month: 1, Day: 2, Type: mysql.TypeDatetime},
		{Year: 2024, Month: 1, Day: 2, Hour: 3, Type: mysql.TypeDatetime},
		{Year: 2024, Month: 1, Day: 2, Second: 1, Microsecond: 9, Type: mysql.TypeTimestamp, Fsp: 6},
		{Year: 2024, Month: 1, Day: 2, Type: mysql.TypeDate},
	}
	for _, tm := range times {
		b := appendBinaryTime(nil, tm, tm.Type)
		got, err := decodeBinaryTime(&reader{b: b}, tm.Type)
		want := tm
		if tm.Microsecond == 0 {
			want.Fsp = 0
		}
		if err != nil || got != want {
			t.Errorf("%+v: got %+v, %v", tm, got, err)
		}
	}
	for _, d := range []time.Duration{0, time.Second, -(49*time.Hour + 3*time.Minute + 4*time.Second + 5*time.Microsecond)} {
		b := appendBinaryDuration(nil, types.Duration{D: d})
		got, err := decodeBinaryDuration(&reader{b: b})
		if err != nil || got.D != d {
			t.Errorf("%v: got %v, %v", d, got.D, err)
		}
	}
}

func TestDecodeExecuteAllParamTypes(t *testing.T) {
	type param struct {
		typ      byte
		unsigned bool
		value    []byte
		want     any
	}
	params := []param{
		{mysql.TypeTiny, false, []byte{0xff}, int64(-1)},
		{mysql.TypeTiny, true, []byte{0xff}, uint64(255)},
		{mysql.TypeShort, false, []byte{0xfe, 0xff}, int64(-2)},
		{mysql.TypeYear, true, []byte{0xe8, 0x07}, uint64(2024)},
		{mysql.TypeInt24, false, []byte{0xfd, 0xff, 0xff, 0xff}, int64(-3)},
		{mysql.TypeLong, true, []byte{0xff, 0xff, 0xff, 0xff}, uint64(4294967295)},
		{mysql.TypeLonglong, false, appendU64(nil, uint64(1<<64-4)), int64(-4)},
		{mysql.TypeLonglong, true, appendU64(nil, 1<<64-1), uint64(1<<64 - 1)},
		{mysql.TypeFloat, false, appendU32(nil, math.Float32bits(1.5)), float64(1.5)},
		{mysql.TypeDouble, false, appendU64(nil, math.Float64bits(-2.25)), float64(-2.25)},
		{mysql.TypeNewDecimal, false, []byte("\x0412.5"), []byte("12.5")},
		{mysql.TypeVarString, false, []byte("\x03abc"), []byte("abc")},
		{mysql.TypeString, false, []byte("\x00"), []byte{}},
		{mysql.TypeBlob, false, []byte("\x02\x00\x01"), []byte{0, 1}},
		{mysql.TypeJSON, false, []byte("\x02{}"), []byte("{}")},
		{mysql.TypeDate, false, []byte{4, 0xe8, 0x07, 2, 29}, types.Time{Year: 2024, Month: 2, Day: 29, Type: mysql.TypeDate}},
		{mysql.TypeDatetime, false, []byte{11, 0xe8, 0x07, 2, 29, 1, 2, 3, 4, 0, 0, 0},
			types.Time{Year: 2024, Month: 2, Day: 29, Hour: 1, Minute: 2, Second: 3, Microsecond: 4, Type: mysql.TypeDatetime, Fsp: 6}},
		{mysql.TypeTimestamp, false, []byte{0}, types.Time{Type: mysql.TypeTimestamp}},
		{mysql.TypeDuration, false, []byte{8, 1, 1, 0, 0, 0, 2, 3, 4}, types.Duration{D: -(26*time.Hour + 3*time.Minute + 4*time.Second)}},
		{mysql.TypeNull, false, nil, nil},
	}
	n := len(params)
	body := appendU32(nil, 42)
	body = append(body, 0)
	body = appendU32(body, 1)
	nulls := make([]byte, (n+7)/8)
	body = append(body, nulls...)
	body = append(body, 1)
	for _, p := range params {
		flag := byte(0)
		if p.unsigned {
			flag = 0x80
		}
		body = append(body, p.typ, flag)
	}
	for _, p := range params {
		body = append(body, p.value...)
	}
	id, args, typs, err := decodeExecute(body, n, nil, nil)
	if err != nil || id != 42 || len(args) != n || len(typs) != 2*n {
		t.Fatalf("decode: id %d, %d args, err %v", id, len(args), err)
	}
	for i, p := range params {
		a := args[i]
		if p.typ == mysql.TypeNull {
			if !a.Null {
				t.Errorf("param %d: want NULL", i)
			}
			continue
		}
		if a.Type != p.typ || a.Unsigned != p.unsigned || a.Null {
			t.Errorf("param %d: type %d unsigned %v null %v", i, a.Type, a.Unsigned, a.Null)
		}
		if !equalValue(a.Value, p.want) {
			t.Errorf("param %d (type %d): got %T %v, want %T %v", i, p.typ, a.Value, a.Value, p.want, p.want)
		}
	}
	// Every truncation of the packet is an error, never a panic.
	for cut := 0; cut < len(body); cut++ {
		if _, _, _, err := decodeExecute(body[:cut], n, nil, nil); err == nil && cut > 9 {
			t.Errorf("truncated at %d: no error", cut)
		}
	}
}

func equalValue(a, b any) bool {
	if ab, ok := a.([]byte); ok {
		bb, ok := b.([]byte)
		return ok && string(ab) == string(bb)
	}
	return a == b
}
