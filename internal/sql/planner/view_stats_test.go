package planner

import (
	"testing"

	"github.com/strata-db/strata/internal/sql/statistics"
	"github.com/strata-db/strata/internal/types"
)

// statsCtx is a planning context with statistics.
type statsCtx struct {
	*testCtx
	stats map[int64]*statistics.Table
}

func (c statsCtx) Stats(tableID int64) *statistics.Table { return c.stats[tableID] }

// TestViewPlansWithStatistics: a view's query plans with the statement's
// statistics, as the same query on the table does.
func TestViewPlansWithStatistics(t *testing.T) {
	cat := newTestCatalog(t)
	ddl(t, cat, "CREATE TABLE t (a INT PRIMARY KEY, k INT, KEY k (k))")
	createView(t, cat, "v", "select `t`.`a` AS `a`,`t`.`k` AS `k` from `t` where `t`.`k` > 10", "a", "k")
	is := cat.InfoSchema()
	tbl, err := is.Table("test", "t")
	if err != nil {
		t.Fatal(err)
	}
	c := statistics.NewCollector(tbl, statistics.DefaultOptions())
	for i := int64(1); i <= 1000; i++ {
		c.Add([]types.Datum{types.NewIntDatum(i), types.NewIntDatum(i)})
	}
	st := c.Finish()
	st.Meta.Version = 1 // analyzed
	ctx := statsCtx{&testCtx{IS: is, DB: "test"}, map[int64]*statistics.Table{tbl.ID: st}}
	read := func(sql string) Plan {
		t.Helper()
		p, err := buildSQL(ctx, sql)
		if err != nil {
			t.Fatal(err)
		}
		nodes := explainNodes(p)
		return nodes[len(nodes)-1]
	}
	// k > 10 finds nearly every row: with statistics a scan beats the
	// index's row lookups.
	direct := read("SELECT * FROM t WHERE k > 10")
	if !isTableScan(direct) {
		t.Fatalf("table read %T, want a scan", direct)
	}
	if got := read("SELECT * FROM v"); got == nil || !isTableScan(got) {
		t.Errorf("view's table read %T, want the table's scan", got)
	}
}

func isTableScan(p Plan) bool {
	_, ok := p.(*TableScan)
	return ok
}
