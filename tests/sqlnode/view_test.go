package sqlnode

import (
	"testing"
	"time"
)

// TestViewsAcrossRestart: views (one over another) survive a restart of
// `strata server` with their definition; reading a view needs SELECT on
// the view only (SQL SECURITY DEFINER), not on the tables under it;
// writing through a view is refused.
func TestViewsAcrossRestart(t *testing.T) {
	n := startServer(t)
	root := n.db("")
	mustExec(t, root,
		"CREATE DATABASE vdb",
		"CREATE TABLE vdb.t (a INT PRIMARY KEY, secret VARCHAR(10))",
		"INSERT INTO vdb.t VALUES (1, 's1'), (2, 's2')",
		"CREATE VIEW vdb.pub AS SELECT a FROM vdb.t",
		"CREATE VIEW vdb.pub2 (x) AS SELECT a * 10 FROM vdb.pub",
	)
	var before string
	if err := root.QueryRow("SHOW CREATE VIEW vdb.pub2").Scan(new(string), &before, new(string), new(string)); err != nil {
		t.Fatal(err)
	}
	if err := n.proc.Stop(30 * time.Second); err != nil {
		t.Fatalf("stop: %v", err)
	}
	n.start()
	root = n.db("")
	var after string
	if err := root.QueryRow("SHOW CREATE VIEW vdb.pub2").Scan(new(string), &after, new(string), new(string)); err != nil {
		t.Fatalf("view after restart: %v", err)
	}
	if after != before {
		t.Errorf("SHOW CREATE VIEW after restart:\n%s\nbefore:\n%s", after, before)
	}
	var sum int
	if err := root.QueryRow("SELECT SUM(x) FROM vdb.pub2").Scan(&sum); err != nil || sum != 30 {
		t.Fatalf("SUM(x) over the view after restart: %d, %v", sum, err)
	}
	var kind string
	if err := root.QueryRow("SELECT TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'vdb' AND TABLE_NAME = 'pub'").Scan(&kind); err != nil || kind != "VIEW" {
		t.Fatalf("TABLE_TYPE of the view: %q, %v", kind, err)
	}

	mustExec(t, root, "CREATE USER 'viewer'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON vdb.pub TO 'viewer'@'%'")
	viewer := n.dbAs("viewer", "pw")
	var cnt int
	if err := viewer.QueryRow("SELECT COUNT(*) FROM vdb.pub").Scan(&cnt); err != nil || cnt != 2 {
		t.Errorf("viewer reads the view: %d, %v", cnt, err)
	}
	_, err := viewer.Exec("SELECT * FROM vdb.t")
	wantErr(t, "viewer reads the table under the view", err, 1142, "SELECT command denied")
	_, err = viewer.Exec("SELECT * FROM vdb.pub2")
	wantErr(t, "viewer reads a view it holds no grant on", err, 1142, "SELECT command denied")

	// What a view reads is read with its definer's rights (DEFINER) or
	// the reader's (INVOKER): 1356 when that account may not, 1449 for a
	// definer that does not exist.
	mustExec(t, root,
		"CREATE SQL SECURITY INVOKER VIEW vdb.inv AS SELECT a FROM vdb.t",
		"CREATE USER 'weak'@'%'",
		"CREATE DEFINER = 'weak'@'%' VIEW vdb.weakv AS SELECT a FROM vdb.t",
		"CREATE DEFINER = 'ghost'@'%' VIEW vdb.ghostv AS SELECT 1 AS one",
		"GRANT SELECT ON vdb.inv TO 'viewer'@'%'",
		"GRANT SELECT ON vdb.weakv TO 'viewer'@'%'",
		"GRANT SELECT ON vdb.ghostv TO 'viewer'@'%'",
	)
	_, err = viewer.Exec("SELECT * FROM vdb.inv")
	wantErr(t, "INVOKER view over a table the reader may not read", err, 1356, "View 'vdb.inv' references invalid")
	_, err = viewer.Exec("SELECT * FROM vdb.weakv")
	wantErr(t, "DEFINER view whose definer may not read its table", err, 1356, "View 'vdb.weakv' references invalid")
	_, err = root.Exec("SELECT * FROM vdb.weakv")
	wantErr(t, "root reads the weak definer's view", err, 1356, "View 'vdb.weakv'")
	_, err = viewer.Exec("SELECT * FROM vdb.ghostv")
	wantErr(t, "view of a missing definer", err, 1449, "The user specified as a definer ('ghost'@'%') does not exist")
	mustExec(t, root, "GRANT SELECT ON vdb.t TO 'weak'@'%'")
	if err := viewer.QueryRow("SELECT COUNT(*) FROM vdb.weakv").Scan(&cnt); err != nil || cnt != 2 {
		t.Errorf("viewer reads the view once its definer may read the table: %d, %v", cnt, err)
	}
	_, err = viewer.Exec("CREATE VIEW vdb.mine AS SELECT 1")
	wantErr(t, "viewer creates a view", err, 1142, "CREATE command denied")
	_, err = root.Exec("INSERT INTO vdb.pub VALUES (3)")
	wantErr(t, "INSERT through a view", err, 1471, "The target table pub of the INSERT is not insertable-into")
	_, err = root.Exec("DROP TABLE vdb.pub")
	wantErr(t, "DROP TABLE of a view", err, 1051, "Unknown table 'vdb.pub'")
	mustExec(t, root, "DROP VIEW vdb.pub")
	_, err = root.Exec("SELECT * FROM vdb.pub2")
	wantErr(t, "a view over a dropped view", err, 1356, "View 'vdb.pub2' references invalid table(s)")
}
