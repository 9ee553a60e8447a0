package types

import (
	"math/rand"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

func randTime(rng *rand.Rand) Time {
	return Time{
		Year: uint16(rng.Intn(10000)), Month: uint8(rng.Intn(13)), Day: uint8(rng.Intn(32)),
		Hour: uint8(rng.Intn(24)), Minute: uint8(rng.Intn(60)), Second: uint8(rng.Intn(60)),
		Microsecond: uint32(rng.Intn(1000000)), Type: mysql.TypeDatetime, Fsp: 6,
	}
}

func TestTimePackRoundTripAndOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 10000; i++ {
		a, b := randTime(rng), randTime(rng)
		if got := TimeFromPacked(a.Pack(), a.Type, a.Fsp); got != a {
			t.Fatalf("round trip %v: got %v", a, got)
		}
		want := a.String() < b.String()
		if got := a.Pack() < b.Pack(); got != want && a.String() != b.String() {
			t.Fatalf("order of %s, %s: packed says less=%v", a, b, got)
		}
		p, err := ParseTime(a.String(), mysql.TypeDatetime, 6)
		if err != nil || p != a {
			t.Fatalf("ParseTime(%s) = %v, %v", a, p, err)
		}
	}
}

func TestDurationFormatParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 10000; i++ {
		d := Duration{D: time.Duration(rng.Int63n(int64(2*MaxDuration))-int64(MaxDuration)) / 1000 * 1000, Fsp: 6}
		p, err := ParseDuration(d.String(), 6)
		if err != nil || p != d {
			t.Fatalf("ParseDuration(%s) = %v, %v", d, p, err)
		}
	}
}

func TestDatumCloneOwnsBytes(t *testing.T) {
	b := []byte("abc")
	d := NewBytesDatum(b)
	c := d.Clone()
	b[0] = 'x'
	if c.GetString() != "abc" || d.GetString() != "xbc" {
		t.Fatalf("clone %q orig %q", c.GetString(), d.GetString())
	}
	dec, _ := ParseDecimal("1.25")
	dd := NewDecimalDatum(dec)
	dc := dd.Clone()
	dec.SetInt64(7)
	if dc.GetDecimal().String() != "1.25" {
		t.Fatalf("decimal clone = %s", dc.GetDecimal())
	}
}

func TestTimestampRangeAndZones(t *testing.T) {
	ts := func(s string) Time {
		v, err := ParseTime(s, mysql.TypeTimestamp, 0)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := ts("1970-01-01 00:00:00").CheckTimestamp(time.UTC); err == nil {
		t.Fatal("1970-01-01 00:00:00 UTC is below TIMESTAMP's range")
	}
	if err := ts("2038-01-19 03:14:07").CheckTimestamp(time.UTC); err != nil {
		t.Fatal(err)
	}
	plus8 := time.FixedZone("+08:00", 8*3600)
	if err := ts("1970-01-01 08:00:01").CheckTimestamp(plus8); err != nil {
		t.Fatal(err)
	}
	if got := ts("2020-01-01 05:00:00").ConvertTimeZone(plus8, time.UTC).String(); got != "2019-12-31 21:00:00" {
		t.Fatalf("ConvertTimeZone = %s", got)
	}
}
