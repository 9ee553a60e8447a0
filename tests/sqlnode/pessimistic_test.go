package sqlnode

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/tests/testproc"
)

// conn is one client connection (one session) of the test.
type conn struct {
	t *testing.T
	c *sql.Conn
}

func newConn(t *testing.T, db *sql.DB) *conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &conn{t, c}
}

func (c *conn) exec(q string) {
	c.t.Helper()
	if _, err := c.c.ExecContext(context.Background(), q); err != nil {
		c.t.Fatalf("%s: %v", q, err)
	}
}

func (c *conn) try(q string) error {
	_, err := c.c.ExecContext(context.Background(), q)
	return err
}

func (c *conn) one(q string) string {
	c.t.Helper()
	var v string
	if err := c.c.QueryRowContext(context.Background(), q).Scan(&v); err != nil {
		c.t.Fatalf("%s: %v", q, err)
	}
	return v
}

// column returns the first column of q's rows, comma-separated.
func (c *conn) column(q string) string {
	c.t.Helper()
	return column(c.t, c.c, q)
}

// blocked runs q on c from a goroutine and returns the channel of its
// error once SHOW PROCESSLIST (on admin) shows q still running: the
// session is blocked in it.
func (c *conn) blocked(admin *conn, q string) <-chan error {
	c.t.Helper()
	ch := make(chan error, 1)
	go func() { ch <- c.try(q) }()
	waitRunning(c.t, admin, q)
	return ch
}

// waitRunning returns once SHOW PROCESSLIST (on admin) shows a statement
// containing text still running: the session is blocked in it.
func waitRunning(t *testing.T, admin *conn, text string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		rows, err := admin.c.QueryContext(context.Background(), "SHOW PROCESSLIST")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for rows.Next() {
			var id, secs int64
			var user, host, command, state string
			var dbName, info *string
			if err := rows.Scan(&id, &user, &host, &dbName, &command, &secs, &state, &info); err != nil {
				t.Fatal(err)
			}
			found = found || (command == "Query" && info != nil && strings.Contains(*info, text))
		}
		rows.Close()
		if found {
			return
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not synchronisation
	}
	t.Fatalf("no running statement contains %q", text)
}

// waitLockWaiters returns once storage reports at least n pessimistic
// lock requests waiting (strata_lock_manager_waiters on the status port).
func waitLockWaiters(t *testing.T, statusAddr string, n float64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		m := testproc.Metrics(t, statusAddr)
		if testproc.MetricValue(t, m, "strata_lock_manager_waiters") >= n {
			return
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not synchronisation
	}
	t.Fatalf("fewer than %v lock waiters after 30s", n)
}

func mysqlErrno(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// TestPessimisticTransactions: explicit transactions are pessimistic by
// default (tidb_txn_mode): a second writer of a row waits for the first
// instead of failing at COMMIT, and then sees its write (no lost update);
// SELECT ... FOR UPDATE blocks writers; a lock cycle is MySQL's 1213
// deadlock (the victim's transaction rolled back); a wait longer than
// innodb_lock_wait_timeout is 1205 and fails only the statement.
func TestPessimisticTransactions(t *testing.T) {
	n, statusAddr := startServerWithStatus(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE d")
	admin.exec("CREATE TABLE d.t (id INT PRIMARY KEY, n INT NOT NULL, k INT, KEY kk (k))")
	admin.exec("INSERT INTO d.t VALUES (1, 0, 1), (2, 0, 2), (3, 0, 3)")
	if m := admin.one("SELECT @@tidb_txn_mode"); m != "pessimistic" {
		t.Fatalf("@@tidb_txn_mode = %q", m)
	}
	c1, c2 := newConn(t, db), newConn(t, db)

	// A second writer waits, then updates the committed row.
	c1.exec("BEGIN")
	c1.exec("UPDATE d.t SET n = n + 1, k = k + 10 WHERE id = 1")
	c2.exec("BEGIN")
	second := c2.blocked(admin, "UPDATE d.t SET n = n + 1 WHERE id = 1 /* second */")
	c1.exec("COMMIT")
	if err := <-second; err != nil {
		t.Fatalf("waiting update: %v", err)
	}
	c2.exec("COMMIT")
	if got := admin.one("SELECT CONCAT(n, ',', k) FROM d.t WHERE id = 1"); got != "2,11" {
		t.Fatalf("row 1 = %s, want 2,11", got)
	}

	// SELECT ... FOR UPDATE reads the latest row and blocks writers, even
	// autocommit ones, until COMMIT.
	c1.exec("BEGIN")
	if got := c1.one("SELECT n FROM d.t WHERE id = 2 FOR UPDATE"); got != "0" {
		t.Fatalf("for update read %s", got)
	}
	blocked := c2.blocked(admin, "UPDATE d.t SET n = 100 WHERE id = 2 /* autocommit */")
	c1.exec("UPDATE d.t SET n = n + 5 WHERE id = 2")
	c1.exec("COMMIT")
	if err := <-blocked; err != nil {
		t.Fatalf("blocked autocommit update: %v", err)
	}
	if got := admin.one("SELECT n FROM d.t WHERE id = 2"); got != "100" {
		t.Fatalf("row 2 = %s, want 100", got)
	}

	// Deadlock: c1 holds 1 and waits for 2, c2 holds 2 and asks for 1.
	c1.exec("BEGIN")
	c2.exec("BEGIN")
	c1.exec("UPDATE d.t SET n = 10 WHERE id = 1")
	c2.exec("UPDATE d.t SET n = 20 WHERE id = 2")
	waiting := c1.blocked(admin, "UPDATE d.t SET n = 10 WHERE id = 2 /* c1 waits */")
	// Running is not yet waiting: close the cycle once storage holds
	// c1's wait, so that c2's request is the one that closes it.
	waitLockWaiters(t, statusAddr, 1)
	if err := c2.try("UPDATE d.t SET n = 20 WHERE id = 1"); mysqlErrno(err) != 1213 {
		t.Fatalf("closing the cycle: %v, want 1213", err)
	}
	if err := <-waiting; err != nil {
		t.Fatalf("c1 after the victim rolled back: %v", err)
	}
	c1.exec("COMMIT")
	c2.exec("COMMIT") // nothing left: the deadlock rolled c2 back
	if got := admin.column("SELECT n FROM d.t ORDER BY id"); got != "10,10,0" {
		t.Fatalf("rows = %s, want 10,10,0", got)
	}

	// Lock wait timeout: only the statement fails.
	c1.exec("BEGIN")
	c1.exec("UPDATE d.t SET n = 30 WHERE id = 3")
	c2.exec("SET innodb_lock_wait_timeout = 1")
	c2.exec("BEGIN")
	c2.exec("UPDATE d.t SET n = 40 WHERE id = 2")
	if err := c2.try("UPDATE d.t SET n = 40 WHERE id = 3"); mysqlErrno(err) != 1205 {
		t.Fatalf("waiting past innodb_lock_wait_timeout: %v, want 1205", err)
	}
	c2.exec("COMMIT")
	c1.exec("COMMIT")
	if got := admin.column("SELECT n FROM d.t ORDER BY id"); got != "10,40,30" {
		t.Fatalf("rows = %s, want 10,40,30", got)
	}

	// With autocommit off, the first statement opens a pessimistic
	// transaction and locks too: a concurrent autocommit writer waits for
	// its COMMIT, and neither update is lost.
	c1.exec("SET autocommit = 0")
	c1.exec("UPDATE d.t SET n = n + 1 WHERE id = 1")
	later := c2.blocked(admin, "UPDATE d.t SET n = n + 100 WHERE id = 1 /* after implicit */")
	c1.exec("COMMIT")
	if err := <-later; err != nil {
		t.Fatalf("update after the implicit transaction: %v", err)
	}
	c1.exec("SET autocommit = 1")
	if got := admin.one("SELECT n FROM d.t WHERE id = 1"); got != "111" {
		t.Fatalf("row 1 = %s, want 111", got)
	}

	// A DELETE of a missing row still locks its key (as TiDB does, as
	// InnoDB's gap lock does): sysbench's "DELETE id; INSERT id" then
	// never meets a duplicate made by another transaction in between.
	c1.exec("BEGIN")
	c1.exec("DELETE FROM d.t WHERE id = 50")
	ins := c2.blocked(admin, "INSERT INTO d.t VALUES (50, 0, 0) /* racing insert */")
	c1.exec("INSERT INTO d.t VALUES (50, 5, 5)")
	c1.exec("COMMIT")
	if err := <-ins; mysqlErrno(err) != 1062 {
		t.Fatalf("insert racing a locked missing row: %v, want 1062 after the other commits", err)
	}
	if got := admin.one("SELECT n FROM d.t WHERE id = 50"); got != "5" {
		t.Fatalf("row 50 n = %s, want 5", got)
	}

	// BEGIN OPTIMISTIC still conflicts at COMMIT.
	c1.exec("BEGIN OPTIMISTIC")
	c2.exec("BEGIN OPTIMISTIC")
	c1.exec("UPDATE d.t SET n = 50 WHERE id = 3")
	c2.exec("UPDATE d.t SET n = 60 WHERE id = 3")
	c1.exec("COMMIT")
	if err := c2.try("COMMIT"); mysqlErrno(err) != 1213 {
		t.Fatalf("optimistic loser: %v, want 1213", err)
	}
}

// TestPessimisticIncrements: concurrent read-modify-write transactions on
// one hot row all succeed, with no lost update.
func TestPessimisticIncrements(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	db.SetMaxOpenConns(16)
	if _, err := db.Exec("CREATE DATABASE d"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE d.c (id INT PRIMARY KEY, n INT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO d.c VALUES (1, 0)"); err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 20
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				tx, err := db.Begin()
				if err != nil {
					t.Error(err)
					return
				}
				var v int
				if err := tx.QueryRow("SELECT n FROM d.c WHERE id = 1 FOR UPDATE").Scan(&v); err != nil {
					t.Errorf("select for update: %v", err)
					_ = tx.Rollback()
					return
				}
				if _, err := tx.Exec("UPDATE d.c SET n = ? WHERE id = 1", v+1); err != nil {
					t.Errorf("update: %v", err)
					_ = tx.Rollback()
					return
				}
				if err := tx.Commit(); err != nil {
					t.Errorf("commit: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var got int
	if err := db.QueryRow("SELECT n FROM d.c WHERE id = 1").Scan(&got); err != nil || got != workers*each {
		t.Fatalf("n = %d (%v), want %d", got, err, workers*each)
	}
}
