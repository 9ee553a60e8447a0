package sqlnode

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/strata-db/strata/tests/testproc"
)

// dbAs opens a pool that logs in as user with password pw.
func (n *sqlNode) dbAs(user, pw string) *sql.DB { return n.dbAsIn(user, pw, "") }

// dbAsIn opens a pool that logs in as user with password pw into database
// db (named in the handshake).
func (n *sqlNode) dbAsIn(user, pw, db string) *sql.DB {
	n.t.Helper()
	pool, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(127.0.0.1:%s)/%s", user, pw, n.port, db))
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { pool.Close() })
	return pool
}

// errNo returns the MySQL error number of err, or 0.
func errNo(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// wantErr fails unless err is MySQL error code (and, if msg is not empty,
// its message contains msg).
func wantErr(t *testing.T, what string, err error, code uint16, msg string) {
	t.Helper()
	if errNo(err) != code || !strings.Contains(fmt.Sprint(err), msg) {
		t.Errorf("%s: err = %v, want %d %q", what, err, code, msg)
	}
}

func mustExec(t *testing.T, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// showGrants returns the lines of a SHOW GRANTS statement q.
func showGrants(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	return strings.Join(firstColumn(t, db, q), "\n")
}

// TestPrivileges drives accounts and privileges through a real server:
// logins, CREATE/ALTER/DROP USER, GRANT/REVOKE taking effect on an open
// session's next statement, the errors MySQL gives, SHOW GRANTS, and
// accounts surviving a restart.
func TestPrivileges(t *testing.T) {
	n := startServer(t)
	root := n.db("")
	ctx := t.Context()

	// root@'%' with an empty password out of the box.
	if err := root.PingContext(ctx); err != nil {
		t.Fatalf("root with an empty password: %v", err)
	}
	if got := showGrants(t, root, "SHOW GRANTS"); got != "GRANT ALL PRIVILEGES ON *.* TO `root`@`%` WITH GRANT OPTION" {
		t.Errorf("root's grants:\n%s", got)
	}
	mustExec(t, root,
		"CREATE DATABASE pdb",
		"CREATE TABLE pdb.t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO pdb.t VALUES (1, 10), (2, 20)",
		"CREATE USER 'alice'@'%' IDENTIFIED BY 'secret'",
		"CREATE USER IF NOT EXISTS 'alice'@'%' IDENTIFIED BY 'other'",
		"CREATE USER 'carol'@'%' IDENTIFIED WITH caching_sha2_password BY 'c4rol'",
	)
	_, err := root.Exec("CREATE USER 'alice'@'%' IDENTIFIED BY 'x'")
	wantErr(t, "CREATE USER of an existing account", err, 1396, "Operation CREATE USER failed for 'alice'@'%'")

	// Logins: the right password, a wrong one, no password, an unknown user.
	alice := n.dbAs("alice", "secret")
	if err := alice.PingContext(ctx); err != nil {
		t.Fatalf("alice's login: %v", err)
	}
	if err := n.dbAs("carol", "c4rol").PingContext(ctx); err != nil {
		t.Errorf("carol's login (caching_sha2_password account): %v", err)
	}
	wantErr(t, "wrong password", n.dbAs("alice", "wrong").PingContext(ctx), 1045, "Access denied for user 'alice'@'127.0.0.1' (using password: YES)")
	wantErr(t, "no password", n.dbAs("alice", "").PingContext(ctx), 1045, "(using password: NO)")
	wantErr(t, "unknown user", n.dbAs("nobody", "x").PingContext(ctx), 1045, "Access denied for user 'nobody'")

	// One session held across the changes below.
	conn, err := alice.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var v int
	_, err = conn.ExecContext(ctx, "USE pdb")
	wantErr(t, "USE without privileges", err, 1044, "Access denied for user 'alice'@'127.0.0.1' to database 'pdb'")
	wantErr(t, "database in the handshake without privileges", n.dbAsIn("alice", "secret", "pdb").PingContext(ctx),
		1044, "to database 'pdb'")
	err = conn.QueryRowContext(ctx, "SELECT v FROM pdb.t WHERE id = 1").Scan(&v)
	wantErr(t, "SELECT without privileges", err, 1142, "SELECT command denied to user 'alice'@'127.0.0.1' for table 't'")
	if dbs := column(t, conn, "SHOW DATABASES"); strings.Contains(dbs, "pdb") {
		t.Errorf("SHOW DATABASES without privileges on pdb lists it: %s", dbs)
	}

	// GRANT SELECT ON pdb.*: the open session reads at once, still cannot write.
	mustExec(t, root, "GRANT SELECT ON pdb.* TO 'alice'@'%'")
	mustExec(t, conn, "USE pdb")
	if dbs := column(t, conn, "SHOW DATABASES"); !strings.Contains(dbs, "pdb") {
		t.Errorf("SHOW DATABASES after GRANT lacks pdb: %s", dbs)
	}
	if err := n.dbAsIn("alice", "secret", "pdb").PingContext(ctx); err != nil {
		t.Errorf("database in the handshake after GRANT: %v", err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT v FROM t WHERE id = 1").Scan(&v); err != nil || v != 10 {
		t.Errorf("SELECT after GRANT: %d, %v", v, err)
	}
	if err := conn.QueryRowContext(ctx, "SELECT v FROM pdb.t WHERE id = ?", 2).Scan(&v); err != nil || v != 20 {
		t.Errorf("prepared SELECT after GRANT: %d, %v", v, err)
	}
	_, err = conn.ExecContext(ctx, "INSERT INTO t VALUES (3, 30)")
	wantErr(t, "INSERT with SELECT only", err, 1142, "INSERT command denied to user 'alice'@'127.0.0.1' for table 't'")
	_, err = conn.ExecContext(ctx, "UPDATE t SET v = 0 WHERE id = 1")
	wantErr(t, "UPDATE with SELECT only", err, 1142, "UPDATE command denied")
	_, err = conn.ExecContext(ctx, "DELETE FROM t WHERE id = ?", 1)
	wantErr(t, "prepared DELETE with SELECT only", err, 1142, "DELETE command denied")
	_, err = conn.ExecContext(ctx, "CREATE TABLE t2 (id INT PRIMARY KEY)")
	wantErr(t, "CREATE TABLE with SELECT only", err, 1142, "CREATE command denied")
	_, err = conn.ExecContext(ctx, "CREATE DATABASE adb")
	wantErr(t, "CREATE DATABASE with SELECT only", err, 1044, "to database 'adb'")
	_, err = conn.ExecContext(ctx, "CREATE USER 'eve'@'%'")
	wantErr(t, "CREATE USER without the privilege", err, 1227, "CREATE USER privilege")
	_, err = conn.ExecContext(ctx, "SET GLOBAL tidb_enable_1pc = OFF")
	wantErr(t, "SET GLOBAL without SUPER", err, 1227, "SUPER privilege")
	_, err = conn.ExecContext(ctx, "GRANT SELECT ON pdb.* TO 'carol'@'%'")
	wantErr(t, "GRANT without GRANT OPTION", err, 1044, "to database 'pdb'")
	var rootID int64
	if err := root.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&rootID); err != nil {
		t.Fatal(err)
	}
	rootConn, err := root.Conn(ctx) // keep a root connection alive for KILL
	if err != nil {
		t.Fatal(err)
	}
	defer rootConn.Close()
	if err := rootConn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&rootID); err != nil {
		t.Fatal(err)
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("KILL %d", rootID))
	wantErr(t, "KILL of another user's connection", err, 1095, "You are not owner of thread")

	// Table-level INSERT plus INSERT ... SELECT, which needs SELECT on the source.
	mustExec(t, root,
		"CREATE TABLE pdb.dst (id INT PRIMARY KEY, v INT)",
		"GRANT INSERT ON pdb.dst TO 'alice'@'%'",
	)
	mustExec(t, conn, "INSERT INTO dst SELECT id, v FROM t")
	if got, want := showGrants(t, root, "SHOW GRANTS FOR 'alice'@'%'"), "GRANT USAGE ON *.* TO `alice`@`%`\n"+
		"GRANT SELECT ON `pdb`.* TO `alice`@`%`\n"+
		"GRANT INSERT ON `pdb`.`dst` TO `alice`@`%`"; got != want {
		t.Errorf("SHOW GRANTS FOR alice:\n%s\nwant:\n%s", got, want)
	}
	if got := showGrants(t, alice, "SHOW GRANTS"); !strings.HasPrefix(got, "GRANT USAGE ON *.* TO `alice`@`%`") {
		t.Errorf("alice's own SHOW GRANTS:\n%s", got)
	}

	// REVOKE: the same session's next statement is denied.
	mustExec(t, root, "REVOKE SELECT ON pdb.* FROM 'alice'@'%'")
	err = conn.QueryRowContext(ctx, "SELECT v FROM t WHERE id = 1").Scan(&v)
	wantErr(t, "SELECT after REVOKE", err, 1142, "SELECT command denied")
	err = conn.QueryRowContext(ctx, "SELECT v FROM pdb.t WHERE id = ?", 1).Scan(&v)
	wantErr(t, "prepared SELECT after REVOKE", err, 1142, "SELECT command denied")
	_, err = conn.ExecContext(ctx, "INSERT INTO dst SELECT id + 10, v FROM t")
	wantErr(t, "INSERT ... SELECT without SELECT on the source", err, 1142, "SELECT command denied")

	// ALTER USER changes the password: the old one stops working.
	mustExec(t, root, "ALTER USER 'alice'@'%' IDENTIFIED BY 'newpw'")
	wantErr(t, "old password after ALTER USER", n.dbAs("alice", "secret").PingContext(ctx), 1045, "")
	if err := n.dbAs("alice", "newpw").PingContext(ctx); err != nil {
		t.Errorf("new password after ALTER USER: %v", err)
	}
	// SET PASSWORD for oneself needs no privilege; FLUSH PRIVILEGES is accepted.
	mustExec(t, n.dbAs("alice", "newpw"), "SET PASSWORD = 'selfpw'")
	mustExec(t, root, "FLUSH PRIVILEGES")
	if err := n.dbAs("alice", "selfpw").PingContext(ctx); err != nil {
		t.Errorf("password set by SET PASSWORD: %v", err)
	}
	mustExec(t, root, "SET PASSWORD FOR 'alice'@'%' = 'newpw'")

	// DROP USER: logins fail; dropping again is 1396 unless IF EXISTS.
	mustExec(t, root, "DROP USER 'alice'@'%'")
	wantErr(t, "login after DROP USER", n.dbAs("alice", "newpw").PingContext(ctx), 1045, "")
	_, err = root.Exec("DROP USER 'alice'@'%'")
	wantErr(t, "DROP USER of a missing account", err, 1396, "Operation DROP USER failed for 'alice'@'%'")
	mustExec(t, root, "DROP USER IF EXISTS 'alice'@'%'")
	_, err = root.Exec("GRANT SELECT ON pdb.* TO 'alice'@'%'")
	wantErr(t, "GRANT to a missing account", err, 1410, "")

	// Accounts survive a restart.
	mustExec(t, root,
		"CREATE USER 'bob'@'%' IDENTIFIED BY 'b0b'",
		"GRANT SELECT, INSERT ON pdb.t TO 'bob'@'%' WITH GRANT OPTION",
	)
	rootConn.Close()
	conn.Close()
	if err := n.proc.Stop(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	n.start()
	root = n.db("")
	bob := n.dbAs("bob", "b0b")
	if err := bob.QueryRowContext(ctx, "SELECT v FROM pdb.t WHERE id = 2").Scan(&v); err != nil || v != 20 {
		t.Errorf("bob after restart: %d, %v", v, err)
	}
	if got, want := showGrants(t, root, "SHOW GRANTS FOR bob"), "GRANT USAGE ON *.* TO `bob`@`%`\n"+
		"GRANT SELECT, INSERT ON `pdb`.`t` TO `bob`@`%` WITH GRANT OPTION"; got != want {
		t.Errorf("bob's grants after restart:\n%s\nwant:\n%s", got, want)
	}
	if err := n.dbAs("carol", "c4rol").PingContext(ctx); err != nil {
		t.Errorf("carol after restart: %v", err)
	}
}

// TestPrivilegesAcrossSQLServers: two `strata sql` servers over one
// `strata kv`: an account created on one logs in on the other at once, and
// GRANT / REVOKE / DROP USER on one reach the other's open sessions within
// the refresh interval (about a second).
func TestPrivilegesAcrossSQLServers(t *testing.T) {
	dir := t.TempDir()
	kv := testproc.Start(t, "kv", "--data-dir", filepath.Join(dir, "kv"), "--addr", "127.0.0.1:0", "--status-addr", "")
	kvAddr := kv.WaitLine(regexp.MustCompile(`strata kv serving on (127\.0\.0\.1:\d+)`), time.Minute)[1]
	open := func(name, user, pw string) *sql.DB {
		p := testproc.Start(t, "sql", "--store", kvAddr, "--data-dir", filepath.Join(dir, name), "--port", "0", "--status-port", "-1")
		port := p.WaitLine(regexp.MustCompile(`strata sql ready: mysql --host \S+ --port (\d+) -u root`), time.Minute)[1]
		return sqlOpen(t, fmt.Sprintf("%s:%s@tcp(127.0.0.1:%s)/", user, pw, port))
	}
	a := open("a", "root", "")
	bRoot := open("b", "root", "")
	ctx := t.Context()
	mustExec(t, a, "CREATE USER 'dave'@'%' IDENTIFIED BY 'd4ve'")

	// Log in on B through B's root port with dave's password.
	var bPort string
	if err := bRoot.QueryRowContext(ctx, "SELECT @@port").Scan(&bPort); err != nil {
		t.Fatal(err)
	}
	dave := sqlOpen(t, fmt.Sprintf("dave:d4ve@tcp(127.0.0.1:%s)/", bPort))
	conn, err := dave.Conn(ctx)
	if err != nil {
		t.Fatalf("dave's login on the other server: %v", err)
	}
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "CREATE USER 'x1'@'%'")
	wantErr(t, "CREATE USER before GRANT", err, 1227, "CREATE USER")

	mustExec(t, a, "GRANT CREATE USER ON *.* TO 'dave'@'%'")
	eventually(t, "GRANT seen by the other server", func() error {
		_, err := conn.ExecContext(ctx, "CREATE USER IF NOT EXISTS 'x1'@'%'")
		return err
	})
	mustExec(t, a, "REVOKE CREATE USER ON *.* FROM 'dave'@'%'")
	eventually(t, "REVOKE seen by the other server", func() error {
		_, err := conn.ExecContext(ctx, "CREATE USER IF NOT EXISTS 'x2'@'%'")
		if errNo(err) == 1227 {
			return nil
		}
		return fmt.Errorf("still allowed: %v", err)
	})
	mustExec(t, a, "DROP USER 'dave'@'%'")
	eventually(t, "DROP USER seen by the other server", func() error {
		fresh := sqlOpen(t, fmt.Sprintf("dave:d4ve@tcp(127.0.0.1:%s)/", bPort))
		if err := fresh.PingContext(ctx); errNo(err) != 1045 {
			return fmt.Errorf("login: %v", err)
		}
		return nil
	})
}

func sqlOpen(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// eventually retries f every 50 ms until it returns nil, failing the test
// after 10 s (the refresh interval is one second).
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		<-tick.C
	}
}
