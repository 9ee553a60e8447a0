package expr

import (
	"fmt"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// sbtestChunk is 1024 rows of sysbench's sbtest table: id BIGINT, k INT,
// c CHAR(120).
func sbtestChunk() (*Columns, *chunk.Chunk) {
	fts := []*types.FieldType{
		types.NewFieldType(mysql.TypeLonglong),
		types.NewFieldType(mysql.TypeLong),
		types.NewFieldType(mysql.TypeString),
	}
	fts[2].Flen = 120
	schema := &Columns{Cols: []SchemaColumn{
		{Name: "id", Ft: fts[0]}, {Name: "k", Ft: fts[1]}, {Name: "c", Ft: fts[2]},
	}}
	chk := chunk.New(fts, 1024)
	for i := 0; i < 1024; i++ {
		chk.AppendInt64(0, int64(i))
		chk.AppendInt64(1, int64(i*7%1000))
		chk.AppendString(2, fmt.Sprintf("%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d", i, i, i, i, i, i, i, i, i, i))
	}
	return schema, chk
}

func benchExpr(b *testing.B, s string, params ...types.Datum) {
	schema, chk := sbtestChunk()
	ctx := newTestContext()
	ctx.Params = params
	e := mustBuild(b, ctx, s, schema)
	out := chunk.NewColumn(e.Type(), 1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out.Reset()
		if err := VecEval(ctx, e, chk, out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1024, "ns/row")
}

func BenchmarkEval(b *testing.B) {
	c500 := fmt.Sprintf("%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d-%011d", 500, 500, 500, 500, 500, 500, 500, 500, 500, 500)
	b.Run("k+1", func(b *testing.B) { benchExpr(b, "k + 1") })
	b.Run("id_between_params", func(b *testing.B) {
		benchExpr(b, "id BETWEEN ? AND ?", types.NewIntDatum(100), types.NewIntDatum(199))
	})
	b.Run("c_eq_param", func(b *testing.B) { benchExpr(b, "c = ?", types.NewStringDatum(c500)) })
}

func BenchmarkFilter(b *testing.B) {
	schema, chk := sbtestChunk()
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(100), types.NewIntDatum(199)}
	conds := []Expression{mustBuild(b, ctx, "id BETWEEN ? AND ?", schema)}
	var sel []bool
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if sel, err = Filter(ctx, conds, chk, sel); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1024, "ns/row")
}
