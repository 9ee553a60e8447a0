package statistics

import (
	"fmt"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// BenchmarkCollector is the cost per row of ANALYZE's collection (two
// columns, two indexes), without the scan.
func BenchmarkCollector(b *testing.B) {
	tbl := testTable(mysql.TypeLonglong)
	rows := make([][]types.Datum, 100000)
	for i := range rows {
		rows[i] = []types.Datum{types.NewIntDatum(int64(i % 5000)), types.NewStringDatum(fmt.Sprintf("value-%08d", i))}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := NewCollector(tbl, DefaultOptions())
		for _, r := range rows {
			c.Add(r)
		}
		c.Finish()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
}

// BenchmarkEstimate is the cost of one equality and one range estimate.
func BenchmarkEstimate(b *testing.B) {
	tbl := testTable(mysql.TypeLonglong)
	c := NewCollector(tbl, DefaultOptions())
	for i := 0; i < 100000; i++ {
		c.Add([]types.Datum{types.NewIntDatum(int64(i % 5000)), types.NewStringDatum("x")})
	}
	st := c.Finish()
	st.Meta.Version = 1
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		col := st.Column(1)
		col.EqualRows(types.NewIntDatum(int64(i % 5000)))
		col.RangeRows(Inclusive(types.NewIntDatum(100)), Exclusive(types.NewIntDatum(900)))
	}
}
