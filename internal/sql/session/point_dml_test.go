package session

import (
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/testutil/sqltest"
)

// Which statements skip a timestamp from PD: autocommit point reads of
// one primary key (pointRead); which read their row while it is on its
// way: autocommit UPDATE / DELETE of one row by primary key on tables
// without foreign keys, an UPDATE only on tables without unique indexes
// and leaving the key alone (pointWrite); and, in a pessimistic txn, UPDATE / DELETE
// that read only through point gets on tables without foreign keys
// (pointDML), and INSERT / REPLACE of VALUES. Anything reading a range,
// through a join or a subquery, or checking or cascading a foreign key
// does not.
func TestPointStatements(t *testing.T) {
	cat, _ := sqltest.NewCatalog(t)
	sqltest.DDL(t, cat, `CREATE TABLE t (id INT PRIMARY KEY, u INT, k INT, c VARCHAR(10), UNIQUE KEY uu (u), KEY kk (k))
CREATE TABLE s (id INT PRIMARY KEY, k INT, c VARCHAR(10), KEY kk (k))
CREATE TABLE p (id INT PRIMARY KEY)
CREATE TABLE ch (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES p (id) ON DELETE CASCADE)`)
	ctx := &sqltest.Ctx{IS: cat.InfoSchema(), DB: "test"}
	plan := func(sql string) planner.Plan {
		t.Helper()
		stmt, err := parser.New().ParseOneStmt(sql, "", "")
		if err != nil {
			t.Fatal(err)
		}
		expr.ParamMarkers(stmt)
		p, err := planner.Build(ctx, stmt)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return p
	}
	for _, tc := range []struct {
		sql    string
		read   bool
		write  bool
		newest bool
	}{
		{"SELECT c FROM t WHERE id = ?", true, false, false},
		{"SELECT c FROM t WHERE id = 7 AND k > 3", true, false, false},
		{"SELECT c FROM t WHERE u = 7", false, false, false},
		{"SELECT c FROM t WHERE id IN (1, 2)", false, false, false},
		{"SELECT c FROM t WHERE id BETWEEN 1 AND 9", false, false, false},
		{"SELECT c FROM t WHERE id = 1 FOR UPDATE", false, false, false},
		{"SELECT c FROM t WHERE id = (SELECT MAX(id) FROM t)", false, false, false},
		{"UPDATE t SET k = k + 1 WHERE id = ?", false, true, false},
		{"UPDATE s SET k = k + 1 WHERE id = ?", false, true, true},
		{"UPDATE s SET c = ? WHERE id = ? AND k = 3", false, true, true},
		{"UPDATE s SET id = id + 1 WHERE id = 3", false, true, false},
		{"DELETE FROM s WHERE id = 3", false, true, true},
		{"UPDATE t SET c = 'x' WHERE u = 5", false, true, false},
		{"DELETE FROM t WHERE id = 3", false, true, true},
		{"UPDATE t SET k = k + 1 WHERE id >= 3", false, false, false},
		{"UPDATE t SET k = 1 WHERE id = 3 AND k IN (SELECT k FROM t WHERE id > 5)", false, false, false},
		{"DELETE FROM p WHERE id = 3", false, false, false},
		{"UPDATE ch SET pid = 2 WHERE id = 3", false, false, false},
		{"INSERT INTO t VALUES (1, 1, 1, 'a')", false, true, false},
		{"INSERT INTO t VALUES (1, 1, 1, 'a') ON DUPLICATE KEY UPDATE k = k + 1", false, true, false},
		{"REPLACE INTO t VALUES (1, 1, 1, 'a')", false, true, false},
		{"INSERT INTO t SELECT id + 1, u, k, c FROM t WHERE id = 3", false, false, false},
		{"INSERT INTO ch VALUES (1, 1)", false, false, false},
		{"INSERT INTO p VALUES (1)", false, false, false},
	} {
		p := plan(tc.sql)
		if got := pointRead(p); got != tc.read {
			t.Errorf("pointRead(%s) = %v", tc.sql, got)
		}
		if got := pointDML(p); got != tc.write {
			t.Errorf("pointDML(%s) = %v", tc.sql, got)
		}
		if got := pointWrite(p); got != tc.newest {
			t.Errorf("pointWrite(%s) = %v", tc.sql, got)
		}
	}
}
