package codec

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

func parseFieldType(t *testing.T, s string) *types.FieldType {
	t.Helper()
	stmt, err := parser.New().ParseOneStmt("CREATE TABLE t (c "+strings.ReplaceAll(s, "_", " ")+")", "", "")
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return types.FromParser(stmt.(*ast.CreateTableStmt).Cols[0].Tp)
}

func parseValue(t *testing.T, s string, ft *types.FieldType) types.Datum {
	t.Helper()
	if s == "NULL" {
		return types.NewNullDatum()
	}
	d, err := types.ConvertDatum(types.NewStringDatum(s), ft)
	if err != nil {
		t.Fatalf("value %q for %s: %v", s, ft, err)
	}
	return d
}

// TestRowDataDriven pins the row format:
//
//	encode: lines "<colID> <type> <value|NULL>" → the row's bytes
//	decode [handle=N]: lines "<colID> <type> [default=<value>] [handle]"
//	        → the columns read from the last encoded row, via a chunk and
//	        via datums
func TestRowDataDriven(t *testing.T) {
	var row []byte
	datadriven.RunTest(t, "testdata/row", func(t *testing.T, td *datadriven.TestData) string {
		switch td.Cmd {
		case "encode":
			var ids []int64
			var datums []types.Datum
			for _, l := range lines(td.Input) {
				f := strings.SplitN(l, " ", 3)
				id, _ := strconv.ParseInt(f[0], 10, 64)
				ids = append(ids, id)
				datums = append(datums, parseValue(t, f[2], parseFieldType(t, f[1])))
			}
			row = EncodeRow(ids, datums)
			return fmt.Sprintf("%d bytes: % x\n", len(row), row)
		case "decode":
			var handle int64
			if td.HasArg("handle") {
				td.ScanArgs(t, "handle", &handle)
			}
			var cols []ColInfo
			var fts []*types.FieldType
			for _, l := range lines(td.Input) {
				f := strings.Fields(l)
				id, _ := strconv.ParseInt(f[0], 10, 64)
				c := ColInfo{ID: id, Ft: parseFieldType(t, f[1])}
				for _, opt := range f[2:] {
					if v, ok := strings.CutPrefix(opt, "default="); ok {
						c.Default = parseValue(t, v, c.Ft)
					} else if opt == "handle" {
						c.IsPKHandle = true
					}
				}
				cols = append(cols, c)
				fts = append(fts, c.Ft)
			}
			chk := chunk.New(fts, 1)
			if err := DecodeRowToChunk(row, cols, handle, chk); err != nil {
				return "error: " + err.Error() + "\n"
			}
			datums, err := DecodeRowToDatums(row, cols, handle)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			var sb strings.Builder
			r := chk.GetRow(0)
			for i, c := range cols {
				d := r.GetDatum(i, c.Ft)
				if d.String() != datums[i].String() || d.Kind() != datums[i].Kind() {
					t.Fatalf("chunk %v vs datums %v", d, datums[i])
				}
				fmt.Fprintf(&sb, "%d %s: %s %s\n", c.ID, c.Ft, d.Kind(), d.String())
			}
			return sb.String()
		}
		t.Fatalf("unknown command %s", td.Cmd)
		return ""
	})
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestRowRoundTripRandom encodes random rows of every type, with NULLs,
// small and large column IDs and long values, and decodes them back.
func TestRowRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	mk := func(tp byte, flag uint, dec int) *types.FieldType {
		ft := types.NewFieldType(tp)
		ft.Flag |= flag
		ft.Decimal = dec
		return ft
	}
	fts := []*types.FieldType{
		mk(mysql.TypeLonglong, 0, 0), mk(mysql.TypeLonglong, mysql.UnsignedFlag, 0), mk(mysql.TypeDouble, 0, -1),
		mk(mysql.TypeFloat, 0, -1), mk(mysql.TypeVarchar, 0, 0), mk(mysql.TypeNewDecimal, 0, 3),
		mk(mysql.TypeDatetime, 0, 6), mk(mysql.TypeDuration, 0, 6), mk(mysql.TypeDate, 0, 0),
	}
	gen := func(ft *types.FieldType) types.Datum {
		if rng.Intn(5) == 0 {
			return types.NewNullDatum()
		}
		switch ft.EvalType() {
		case types.ETInt:
			if ft.IsUnsigned() {
				return types.NewUintDatum(rng.Uint64() >> rng.Intn(64))
			}
			v := rng.Int63() >> rng.Intn(63)
			if rng.Intn(2) == 0 {
				v = -v - 1
			}
			return types.NewIntDatum(v)
		case types.ETReal:
			if ft.Tp == mysql.TypeFloat {
				return types.NewFloat32Datum(float32(rng.NormFloat64()))
			}
			return types.NewFloat64Datum(rng.NormFloat64() * math.Pow10(rng.Intn(20)))
		case types.ETDecimal:
			d := randDatum(rng, types.KindDecimal)
			r, _ := d.GetDecimal().ToFieldType(65, 3)
			return types.NewDecimalDatum(r)
		case types.ETDatetime:
			d := randDatum(rng, types.KindTime)
			if ft.Tp == mysql.TypeDate {
				tm := d.GetTime()
				tm.Hour, tm.Minute, tm.Second, tm.Microsecond, tm.Type, tm.Fsp = 0, 0, 0, 0, mysql.TypeDate, 0
				return types.NewTimeDatum(tm)
			}
			return d
		case types.ETDuration:
			return randDatum(rng, types.KindDuration)
		}
		b := make([]byte, rng.Intn(3)*rng.Intn(40000))
		rng.Read(b)
		return types.NewStringDatumBytes(b)
	}
	var enc RowEncoder
	for iter := 0; iter < 300; iter++ {
		n := rng.Intn(len(fts)) + 1
		perm := rng.Perm(len(fts))[:n]
		ids := make([]int64, n)
		datums := make([]types.Datum, n)
		cols := make([]ColInfo, n)
		colFts := make([]*types.FieldType, n)
		base := int64(1)
		if rng.Intn(3) == 0 {
			base = 1000
		}
		for i, p := range perm {
			ids[i] = base + int64(p)
			datums[i] = gen(fts[p])
			cols[i] = ColInfo{ID: ids[i], Ft: fts[p]}
			colFts[i] = fts[p]
		}
		row := enc.Encode(nil, ids, datums)
		chk := chunk.New(colFts, 1)
		if err := DecodeRowToChunk(row, cols, 0, chk); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeRowToDatums(row, cols, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range datums {
			fromChunk := chk.GetRow(0).GetDatum(i, colFts[i])
			for _, g := range []types.Datum{fromChunk, got[i]} {
				if g.IsNull() != datums[i].IsNull() || g.Compare(&datums[i]) != 0 || g.String() != datums[i].String() {
					t.Fatalf("iter %d col %d (%s): got %v want %v", iter, ids[i], colFts[i], g, datums[i])
				}
			}
		}
	}
}

func TestRowCorrupt(t *testing.T) {
	row := EncodeRow([]int64{1, 2}, []types.Datum{types.NewIntDatum(1), types.NewStringDatum("abc")})
	cols := []ColInfo{{ID: 1, Ft: types.NewFieldType(mysql.TypeLonglong)}, {ID: 2, Ft: types.NewFieldType(mysql.TypeVarchar)}}
	for _, bad := range [][]byte{nil, {1, 2, 3}, row[:len(row)-1], append(append([]byte{}, row...), 0)} {
		chk := chunk.New([]*types.FieldType{cols[0].Ft, cols[1].Ft}, 1)
		if err := DecodeRowToChunk(bad, cols, 0, chk); err == nil {
			t.Fatalf("corrupt row %x decoded", bad)
		}
	}
}

func TestEncodeRowDuplicateIDPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	EncodeRow([]int64{3, 3}, []types.Datum{types.NewIntDatum(1), types.NewIntDatum(2)})
}
