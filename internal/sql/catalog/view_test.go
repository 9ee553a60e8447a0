package catalog

import (
	"context"
	"reflect"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

func testViewDef(name string, mode ViewMode, sel string, cols ...string) *ViewDef {
	def := &ViewDef{DB: "test", Name: name, Mode: mode, View: &ViewInfo{
		Algorithm: "UNDEFINED", DefinerUser: "root", DefinerHost: "%", Security: "DEFINER",
		Select: sel, Definition: sel, CharsetClient: "utf8mb4", CollationConnection: "utf8mb4_0900_ai_ci",
	}}
	for _, c := range cols {
		def.Columns = append(def.Columns, &ColumnInfo{Name: c, FieldType: *types.NewFieldType(mysql.TypeLong)})
	}
	return def
}

// TestViewStorage: a view is stored like a table (same name space, an ID,
// a version bumped by CREATE OR REPLACE / ALTER VIEW) and a second
// Catalog over the same cluster — a restarted server — loads it whole.
func TestViewStorage(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE t (a INT PRIMARY KEY, b INT)")
	sel := "select `t`.`a` AS `a`,`t`.`b` AS `b` from `t`"
	if err := c.CreateView(ctx, testViewDef("v", ViewCreate, sel, "a", "b")); err != nil {
		t.Fatal(err)
	}
	v := mustTable(t, c, "v")
	if !v.IsView() || v.View.Select != sel || len(v.Columns) != 2 || v.Columns[1].Name != "b" ||
		v.Columns[1].ID != 2 || v.Columns[1].Offset != 1 {
		t.Fatalf("view %+v %+v", v, v.View)
	}
	if mustTable(t, c, "t").IsView() {
		t.Fatal("a table is a view")
	}

	// Names are shared with tables.
	wantCode(t, c.CreateView(ctx, testViewDef("v", ViewCreate, sel, "a")), mysql.ErrTableExists)
	wantCode(t, c.CreateView(ctx, testViewDef("t", ViewCreate, sel, "a")), mysql.ErrTableExists)
	wantCode(t, c.CreateView(ctx, testViewDef("t", ViewReplace, sel, "a")), mysql.ErrWrongObject)
	wantCode(t, c.CreateView(ctx, testViewDef("t", ViewAlter, sel, "a")), mysql.ErrWrongObject)
	wantCode(t, c.CreateView(ctx, testViewDef("nope", ViewAlter, sel, "a")), mysql.ErrNoSuchTable)
	wantCode(t, execSQL(t, c, "CREATE TABLE v (a INT)"), mysql.ErrTableExists)

	// Replacing keeps the ID and bumps the version.
	sel2 := "select `t`.`a` AS `a` from `t`"
	if err := c.CreateView(ctx, testViewDef("V", ViewReplace, sel2, "a")); err != nil {
		t.Fatal(err)
	}
	v2 := mustTable(t, c, "v")
	if v2.ID != v.ID || v2.Version != v.Version+1 || v2.Name != "v" || v2.View.Select != sel2 || len(v2.Columns) != 1 {
		t.Fatalf("replaced view %+v (was id %d version %d)", v2, v.ID, v.Version)
	}

	// A restarted server loads the view.
	c2 := New(begin, Options{})
	if _, err := c2.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := c2.InfoSchema().View("test", "v")
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != v.ID || !reflect.DeepEqual(r.View, v2.View) || r.Columns[0].Name != "a" || r.Columns[0].FieldType.Tp != mysql.TypeLong {
		t.Fatalf("reloaded view %+v %+v", r, r.View)
	}
	wantCode(t, func() error { _, err := c2.InfoSchema().View("test", "t"); return err }(), mysql.ErrWrongObject)
}

// TestViewDDLErrors: the DDL that needs a base table refuses a view with
// MySQL's errors, and DROP TABLE / DROP VIEW each find only their kind.
func TestViewDDLErrors(t *testing.T) {
	ctx := context.Background()
	c, _ := newTestCatalog(t)
	mustExec(t, c, "CREATE DATABASE other")
	mustExec(t, c, "CREATE TABLE t (a INT PRIMARY KEY)")
	if err := c.CreateView(ctx, testViewDef("v", ViewCreate, "select 1 AS `a`", "a")); err != nil {
		t.Fatal(err)
	}
	for sql, code := range map[string]uint16{
		"TRUNCATE TABLE v":               mysql.ErrNoSuchTable,
		"ALTER TABLE v ADD COLUMN b INT": mysql.ErrWrongObject,
		"CREATE INDEX i ON v (a)":        mysql.ErrWrongObject,
		"DROP INDEX i ON v":              mysql.ErrWrongObject,
		"CREATE TABLE c LIKE v":          mysql.ErrWrongObject,
		"RENAME TABLE v TO other.v":      mysql.ErrForbidSchemaChange,
		"DROP TABLE v":                   mysql.ErrBadTable,
		"DROP TABLE IF EXISTS v, t2":     0,
		"DROP VIEW t":                    mysql.ErrWrongObject,
		"DROP VIEW IF EXISTS t":          mysql.ErrWrongObject,
		"DROP VIEW v, nope":              mysql.ErrBadTable,
	} {
		err := execSQL(t, c, sql)
		if code == 0 {
			if err != nil {
				t.Errorf("%s: %v", sql, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: no error, want %d", sql, code)
			continue
		}
		wantCode(t, err, code)
	}
	// Nothing was dropped: DROP TABLE IF EXISTS skipped the view.
	mustTable(t, c, "v")
	mustTable(t, c, "t")
	mustExec(t, c, "RENAME TABLE v TO v2")
	mustExec(t, c, "DROP VIEW IF EXISTS v2, nope")
	if c.InfoSchema().TableExists("test", "v2") {
		t.Fatal("v2 still exists")
	}
}
