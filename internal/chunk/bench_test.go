package chunk

import (
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// sysbenchTypes is sbtest's shape: id INT, k INT, c CHAR(120), pad CHAR(60).
func sysbenchTypes() []*types.FieldType {
	c := types.NewFieldType(mysql.TypeString)
	c.Flen = 120
	pad := types.NewFieldType(mysql.TypeString)
	pad.Flen = 60
	return []*types.FieldType{types.NewFieldType(mysql.TypeLong), types.NewFieldType(mysql.TypeLong), c, pad}
}

var (
	benchC   = []byte(strings.Repeat("12345678901-", 10)[:119])
	benchPad = []byte(strings.Repeat("98765-", 10)[:59])
)

func BenchmarkAppend1024(b *testing.B) {
	chk := New(sysbenchTypes(), DefaultCapacity)
	b.ReportAllocs()
	for b.Loop() {
		chk.Reset()
		for i := 0; i < DefaultCapacity; i++ {
			chk.AppendInt64(0, int64(i))
			chk.AppendInt64(1, int64(i*7))
			chk.AppendBytes(2, benchC)
			chk.AppendBytes(3, benchPad)
		}
	}
}

func BenchmarkAppendDatum1024(b *testing.B) {
	chk := New(sysbenchTypes(), DefaultCapacity)
	row := []types.Datum{types.NewIntDatum(1), types.NewIntDatum(2), types.NewBytesDatum(benchC), types.NewBytesDatum(benchPad)}
	b.ReportAllocs()
	for b.Loop() {
		chk.Reset()
		for i := 0; i < DefaultCapacity; i++ {
			for c := range row {
				chk.AppendDatum(c, &row[c])
			}
		}
	}
}

func BenchmarkRead1024(b *testing.B) {
	chk := New(sysbenchTypes(), DefaultCapacity)
	for i := 0; i < DefaultCapacity; i++ {
		chk.AppendInt64(0, int64(i))
		chk.AppendInt64(1, int64(i*7))
		chk.AppendBytes(2, benchC)
		chk.AppendBytes(3, benchPad)
	}
	b.ReportAllocs()
	var sum int64
	for b.Loop() {
		for i := 0; i < chk.NumRows(); i++ {
			r := chk.GetRow(i)
			if !r.IsNull(0) {
				sum += r.GetInt64(0) + r.GetInt64(1) + int64(len(r.GetBytes(2))+len(r.GetBytes(3)))
			}
		}
	}
	_ = sum
}
