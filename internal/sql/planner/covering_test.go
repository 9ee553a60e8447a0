package planner

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
)

// TestScansReadOnlyNeededColumns: the projection that puts reordered join
// columns back in FROM order does not make the scans below it decode the
// columns nothing reads.
func TestScansReadOnlyNeededColumns(t *testing.T) {
	cat := newTestCatalog(t)
	ddl(t, cat, "CREATE TABLE big (id INT PRIMARY KEY, k INT, c CHAR(100))\nCREATE TABLE small (id INT PRIMARY KEY, k INT, c CHAR(100))")
	ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	// small's range makes it the first unit: the join's columns come
	// back in FROM order through a projection.
	stmt, err := parser.New().ParseOneStmt("SELECT SUM(big.k) FROM big JOIN small ON small.id = big.k WHERE small.id < 10", "", "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Build(ctx, stmt)
	if err != nil {
		t.Fatal(err)
	}
	var scans []*TableScan
	for _, n := range explainNodes(p) {
		if s, ok := n.(*TableScan); ok {
			scans = append(scans, s)
		}
	}
	if len(scans) != 2 {
		t.Fatalf("%d table scans in\n%v", len(scans), ExplainRows(p))
	}
	for _, s := range scans {
		if s.Needed == nil {
			t.Fatalf("%s reads every column", s.Table.Name)
		}
		for i, col := range s.Table.Columns {
			if col.Name == "c" && s.Needed[i] {
				t.Errorf("%s decodes c, which nothing reads", s.Table.Name)
			}
		}
	}
}
