package sqlnode

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/go-sql-driver/mysql"
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

// TestAutocommitPointWritesLoseNothing: autocommit UPDATEs of one row by
// primary key read the row at its newest version while their start ts
// is on its way from PD (txnclient.BeginNewest). Connections increment
// three rows, an indexed column with them, and swap a fourth between two
// index values. Every statement that succeeded landed exactly once, one
// that failed (a write conflict past the retries) not at all, and the
// index agrees with the rows.
func TestAutocommitPointWritesLoseNothing(t *testing.T) {
	n, statusAddr := startServerWithStatus(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE d")
	admin.exec("CREATE TABLE d.t (id INT PRIMARY KEY, n INT NOT NULL, k INT NOT NULL, KEY kk (k))")
	admin.exec("INSERT INTO d.t VALUES (1, 0, 1000), (2, 0, 2000), (3, 0, 3000), (4, 0, 0)")
	const workers, rounds = 6, 60
	before := stmtRetries(t, statusAddr)
	var done [5]atomic.Int64 // successful updates per id
	var failed atomic.Int64
	errs := make(chan error, workers)
	for w := range workers {
		go func() {
			c, err := db.Conn(t.Context())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			for i := range rounds {
				q, id := "UPDATE d.t SET n = n + 1, k = k + 1 WHERE id = ?", 1+(w+i)%3
				if w < 2 && i%3 == 0 {
					q, id = "UPDATE d.t SET n = n + 1, k = 1 - k WHERE id = ?", 4
				}
				_, err := c.ExecContext(t.Context(), q, id)
				var me *mysql.MySQLError
				switch {
				case err == nil:
					done[id].Add(1)
				case errors.As(err, &me) && me.Number == 1213: // lost the race 11 times
					failed.Add(1)
				default:
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	d := func(id int) int64 { return done[id].Load() }
	want := fmt.Sprintf("1:%d,%d 2:%d,%d 3:%d,%d 4:%d,%d", d(1), 1000+d(1), d(2), 2000+d(2), d(3), 3000+d(3), d(4), d(4)%2)
	if got := admin.one("SELECT GROUP_CONCAT(CONCAT(id, ':', n, ',', k) ORDER BY id SEPARATOR ' ') FROM d.t"); got != want {
		t.Errorf("rows (id:n,k) %s, want %s from the statements that succeeded", got, want)
	}
	if got := admin.one("SELECT GROUP_CONCAT(id ORDER BY k) FROM d.t FORCE INDEX (kk) WHERE k >= 0"); got != "4,1,2,3" {
		t.Errorf("index kk lists ids %s, want 4,1,2,3", got)
	}
	if got := admin.one("SELECT COUNT(*) FROM d.t FORCE INDEX (kk)"); got != "4" {
		t.Errorf("index kk has %s entries, want 4", got)
	}
	t.Logf("%d statements failed, %v ran again after a write conflict", failed.Load(), stmtRetries(t, statusAddr)-before)
}
