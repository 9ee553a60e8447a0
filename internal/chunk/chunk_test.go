package chunk

import (
	"fmt"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// protocolRow is the shape the MySQL protocol layer expects of a row.
type protocolRow interface {
	Len() int
	IsNull(col int) bool
	GetInt64(col int) int64
	GetUint64(col int) uint64
	GetFloat32(col int) float32
	GetFloat64(col int) float64
	GetBytes(col int) []byte
	GetDecimal(col int) *types.Decimal
	GetTime(col int) types.Time
	GetDuration(col int) types.Duration
}

var _ protocolRow = Row{}

func allTypes() []*types.FieldType {
	u := types.NewFieldType(mysql.TypeLonglong)
	u.Flag |= mysql.UnsignedFlag
	dec := types.NewFieldType(mysql.TypeNewDecimal)
	dec.Decimal = 2
	dt := types.NewFieldType(mysql.TypeDatetime)
	dt.Decimal = 3
	dur := types.NewFieldType(mysql.TypeDuration)
	dur.Decimal = 1
	bin := types.NewFieldType(mysql.TypeVarchar)
	bin.Charset, bin.Collate = "binary", "binary"
	return []*types.FieldType{
		types.NewFieldType(mysql.TypeLong), u, types.NewFieldType(mysql.TypeFloat),
		types.NewFieldType(mysql.TypeDouble), types.NewFieldType(mysql.TypeVarchar), bin,
		dec, dt, types.NewFieldType(mysql.TypeDate), dur,
	}
}

func rowDatums(i int) []types.Datum {
	d, _ := types.ParseDecimal(fmt.Sprintf("%d.%02d", i, i%100))
	t, _ := types.ParseTime(fmt.Sprintf("2020-01-%02d 10:00:%02d.123", i%28+1, i%60), mysql.TypeDatetime, 3)
	day, _ := types.ParseTime(fmt.Sprintf("2021-02-%02d", i%28+1), mysql.TypeDate, 0)
	return []types.Datum{
		types.NewIntDatum(int64(-i)), types.NewUintDatum(uint64(i) << 40), types.NewFloat32Datum(float32(i) + 0.5),
		types.NewFloat64Datum(float64(i) / 3), types.NewStringDatum(fmt.Sprintf("row-%d", i)),
		types.NewBytesDatum([]byte{byte(i), 0, 0xFF}), types.NewDecimalDatum(d), types.NewTimeDatum(t),
		types.NewTimeDatum(day), types.NewDurationDatum(types.Duration{D: time.Duration(i) * time.Second, Fsp: 1}),
	}
}

func TestAppendAndGetDatums(t *testing.T) {
	fts := allTypes()
	chk := New(fts, 4)
	const n = 50
	for i := 0; i < n; i++ {
		for c, d := range rowDatums(i) {
			if (i+c)%7 == 0 {
				chk.AppendNull(c)
				continue
			}
			chk.AppendDatum(c, &d)
		}
	}
	if chk.NumRows() != n || !chk.IsFull() {
		t.Fatalf("NumRows = %d IsFull = %v", chk.NumRows(), chk.IsFull())
	}
	for i := 0; i < n; i++ {
		row := chk.GetRow(i)
		if row.Len() != len(fts) {
			t.Fatalf("Len = %d", row.Len())
		}
		want := rowDatums(i)
		for c := range fts {
			got := row.GetDatum(c, fts[c])
			if (i+c)%7 == 0 {
				if !row.IsNull(c) || !got.IsNull() {
					t.Fatalf("row %d col %d: want NULL, got %v", i, c, got)
				}
				continue
			}
			if row.IsNull(c) || got.Kind() != want[c].Kind() || got.Compare(&want[c]) != 0 || got.String() != want[c].String() {
				t.Fatalf("row %d col %d: got %v (%v) want %v (%v)", i, c, got, got.Kind(), want[c], want[c].Kind())
			}
		}
	}
	// Typed getters agree with datums.
	r := chk.GetRow(2) // column 5 is NULL in row 2
	if r.GetInt64(0) != -2 || r.GetUint64(1) != 2<<40 || r.GetFloat32(2) != 2.5 || string(r.GetBytes(4)) != "row-2" ||
		r.GetDecimal(6).String() != "2.02" || r.GetTime(7).String() != "2020-01-03 10:00:02.123" ||
		r.GetTime(8).String() != "2021-02-03" || r.GetDuration(9).String() != "00:00:02.0" {
		t.Fatalf("typed getters: %d %d %v %q %s %s %s %s", r.GetInt64(0), r.GetUint64(1), r.GetFloat32(2), r.GetBytes(4),
			r.GetDecimal(6), r.GetTime(7), r.GetTime(8), r.GetDuration(9))
	}

	// Copying rows into another chunk keeps values and NULLs.
	cp := New(fts, n)
	for i := 0; i < n; i++ {
		cp.AppendRow(chk.GetRow(i))
	}
	for i := 0; i < n; i++ {
		for c := range fts {
			a, b := chk.GetRow(i).GetDatum(c, fts[c]), cp.GetRow(i).GetDatum(c, fts[c])
			if a.IsNull() != b.IsNull() || a.Compare(&b) != 0 {
				t.Fatalf("copy row %d col %d: %v vs %v", i, c, a, b)
			}
		}
	}

	chk.Reset()
	if chk.NumRows() != 0 || chk.Column(4).NullCount() != 0 {
		t.Fatalf("after Reset: %d rows", chk.NumRows())
	}
	d := types.NewStringDatum("again")
	for c := range fts {
		chk.AppendNull(c)
	}
	chk.Column(4).Reset()
	chk.AppendDatum(4, &d)
	if chk.Column(4).IsNull(0) || chk.GetRow(0).GetString(4) != "again" || !chk.GetRow(0).IsNull(0) {
		t.Fatal("reuse after Reset")
	}
}

func TestAppendDatumWrongKindPanics(t *testing.T) {
	chk := New([]*types.FieldType{types.NewFieldType(mysql.TypeLong)}, 1)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	d := types.NewStringDatum("x")
	chk.AppendDatum(0, &d)
}

func TestVirtualRows(t *testing.T) {
	chk := New(nil, 8)
	chk.SetNumVirtualRows(3)
	if chk.NumRows() != 3 {
		t.Fatal(chk.NumRows())
	}
	chk.Reset()
	if chk.NumRows() != 0 {
		t.Fatal(chk.NumRows())
	}
}

// TestAppendColumn copies ranges of every type's column, with and
// without NULLs, and checks them against row-wise copies.
func TestAppendColumn(t *testing.T) {
	fts := allTypes()
	src := New(fts, 64)
	for i := 0; i < 40; i++ {
		ds := rowDatums(i)
		for c := range fts {
			if i%7 == 3 && c%2 == 0 { // NULLs in every other column
				src.AppendNull(c)
			} else {
				src.AppendDatum(c, &ds[c])
			}
		}
	}
	for _, r := range [][2]int{{0, 40}, {5, 17}, {9, 9}, {30, 40}} {
		byCol, byRow := New(fts, 8), New(fts, 8)
		for c := range fts {
			if !byCol.Column(c).AppendColumn(src.Column(c), r[0], r[1]) {
				t.Fatalf("column %d: refused its own type", c)
			}
		}
		for i := r[0]; i < r[1]; i++ {
			byRow.AppendRow(src.GetRow(i))
		}
		if byCol.NumRows() != r[1]-r[0] {
			t.Fatalf("range %v: %d rows", r, byCol.NumRows())
		}
		for i := 0; i < byRow.NumRows(); i++ {
			for c, ft := range fts {
				a, b := byCol.GetRow(i).GetDatum(c, ft), byRow.GetRow(i).GetDatum(c, ft)
				if a.String() != b.String() || a.IsNull() != b.IsNull() {
					t.Fatalf("range %v row %d column %d: %v, row-wise %v", r, i, c, a, b)
				}
			}
		}
	}
	// Another layout, or another time type, is refused and nothing added.
	dst := New(fts, 8)
	for _, pair := range [][2]int{{0, 2}, {2, 3}, {7, 8}, {4, 6}} {
		if dst.Column(pair[0]).AppendColumn(src.Column(pair[1]), 0, 3) || dst.Column(pair[0]).Len() != 0 {
			t.Fatalf("column %d took column %d", pair[0], pair[1])
		}
	}
}
