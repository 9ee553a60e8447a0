package sqlnode

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestConnectAndVariables: go-sql-driver connects; the variables clients
// read at connect answer; SET SESSION and SET GLOBAL work, and a GLOBAL
// value survives kill -9 and a restart on the same data dir.
func TestConnectAndVariables(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	var v string
	if err := db.QueryRow("SELECT @@version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(v, "8.0.11-Strata-") {
		t.Errorf("@@version = %q", v)
	}
	for _, q := range []string{"SELECT @@max_allowed_packet", "SELECT @@sql_mode", "SELECT @@transaction_isolation",
		"SELECT @@tx_isolation", "SELECT @@autocommit", "SELECT @@character_set_client", "SELECT @@collation_connection",
		"SELECT @@time_zone", "SELECT @@system_time_zone", "SELECT @@lower_case_table_names", "SELECT @@auto_increment_increment",
		"SELECT USER()", "SELECT CONNECTION_ID()", "SELECT VERSION()"} {
		if err := db.QueryRow(q).Scan(&v); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	// USER() is the login (user@client host); CURRENT_USER() the account
	// it matched, with the account's host pattern.
	var user, current string
	if err := db.QueryRow("SELECT USER(), CURRENT_USER()").Scan(&user, &current); err != nil ||
		user != "root@127.0.0.1" || current != "root@%" {
		t.Errorf("USER(), CURRENT_USER() = %q, %q (%v); want root@127.0.0.1, root@%%", user, current, err)
	}
	if err := db.QueryRow("SELECT @@transaction_isolation").Scan(&v); err != nil || v != "REPEATABLE-READ" {
		t.Errorf("isolation %q %v", v, err)
	}

	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(t.Context(), "SET SESSION tidb_enable_async_commit = OFF"); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRowContext(t.Context(), "SELECT @@tidb_enable_async_commit").Scan(&v); err != nil || v != "0" {
		t.Errorf("session value %q %v", v, err)
	}
	conn.Close()

	if _, err := db.Exec("SET GLOBAL tidb_enable_1pc = OFF"); err != nil {
		t.Fatal(err)
	}
	n.proc.Kill()
	n.start()
	db = n.db("")
	if err := db.QueryRow("SELECT @@global.tidb_enable_1pc").Scan(&v); err != nil || v != "0" {
		t.Errorf("GLOBAL tidb_enable_1pc after restart = %q, %v; want 0 (OFF)", v, err)
	}
	if err := db.QueryRow("SELECT @@tidb_enable_1pc").Scan(&v); err != nil || v != "0" {
		t.Errorf("new session's tidb_enable_1pc = %q, %v; want the GLOBAL 0 (OFF)", v, err)
	}
}

// TestErrorsKeepTheConnection: bad SQL gets a MySQL error with its number
// and the same connection goes on.
func TestErrorsKeepTheConnection(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	db.SetMaxOpenConns(1)
	cases := []struct {
		sql  string
		code uint16
	}{
		{"SELEC 1", 1064},
		{"SET @@no_such_variable = 1", 1193},
		{"SET GLOBAL transaction_isolation = 'NOT-A-LEVEL'", 1231},
		{"SET @@version = 'x'", 1238},
	}
	for _, c := range cases {
		_, err := db.Exec(c.sql)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.code {
			t.Errorf("%s: %v, want error %d", c.sql, err, c.code)
		}
		var one string
		if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != "1" {
			t.Fatalf("connection unusable after %q: %v", c.sql, err)
		}
	}
}

// TestMySQLCLI: Debian's mysql client connects, runs status and SHOW.
func TestMySQLCLI(t *testing.T) {
	cli, err := exec.LookPath("mysql")
	if err != nil {
		t.Skip("mysql client not installed (apt-get install mariadb-client)")
	}
	n := startServer(t)
	out, err := exec.Command(cli, "-h", "127.0.0.1", "-P", n.port, "-u", "root", "-e",
		"status; SHOW VARIABLES LIKE 'autocommit'; SELECT @@version_comment LIMIT 1;").CombinedOutput()
	if err != nil {
		t.Fatalf("mysql: %v\n%s", err, out)
	}
	for _, want := range []string{"Server version:\t\t8.0.11-Strata", "autocommit\tON", "Strata"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("mysql output lacks %q:\n%s", want, out)
		}
	}
}
