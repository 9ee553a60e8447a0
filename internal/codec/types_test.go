package codec

import (
	"bytes"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// TestRowEnumSetJSONBit round-trips ENUM, SET, JSON and BIT values through
// the row format, into datums and into chunks.
func TestRowEnumSetJSONBit(t *testing.T) {
	enum := &types.FieldType{Tp: mysql.TypeEnum, Elems: []string{"x", "y", "z"}, Charset: "utf8mb4", Collate: "utf8mb4_bin"}
	set := &types.FieldType{Tp: mysql.TypeSet, Elems: []string{"a", "b", "c"}, Charset: "utf8mb4", Collate: "utf8mb4_bin"}
	jft := types.NewFieldType(mysql.TypeJSON)
	bit := &types.FieldType{Tp: mysql.TypeBit, Flen: 8, Flag: mysql.UnsignedFlag}
	dec, err := types.ParseDecimal("2.50")
	if err != nil {
		t.Fatal(err)
	}
	var ob types.JSONObjectBuilder
	ob.Add("b", types.JSONFromArray([]types.JSON{types.JSONFromInt(1), types.JSONFromDecimal(dec), types.JSONFromString("x")}))
	ob.Add("a", types.JSONNullValue())
	doc := ob.Build()
	row := []types.Datum{enum.EnumDatum(3), set.SetDatum(5), types.NewJSONDatum(doc), types.NewUintDatum(200)}
	cols := []ColInfo{{ID: 1, Ft: enum}, {ID: 2, Ft: set}, {ID: 3, Ft: jft}, {ID: 4, Ft: bit}}
	val := EncodeRow([]int64{1, 2, 3, 4}, row)
	got, err := DecodeRowToDatums(val, cols, 0)
	if err != nil {
		t.Fatal(err)
	}
	chk := chunk.New([]*types.FieldType{enum, set, jft, bit}, 1)
	if err := DecodeRowToChunk(val, cols, 0, chk); err != nil {
		t.Fatal(err)
	}
	fromChunk := chk.GetRow(0).GetDatums([]*types.FieldType{enum, set, jft, bit})
	for i, want := range []string{"z", "a,c", `{"a": null, "b": [1, 2.50, "x"]}`, "200"} {
		for _, d := range []types.Datum{got[i], fromChunk[i]} {
			if d.String() != want || d.Kind() != row[i].Kind() {
				t.Errorf("column %d: %s (%s), want %s (%s)", i, d, d.Kind(), want, row[i].Kind())
			}
		}
	}
	if got[0].GetEnumValue() != 3 || fromChunk[1].GetEnumValue() != 5 {
		t.Errorf("enum/set numbers: %d %d", got[0].GetEnumValue(), fromChunk[1].GetEnumValue())
	}
}

// TestKeyEnumOrder checks that ENUM keys order by member index (MySQL's
// index order), not by name, and decode back to the member.
func TestKeyEnumOrder(t *testing.T) {
	enum := &types.FieldType{Tp: mysql.TypeEnum, Elems: []string{"z", "y", "x"}}
	var prev []byte
	for i := uint64(0); i <= 3; i++ {
		k := EncodeKey(nil, enum.EnumDatum(i))
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			t.Errorf("index %d does not sort after %d", i, i-1)
		}
		prev = k
		_, d, err := DecodeKeyValue(k, enum)
		if err != nil || d.Kind() != types.KindEnum || d.GetEnumValue() != i {
			t.Errorf("decode %d: %v %s %v", i, d, d.Kind(), err)
		}
	}
}
