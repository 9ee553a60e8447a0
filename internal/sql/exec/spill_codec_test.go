package exec

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// spillTestTypes are columns of every chunk layout and MySQL type family.
func spillTestTypes() []*types.FieldType {
	ft := func(tp byte, flag uint, dec int) *types.FieldType {
		f := types.NewFieldType(tp)
		f.Flag |= flag
		f.Decimal = dec
		return f
	}
	enum := ft(mysql.TypeEnum, 0, 0)
	enum.Elems = []string{"a", "b"}
	set := ft(mysql.TypeSet, 0, 0)
	set.Elems = []string{"x", "y"}
	return []*types.FieldType{
		ft(mysql.TypeLonglong, 0, 0),
		ft(mysql.TypeLonglong, mysql.UnsignedFlag, 0),
		ft(mysql.TypeDouble, 0, -1),
		ft(mysql.TypeFloat, 0, -1),
		ft(mysql.TypeNewDecimal, 0, 3),
		ft(mysql.TypeVarchar, 0, 0),
		ft(mysql.TypeBlob, mysql.BinaryFlag, 0),
		ft(mysql.TypeDatetime, 0, 6),
		ft(mysql.TypeDate, 0, 0),
		ft(mysql.TypeTimestamp, 0, 2),
		ft(mysql.TypeDuration, 0, 3),
		ft(mysql.TypeJSON, 0, 0),
		enum,
		set,
		ft(mysql.TypeBit, mysql.UnsignedFlag, 0),
		ft(mysql.TypeYear, 0, 0),
	}
}

func spillTestDatums(t *testing.T, fts []*types.FieldType) []types.Datum {
	dec, err := types.ParseDecimal("-12345678901234567890.250")
	if err != nil {
		t.Fatal(err)
	}
	j, err := types.ParseJSON(`{"a": [1, 2.5, "x"]}`)
	if err != nil {
		t.Fatal(err)
	}
	dt := types.Time{Year: 2024, Month: 2, Day: 29, Hour: 13, Minute: 4, Second: 5, Microsecond: 123456, Type: mysql.TypeDatetime, Fsp: 6}
	d := types.Time{Year: 1999, Month: 12, Day: 31, Type: mysql.TypeDate}
	ts := types.Time{Year: 2020, Month: 1, Day: 2, Hour: 3, Minute: 4, Second: 5, Microsecond: 670000, Type: mysql.TypeTimestamp, Fsp: 2}
	return []types.Datum{
		types.NewIntDatum(-1 << 63),
		types.NewUintDatum(1<<64 - 1),
		types.NewFloat64Datum(-1.5e300),
		types.NewFloat32Datum(3.25),
		types.NewDecimalDatum(dec),
		types.NewStringDatum("héllo, wörld"),
		types.NewBytesDatum([]byte{0, 1, 2, 255}),
		types.NewTimeDatum(dt),
		types.NewTimeDatum(d),
		types.NewTimeDatum(ts),
		types.NewDurationDatum(types.Duration{D: -(838*time.Hour + 59*time.Second + 500*time.Millisecond), Fsp: 3}),
		types.NewJSONDatum(j),
		types.NewEnumDatum("b", 2),
		types.NewSetDatum("x,y", 3),
		types.NewUintDatum(0b1011),
		types.NewIntDatum(2155),
	}
}

func TestSpillRowCodecRoundTrip(t *testing.T) {
	fts := spillTestTypes()
	vals := spillTestDatums(t, fts)
	src := chunk.New(fts, 4)
	for i := range vals {
		src.AppendDatum(i, &vals[i])
	}
	for i := range fts { // a row of NULLs
		src.AppendNull(i)
	}
	for i := range vals { // a row with every other column NULL
		if i%2 == 0 {
			src.AppendNull(i)
		} else {
			src.AppendDatum(i, &vals[i])
		}
	}
	c := newRowCodec(fts)
	dst := chunk.New(fts, 4)
	for r := 0; r < src.NumRows(); r++ {
		b := c.encode(nil, src.GetRow(r))
		if err := c.decode(b, dst); err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
		// Every proper prefix is corrupt, as is a longer record.
		for n := 0; n < len(b); n++ {
			tmp := chunk.New(fts, 1)
			if err := c.decode(b[:n], tmp); !errors.Is(err, ErrSpillCorrupt) {
				t.Fatalf("row %d cut at %d: %v", r, n, err)
			}
		}
		if err := c.decode(append(b, 0), chunk.New(fts, 1)); !errors.Is(err, ErrSpillCorrupt) {
			t.Fatalf("row %d with a trailing byte: %v", r, err)
		}
	}
	for r := 0; r < src.NumRows(); r++ {
		for i, ft := range fts {
			a, b := src.GetRow(r).GetDatum(i, ft), dst.GetRow(r).GetDatum(i, ft)
			if a.String() != b.String() || a.Kind() != b.Kind() {
				t.Errorf("row %d col %d: %v (%v) came back as %v (%v)", r, i, a, a.Kind(), b, b.Kind())
			}
		}
	}
	if got := dst.GetRow(0).GetDecimal(4).String(); got != "-12345678901234567890.250" {
		t.Errorf("decimal scale lost: %s", got)
	}
	if got := dst.GetRow(0).GetTime(7); got.Fsp != 6 || got.Type != mysql.TypeDatetime || got.Microsecond != 123456 {
		t.Errorf("datetime: %+v", got)
	}
	if err := c.decode([]byte{7}, chunk.New(fts, 1)); !errors.Is(err, ErrSpillCorrupt) {
		t.Errorf("bad tag: %v", err)
	}
}

func TestSpillDatumCodecRoundTrip(t *testing.T) {
	vals := append(spillTestDatums(t, spillTestTypes()), types.NewNullDatum())
	var b []byte
	for i := range vals {
		b = encodeSpillDatum(b, &vals[i])
	}
	rest := b
	for i := range vals {
		var d types.Datum
		var err error
		d, rest, err = decodeSpillDatum(rest)
		if err != nil {
			t.Fatalf("datum %d: %v", i, err)
		}
		if d.Kind() != vals[i].Kind() || d.String() != vals[i].String() {
			t.Errorf("datum %d: %v (%v) came back as %v (%v)", i, vals[i], vals[i].Kind(), d, d.Kind())
		}
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left", len(rest))
	}
	for n := 0; n < len(b); n++ {
		rest := b[:n]
		var err error
		for err == nil && len(rest) > 0 {
			_, rest, err = decodeSpillDatum(rest)
		}
		if err == nil && n > 0 && !isDatumBoundary(b, n) {
			t.Fatalf("cut at %d decoded without an error", n)
		}
	}
	if _, _, err := decodeSpillDatum([]byte{200}); !errors.Is(err, ErrSpillCorrupt) {
		t.Errorf("bad kind: %v", err)
	}
}

// isDatumBoundary reports whether b[:n] ends at a datum boundary.
func isDatumBoundary(b []byte, n int) bool {
	rest := b
	for len(b)-len(rest) < n {
		var err error
		if _, rest, err = decodeSpillDatum(rest); err != nil {
			return false
		}
	}
	return len(b)-len(rest) == n
}

func TestSpillFile(t *testing.T) {
	dir := t.TempDir()
	SetSpillDir(dir)
	defer SetSpillDir("")
	f, err := newSpillFile()
	if err != nil {
		t.Fatal(err)
	}
	recs := [][]byte{[]byte("a"), {}, make([]byte, 200000)}
	for _, r := range recs {
		f.write(r)
	}
	for pass := 0; pass < 2; pass++ {
		if err := f.rewind(); err != nil {
			t.Fatal(err)
		}
		var buf []byte
		for i, r := range recs {
			if buf, err = f.next(buf); err != nil || string(buf) != string(r) {
				t.Fatalf("record %d: %v", i, err)
			}
		}
		if _, err := f.next(buf); err == nil {
			t.Fatal("no EOF")
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("files left in the spill dir: %v", ents)
	}
}
