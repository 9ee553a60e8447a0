package planner

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// TestWindowAggregateArgs: an aggregate used as a window function reads
// its argument as the same aggregate of GROUP BY does (BIT_* read BIGINT
// UNSIGNED: 2.5 is 3, -1 all ones).
func TestWindowAggregateArgs(t *testing.T) {
	cat := newTestCatalog(t)
	ddl(t, cat, "CREATE TABLE t (a INT PRIMARY KEY, d DECIMAL(5,1), s VARCHAR(10))")
	ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	for _, arg := range []string{"d", "s", "a"} {
		for _, fn := range []string{"BIT_AND", "BIT_OR", "BIT_XOR"} {
			call := fn + "(" + arg + ")"
			grouped, err := buildSQL(ctx, "SELECT "+call+" FROM t")
			if err != nil {
				t.Fatal(err)
			}
			windowed, err := buildSQL(ctx, "SELECT "+call+" OVER () FROM t")
			if err != nil {
				t.Fatal(err)
			}
			var agg *AggFunc
			for _, n := range explainNodes(grouped) {
				if a, ok := n.(*Agg); ok {
					agg = a.Funcs[0]
				}
			}
			var win *WindowFunc
			for _, n := range explainNodes(windowed) {
				if w, ok := n.(*Window); ok {
					win = w.Funcs[0]
				}
			}
			if agg == nil || win == nil || win.Agg == nil {
				t.Fatalf("%s: no aggregate in one of the plans", call)
			}
			at, wt := agg.Args[0].Type(), win.Agg.Args[0].Type()
			if at.Tp != mysql.TypeLonglong || !at.IsUnsigned() {
				t.Errorf("%s: GROUP BY argument type %v", call, at)
			}
			if wt.Tp != at.Tp || wt.IsUnsigned() != at.IsUnsigned() {
				t.Errorf("%s OVER (): argument type %v, GROUP BY's %v", call, wt, at)
			}
		}
	}
}
