package sqlnode

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestDDLAndShow: databases, tables and indexes through a real server;
// SHOW and DESCRIBE answer from the catalog; errors carry MySQL numbers;
// the catalog is intact after kill -9 and a restart.
func TestDDLAndShow(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	db.SetMaxOpenConns(1)
	mustExec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	wantErr := func(q string, code uint16) {
		t.Helper()
		_, err := db.Exec(q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != code {
			t.Errorf("%s: %v, want error %d", q, err, code)
		}
	}
	mustExec("CREATE DATABASE sbtest")
	wantErr("CREATE DATABASE sbtest", 1007)
	wantErr("USE nosuchdb", 1049)
	mustExec("USE sbtest")
	mustExec("CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) ENGINE = innodb")
	mustExec("CREATE INDEX k_1 ON sbtest1(k)")
	wantErr("CREATE TABLE sbtest1 (a INT)", 1050)
	wantErr("CREATE TABLE t2 (a INT, a INT)", 1060)
	wantErr("DROP TABLE nosuchtable", 1051)

	check := func() {
		t.Helper()
		var name, create string
		if err := db.QueryRow("SHOW CREATE TABLE sbtest1").Scan(&name, &create); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"`id` int NOT NULL AUTO_INCREMENT", "PRIMARY KEY (`id`)", "KEY `k_1` (`k`)"} {
			if !strings.Contains(create, want) {
				t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, create)
			}
		}
		rows, err := db.Query("DESCRIBE sbtest1")
		if err != nil {
			t.Fatal(err)
		}
		var fields []string
		for rows.Next() {
			var f, typ, null, key, extra string
			var def *string
			if err := rows.Scan(&f, &typ, &null, &key, &def, &extra); err != nil {
				t.Fatal(err)
			}
			fields = append(fields, f+" "+typ+" "+key)
		}
		rows.Close()
		if got := strings.Join(fields, ", "); got != "id int PRI, k int MUL, c char(120) , pad char(60) " {
			t.Errorf("DESCRIBE: %q", got)
		}
		var tbl string
		if err := db.QueryRow("SHOW TABLES").Scan(&tbl); err != nil || tbl != "sbtest1" {
			t.Errorf("SHOW TABLES: %q %v", tbl, err)
		}
	}
	check()
	n.proc.Kill()
	n.start()
	db = n.db("")
	db.SetMaxOpenConns(1)
	mustExec("USE sbtest")
	check()
	mustExec("DROP TABLE sbtest1")
	wantErr("SHOW CREATE TABLE sbtest1", 1146)
}
