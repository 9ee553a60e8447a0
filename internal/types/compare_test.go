package types

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// randNumber returns a number of a random numeric kind from a small
// domain, so that cross-kind equalities are frequent.
func randNumber(rng *rand.Rand) Datum {
	v := int64(rng.Intn(21) - 10)
	switch rng.Intn(5) {
	case 0:
		return NewIntDatum(v)
	case 1:
		if v < 0 {
			return NewUintDatum(math.MaxUint64 - uint64(rng.Intn(2)))
		}
		return NewUintDatum(uint64(v))
	case 2:
		return NewFloat64Datum(float64(v) / 2)
	case 3:
		d, _ := ParseDecimal(strconv.FormatFloat(float64(v)/4, 'f', 2, 64))
		return NewDecimalDatum(d)
	}
	return NewStringDatum(strconv.FormatInt(v, 10))
}

func TestCompareAntisymmetricAndTransitive(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 20000; i++ {
		a, b, c := randNumber(rng), randNumber(rng), randNumber(rng)
		if a.Compare(&b) != -b.Compare(&a) {
			t.Fatalf("antisymmetry: %v(%s) %v(%s)", a, a.Kind(), b, b.Kind())
		}
		if a.isString() || b.isString() || c.isString() {
			continue // MySQL's mixed string/number comparison is not transitive
		}
		if a.Compare(&b) <= 0 && b.Compare(&c) <= 0 && a.Compare(&c) > 0 {
			t.Fatalf("transitivity: %v %v %v", a, b, c)
		}
	}
}

func TestDatumConversions(t *testing.T) {
	d := NewStringDatum("12.5abc")
	if v, err := d.ToInt64(); v != 13 || err == nil {
		t.Fatalf("ToInt64 = %d, %v", v, err)
	}
	if f, _ := d.ToFloat64(); f != 12.5 {
		t.Fatalf("ToFloat64 = %v", f)
	}
	if dec, _ := d.ToDecimal(); dec.String() != "12.5" {
		t.Fatalf("ToDecimal = %s", dec)
	}
	if v, ok := d.ToBool(); !v || !ok {
		t.Fatal("ToBool")
	}
	n := NewNullDatum()
	if _, ok := n.ToBool(); ok {
		t.Fatal("NULL is not a boolean")
	}
	dec, _ := ParseDecimal("1.50")
	if dec.Neg().String() != "-1.50" || dec.String() != "1.50" {
		t.Fatal("Neg")
	}
}
