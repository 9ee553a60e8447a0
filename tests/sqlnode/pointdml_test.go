package sqlnode

import (
	"regexp"
	"strconv"
	"testing"
)

// stmtRetries reads strata_sql_stmt_retries_total from the server's
// status port.
func stmtRetries(t *testing.T, statusAddr string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^strata_sql_stmt_retries_total (\S+)$`).FindStringSubmatch(statusGet(t, statusAddr, "/metrics"))
	if m == nil {
		t.Fatal("/metrics lacks strata_sql_stmt_retries_total")
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPessimisticPointDMLForUpdateTS: a point UPDATE or DELETE in a
// pessimistic transaction runs at the transaction's current for_update_ts
// (no new timestamp from PD, as in TiDB); a row changed by a commit after
// that ts fails its lock, and the statement runs again at a fresh
// for_update_ts: it sees the other commit, nothing is lost.
func TestPessimisticPointDMLForUpdateTS(t *testing.T) {
	n, statusAddr := startServerWithStatus(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE d")
	admin.exec("CREATE TABLE d.t (id INT PRIMARY KEY, n INT NOT NULL, k INT, KEY kk (k))")
	admin.exec("INSERT INTO d.t VALUES (1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 0, 4), (5, 0, 5)")
	c1 := newConn(t, db)
	c1.exec("BEGIN")
	c1.exec("UPDATE d.t SET n = n + 1 WHERE id = 1")
	before := stmtRetries(t, statusAddr)
	admin.exec("UPDATE d.t SET n = n + 100, k = k + 100 WHERE id = 2")
	c1.exec("UPDATE d.t SET n = n + 1, k = k + 1 WHERE id = 2")
	admin.exec("DELETE FROM d.t WHERE id = 3")
	res, err := c1.c.ExecContext(t.Context(), "DELETE FROM d.t WHERE id = 3")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := res.RowsAffected(); err != nil || got != 0 {
		t.Errorf("DELETE of a row another commit deleted: %d rows affected (%v), want 0", got, err)
	}
	c1.exec("UPDATE d.t SET n = n + 1 WHERE id = 4")
	// A range statement reads more than it locks: it takes a new
	// for_update_ts and does not run twice.
	admin.exec("UPDATE d.t SET n = n + 10 WHERE id = 5")
	c1.exec("UPDATE d.t SET n = n + 1 WHERE id >= 4")
	if d := stmtRetries(t, statusAddr) - before; d != 2 {
		t.Errorf("%v statement retries, want 2: each point statement reads at the txn's for_update_ts, "+
			"and only those meeting a newer commit run again", d)
	}
	c1.exec("COMMIT")
	if got := admin.one("SELECT GROUP_CONCAT(CONCAT(id, ':', n, ',', k) ORDER BY id) FROM d.t"); got != "1:1,1,2:101,103,4:2,4,5:11,5" {
		t.Fatalf("rows = %s, want 1:1,1,2:101,103,4:2,4,5:11,5", got)
	}
	if got := admin.one("SELECT COUNT(*) FROM d.t WHERE k = 103"); got != "1" {
		t.Fatalf("index kk finds %s rows at 103", got)
	}
}

// TestPessimisticPointDMLStaleDuplicate: a point UPDATE first tried at the
// txn's current for_update_ts checks a new unique value against rows as
// of that ts; a row that held the value but was deleted since must not
// make it fail with a duplicate key: the error sends it to a fresh ts.
func TestPessimisticPointDMLStaleDuplicate(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE d")
	admin.exec("CREATE TABLE d.u (id INT PRIMARY KEY, u INT, UNIQUE KEY uu (u))")
	admin.exec("INSERT INTO d.u VALUES (1, 10), (2, 20), (3, 30)")
	c1 := newConn(t, db)
	c1.exec("BEGIN")
	c1.exec("UPDATE d.u SET u = 11 WHERE id = 1")
	admin.exec("DELETE FROM d.u WHERE id = 3")
	c1.exec("UPDATE d.u SET u = 30 WHERE id = 2")
	if err := c1.try("UPDATE d.u SET u = 11 WHERE id = 2"); mysqlErrno(err) != 1062 {
		t.Errorf("a real duplicate: %v, want 1062", err)
	}
	c1.exec("COMMIT")
	if got := admin.one("SELECT GROUP_CONCAT(CONCAT(id, ':', u) ORDER BY id) FROM d.u"); got != "1:11,2:30" {
		t.Fatalf("rows = %s, want 1:11,2:30", got)
	}
}

// TestPessimisticPointDMLLocksAsItReads: a point statement of a
// pessimistic transaction locks each row as it reads it (the lock returns
// the row). An INSERT of VALUES reuses the transaction's for_update_ts
// too: a row committed since makes it run again at a fresh one, so it
// sees the duplicate, and a row deleted since does not fail it. A
// statement that fails after reading keeps the locks it took, as in
// InnoDB.
func TestPessimisticPointDMLLocksAsItReads(t *testing.T) {
	n, statusAddr := startServerWithStatus(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE d")
	admin.exec("CREATE TABLE d.t (id INT PRIMARY KEY, n INT NOT NULL, k INT, KEY kk (k))")
	admin.exec("INSERT INTO d.t VALUES (1, 0, 1), (2, 0, 2), (3, 0, 3), (4, 0, 4)")
	c1 := newConn(t, db)
	c1.exec("BEGIN")
	c1.exec("UPDATE d.t SET n = n + 1 WHERE id = 1")
	// fails after reading row 2: its lock stays
	if err := c1.try("UPDATE d.t SET n = NULL WHERE id = 2"); mysqlErrno(err) != 1048 {
		t.Fatalf("UPDATE setting NOT NULL n to NULL: %v, want 1048", err)
	}
	c2 := newConn(t, db)
	c2.exec("SET innodb_lock_wait_timeout = 1")
	c2.exec("BEGIN")
	for _, q := range []string{"UPDATE d.t SET n = 100 WHERE id = 1", "DELETE FROM d.t WHERE id = 2"} {
		if err := c2.try(q); mysqlErrno(err) != 1205 {
			t.Fatalf("%s, row locked by another txn: %v, want 1205", q, err)
		}
	}
	c2.exec("ROLLBACK")
	before := stmtRetries(t, statusAddr)
	admin.exec("INSERT INTO d.t VALUES (10, 0, 10)")
	if err := c1.try("INSERT INTO d.t VALUES (10, 1, 1)"); mysqlErrno(err) != 1062 {
		t.Fatalf("INSERT of a key committed after the txn's for_update_ts: %v, want 1062", err)
	}
	admin.exec("DELETE FROM d.t WHERE id = 4")
	c1.exec("INSERT INTO d.t VALUES (4, 1, 1)")
	if d := stmtRetries(t, statusAddr) - before; d != 2 {
		t.Errorf("%v statement retries, want 2 (each INSERT met a newer commit)", d)
	}
	c1.exec("DELETE FROM d.t WHERE id = 3")
	c1.exec("INSERT INTO d.t VALUES (3, 5, 5)")
	c1.exec("COMMIT")
	if got := admin.one("SELECT GROUP_CONCAT(CONCAT(id, ':', n, ',', k) ORDER BY id) FROM d.t"); got != "1:1,1,2:0,2,3:5,5,4:1,1,10:0,10" {
		t.Fatalf("rows = %s", got)
	}
	if got := admin.one("SELECT GROUP_CONCAT(id ORDER BY id) FROM d.t WHERE k IN (1, 3, 5)"); got != "1,3,4" {
		t.Fatalf("index kk finds %s for k IN (1, 3, 5)", got)
	}
}
