package planner

import (
	"context"
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// createView stores view name in database test with query sel and
// integer columns cols, as the session does after planning it.
func createView(t testing.TB, cat *catalog.Catalog, name, sel string, cols ...string) {
	t.Helper()
	def := &catalog.ViewDef{DB: "test", Name: name, Mode: catalog.ViewReplace, View: &catalog.ViewInfo{
		Algorithm: "UNDEFINED", DefinerUser: "root", DefinerHost: "%", Security: "DEFINER", Select: sel, Definition: sel,
	}}
	for _, c := range cols {
		def.Columns = append(def.Columns, &catalog.ColumnInfo{Name: c, FieldType: *types.NewFieldType(mysql.TypeLonglong)})
	}
	if err := cat.CreateView(context.Background(), def); err != nil {
		t.Fatal(err)
	}
}

func buildSQL(ctx Context, sql string) (Plan, error) {
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		return nil, err
	}
	return Build(ctx, stmt)
}

// TestViewPlans: a view plans as a derived table with the view's column
// names, its query resolved in the view's database; 1356 when what it
// reads is gone, 1462 when it reaches itself.
func TestViewPlans(t *testing.T) {
	cat := newTestCatalog(t)
	ddl(t, cat, "CREATE TABLE t (a INT PRIMARY KEY, b INT)\nCREATE DATABASE other\nCREATE TABLE w (p INT)")
	createView(t, cat, "v", "select `t`.`a` AS `a`,`t`.`b` AS `b` from `t` where `a`>1", "x", "y")
	createView(t, cat, "vv", "select `v`.`x` AS `x` from `v`", "x")
	createView(t, cat, "vw", "select `w`.`p` AS `p` from `w`", "p")
	for _, tc := range []struct {
		db, sql string
		cols    []string
		err     string
	}{
		{"test", "SELECT * FROM v", []string{"x", "y"}, ""},
		{"test", "SELECT y FROM v AS z WHERE z.x = 3", []string{"y"}, ""},
		{"test", "SELECT test.v.x FROM v", []string{"x"}, ""},
		{"test", "SELECT * FROM vv JOIN t ON vv.x = t.a", []string{"x", "a", "b"}, ""},
		// t resolves in the view's database, not the current one.
		{"other", "SELECT * FROM test.vv", []string{"x"}, ""},
		{"test", "SELECT a FROM v", nil, "error 1054: Unknown column 'a' in 'field list'"},
	} {
		ctx := &testCtx{IS: cat.InfoSchema(), DB: tc.db}
		p, err := buildSQL(ctx, tc.sql)
		if tc.err != "" {
			if errText(err) != tc.err {
				t.Errorf("%s: error %q, want %q", tc.sql, errText(err), tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		var names []string
		for _, c := range p.Schema() {
			if !c.Hidden {
				names = append(names, c.Name)
			}
		}
		if len(names) != len(tc.cols) {
			t.Errorf("%s: columns %v, want %v", tc.sql, names, tc.cols)
			continue
		}
		for i := range names {
			if names[i] != tc.cols[i] {
				t.Errorf("%s: columns %v, want %v", tc.sql, names, tc.cols)
			}
		}
	}

	ddl(t, cat, "DROP TABLE w")
	createView(t, cat, "v", "select `vv`.`x` AS `x`,1 AS `y` from `vv`", "x", "y")
	ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	for sql, want := range map[string]string{
		"SELECT * FROM vw": "error 1356: View 'test.vw' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them",
		"SELECT * FROM v":  "error 1462: `test`.`v` contains view recursion",
		"SELECT * FROM vv": "error 1462: `test`.`vv` contains view recursion",
	} {
		if _, err := buildSQL(ctx, sql); errText(err) != want {
			t.Errorf("%s: error %q, want %q", sql, errText(err), want)
		}
	}
}

// BenchmarkViewPlan compares planning a point read through a view with
// the same read of the table (the view's query is parsed each time).
func BenchmarkViewPlan(b *testing.B) {
	cat := newTestCatalog(b)
	ddl(b, cat, "CREATE TABLE t (a INT PRIMARY KEY, b INT)")
	createView(b, cat, "v", "select `t`.`a` AS `a`,`t`.`b` AS `b` from `t`", "a", "b")
	for _, sql := range []string{"SELECT b FROM t WHERE a = 7", "SELECT b FROM v WHERE a = 7"} {
		b.Run(sql, func(b *testing.B) {
			ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
			stmt, err := parser.New().ParseOneStmt(sql, "", "")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Build(ctx, stmt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
