package codec

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// sbtest row: id INT (the handle), k INT, c CHAR(120), pad CHAR(60).
func sysbenchRow() ([]int64, []types.Datum, []ColInfo) {
	c := types.NewFieldType(mysql.TypeString)
	c.Flen = 120
	pad := types.NewFieldType(mysql.TypeString)
	pad.Flen = 60
	cols := []ColInfo{
		{ID: 1, Ft: types.NewFieldType(mysql.TypeLong), IsPKHandle: true},
		{ID: 2, Ft: types.NewFieldType(mysql.TypeLong)},
		{ID: 3, Ft: c},
		{ID: 4, Ft: pad},
	}
	ids := []int64{2, 3, 4}
	datums := []types.Datum{
		types.NewIntDatum(49929),
		types.NewStringDatum(strings.Repeat("83868641912-", 10)[:119]),
		types.NewStringDatum(strings.Repeat("67847967377-", 5)[:59]),
	}
	return ids, datums, cols
}

func BenchmarkEncodeRowSysbench(b *testing.B) {
	ids, datums, _ := sysbenchRow()
	var enc RowEncoder
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = enc.Encode(buf[:0], ids, datums)
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkDecodeRowToChunkSysbench(b *testing.B) {
	ids, datums, cols := sysbenchRow()
	row := EncodeRow(ids, datums)
	fts := make([]*types.FieldType, len(cols))
	for i := range cols {
		fts[i] = cols[i].Ft
	}
	chk := chunk.New(fts, chunk.DefaultCapacity)
	b.ReportAllocs()
	for b.Loop() {
		if chk.IsFull() {
			chk.Reset()
		}
		if err := DecodeRowToChunk(row, cols, 7, chk); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRowToDatumsSysbench(b *testing.B) {
	ids, datums, cols := sysbenchRow()
	row := EncodeRow(ids, datums)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRowToDatums(row, cols, 7); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecordKey(b *testing.B) {
	buf := make([]byte, 0, RecordKeyLen)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendTableRecordKey(buf[:0], 104, 49929)
	}
}

func BenchmarkEncodeIndexKeyInt(b *testing.B) {
	d := []types.Datum{types.NewIntDatum(49929)}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = EncodeKey(buf[:0], d...)
	}
}
