package codec

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

// randDatum returns a random datum of kind k, drawn from small domains so
// that equal values and shared prefixes are common.
func randDatum(rng *rand.Rand, k types.Kind) types.Datum {
	switch k {
	case types.KindInt64:
		vals := []int64{math.MinInt64, -1 << 40, -256, -1, 0, 1, 255, 256, 1 << 40, math.MaxInt64}
		if rng.Intn(2) == 0 {
			return types.NewIntDatum(vals[rng.Intn(len(vals))])
		}
		return types.NewIntDatum(rng.Int63n(2000) - 1000)
	case types.KindUint64:
		if rng.Intn(3) == 0 {
			return types.NewUintDatum(math.MaxUint64 - uint64(rng.Intn(3)))
		}
		return types.NewUintDatum(uint64(rng.Intn(2000)))
	case types.KindFloat64:
		vals := []float64{math.Inf(-1), -math.MaxFloat64, -1.5, -math.SmallestNonzeroFloat64, 0, math.Copysign(0, -1),
			math.SmallestNonzeroFloat64, 1e-300, 0.1, 1, 1.5, 1e300, math.Inf(1)}
		if rng.Intn(2) == 0 {
			return types.NewFloat64Datum(vals[rng.Intn(len(vals))])
		}
		return types.NewFloat64Datum((rng.Float64() - 0.5) * math.Pow10(rng.Intn(40)-20))
	case types.KindBytes:
		b := make([]byte, rng.Intn(20))
		for i := range b {
			b[i] = []byte{0, 1, 'a', 0xFF}[rng.Intn(4)]
		}
		return types.NewBytesDatum(b)
	case types.KindDecimal:
		digits := rng.Intn(30) + 1
		s := ""
		if rng.Intn(2) == 0 {
			s = "-"
		}
		for i := 0; i < digits; i++ {
			s += string(rune('0' + []int{0, 0, 1, 5, 9}[rng.Intn(5)]))
		}
		if scale := rng.Intn(digits + 1); scale > 0 {
			s = s[:len(s)-scale] + "." + s[len(s)-scale:]
			if s[len(s)-scale-1] == '-' || s[0] == '.' {
				s = s[:len(s)-scale-1] + "0" + s[len(s)-scale-1:]
			}
		}
		d, err := types.ParseDecimal(s)
		if err != nil {
			panic(fmt.Sprintf("%s: %v", s, err))
		}
		return types.NewDecimalDatum(d)
	case types.KindTime:
		t := types.Time{Year: uint16(rng.Intn(3) + 1999), Month: uint8(rng.Intn(13)), Day: uint8(rng.Intn(32)),
			Hour: uint8(rng.Intn(24)), Second: uint8(rng.Intn(60)), Microsecond: uint32(rng.Intn(3)), Type: mysql.TypeDatetime, Fsp: 6}
		return types.NewTimeDatum(t)
	case types.KindDuration:
		return types.NewDurationDatum(types.Duration{D: time.Duration(rng.Int63n(int64(2*types.MaxDuration))) - types.MaxDuration, Fsp: 6})
	}
	panic(k)
}

var keyKinds = []types.Kind{types.KindInt64, types.KindUint64, types.KindFloat64, types.KindBytes,
	types.KindDecimal, types.KindTime, types.KindDuration}

// pick returns a datum of kind k, or (rarely) NULL, MinNotNull or MaxValue.
func pick(rng *rand.Rand, k types.Kind) types.Datum {
	switch rng.Intn(20) {
	case 0:
		return types.NewNullDatum()
	case 1:
		return types.MinNotNullDatum()
	case 2:
		return types.MaxValueDatum()
	}
	return randDatum(rng, k)
}

func TestKeyOrderMatchesCompare(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, k := range keyKinds {
		for i := 0; i < 4000; i++ {
			a, b := pick(rng, k), pick(rng, k)
			ea, eb := EncodeKey(nil, a), EncodeKey(nil, b)
			want, got := a.Compare(&b), sign(bytes.Compare(ea, eb))
			if want != got {
				if k == types.KindDecimal && want == 0 && a.GetDecimal().Scale() != b.GetDecimal().Scale() {
					continue // equal values of different scales order by scale
				}
				t.Fatalf("%s: Compare(%v, %v) = %d but encodings compare %d (%x vs %x)", k, a, b, want, got, ea, eb)
			}
			if a.Kind() == types.KindMinNotNull {
				continue // a range bound, not a value: it does not decode
			}
			rest, d, err := DecodeOne(append(ea, 0xAB))
			if err != nil || !bytes.Equal(rest, []byte{0xAB}) {
				t.Fatalf("decode %v: %v rest %x", a, err, rest)
			}
			if k == types.KindTime && d.Kind() == types.KindUint64 {
				d = types.NewTimeDatum(types.TimeFromPacked(d.GetUint64(), mysql.TypeDatetime, 6))
			}
			if d.Kind() == types.KindDuration {
				d = types.NewDurationDatum(types.Duration{D: d.GetDuration().D, Fsp: 6})
			}
			if d.Compare(&a) != 0 || (d.String() != a.String() && k != types.KindFloat64) {
				t.Fatalf("round trip %v (%s) -> %v (%s)", a, a.Kind(), d, d.Kind())
			}
			if n, err := PeekLength(ea); err != nil || n != len(ea) {
				t.Fatalf("PeekLength(%x) = %d, %v", ea, n, err)
			}
		}
	}
}

// TestMultiColumnKeyOrder: tuples order lexicographically, because no
// encoding is a prefix of another of the same kind.
func TestMultiColumnKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 5000; i++ {
		k1, k2 := keyKinds[rng.Intn(len(keyKinds))], keyKinds[rng.Intn(len(keyKinds))]
		a := []types.Datum{pick(rng, k1), pick(rng, k2)}
		b := []types.Datum{pick(rng, k1), pick(rng, k2)}
		if k1 == types.KindDecimal || a[0].Kind() == types.KindMinNotNull || b[0].Kind() == types.KindMinNotNull {
			continue // scale tiebreak / MinNotNull is a bound, not a tuple member
		}
		want := a[0].Compare(&b[0])
		if want == 0 {
			want = a[1].Compare(&b[1])
			if want == 0 && k2 == types.KindDecimal {
				continue
			}
		}
		got := sign(bytes.Compare(EncodeKey(nil, a...), EncodeKey(nil, b...)))
		if want != got {
			t.Fatalf("%v vs %v: want %d got %d", a, b, want, got)
		}
		if a[1].Kind() == types.KindMinNotNull {
			continue
		}
		ds, err := Decode(EncodeKey(nil, a...))
		if err != nil || len(ds) != 2 {
			t.Fatalf("Decode: %v %v", ds, err)
		}
	}
}

func TestDecimalKeyKeepsScale(t *testing.T) {
	for _, s := range []string{"0", "0.00", "1.50", "-1.50", "100", "-0.001", "123456789012345678901234567890.123456789", "1e5"} {
		d, err := types.ParseDecimal(s)
		if err != nil {
			t.Fatal(err)
		}
		rest, got, err := DecodeDecimal(EncodeDecimal(nil, d))
		if err != nil || len(rest) != 0 || got.String() != d.String() {
			t.Fatalf("%s: got %v %v (rest %x)", s, got, err, rest)
		}
	}
}

func TestDecodeKeyValueRestoresType(t *testing.T) {
	ft := types.NewFieldType(mysql.TypeDate)
	tm, _ := types.ParseTime("2024-02-29", mysql.TypeDate, 0)
	_, d, err := DecodeKeyValue(EncodeKey(nil, types.NewTimeDatum(tm)), ft)
	if err != nil || d.Kind() != types.KindTime || d.GetTime().String() != "2024-02-29" {
		t.Fatalf("date: %v %v", d, err)
	}
	_, d, _ = DecodeKeyValue(EncodeKey(nil, types.NewStringDatum("abc")), types.NewFieldType(mysql.TypeVarchar))
	if d.Kind() != types.KindString || d.GetString() != "abc" {
		t.Fatalf("varchar: %v %v", d, d.Kind())
	}
	for _, bad := range [][]byte{{}, {intFlag, 1}, {99}, {bytesFlag, 1, 2}, {decimalFlag, decPos, 0x80, 0, 0, 1, 200, 0, 0}} {
		if _, _, err := DecodeOne(bad); err == nil {
			t.Fatalf("DecodeOne(%x) accepted corrupt input", bad)
		}
	}
}
