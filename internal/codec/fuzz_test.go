package codec

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// FuzzDecodeKey: corrupt keys give errors, never panics; valid ones
// re-encode to themselves.
func FuzzDecodeKey(f *testing.F) {
	d, _ := types.ParseDecimal("-12.50")
	f.Add(EncodeKey(nil, types.NewIntDatum(-5), types.NewStringDatum("abc"), types.NewDecimalDatum(d), types.NewNullDatum()))
	f.Add([]byte{decimalFlag, decPos, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		ds, err := Decode(b)
		if err != nil {
			return
		}
		_ = EncodeKey(nil, ds...)
	})
}

// FuzzDecodeRow: corrupt rows give errors, never panics.
func FuzzDecodeRow(f *testing.F) {
	d, _ := types.ParseDecimal("3.25")
	f.Add(EncodeRow([]int64{1, 2, 3}, []types.Datum{types.NewIntDatum(9), types.NewStringDatum("xy"), types.NewDecimalDatum(d)}))
	f.Add(EncodeRow([]int64{300, 2}, []types.Datum{types.NewNullDatum(), types.NewFloat64Datum(1.5)}))
	dec := types.NewFieldType(mysql.TypeNewDecimal)
	dec.Decimal = 2
	cols := []ColInfo{
		{ID: 1, Ft: types.NewFieldType(mysql.TypeLonglong)}, {ID: 2, Ft: types.NewFieldType(mysql.TypeVarchar)},
		{ID: 3, Ft: dec}, {ID: 300, Ft: types.NewFieldType(mysql.TypeDouble)},
	}
	fts := []*types.FieldType{cols[0].Ft, cols[1].Ft, cols[2].Ft, cols[3].Ft}
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = DecodeRowToChunk(b, cols, 0, chunk.New(fts, 1))
		_, _ = DecodeRowToDatums(b, cols, 0)
	})
}
