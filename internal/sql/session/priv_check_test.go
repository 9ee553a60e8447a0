package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
)

// TestStmtPrivs pins which privileges each kind of statement needs, for a
// session in database "cur":
//
//	privs
//	<one statement>
//	----
//	one line per requirement: db.table PRIVS (db.* / *.* for the levels)
//
//	check grants=<level>:<PRIVS>;...
//	<one statement>
//	----
//	ok, or the error an account holding those grants gets
func TestStmtPrivs(t *testing.T) {
	datadriven.RunTest(t, "testdata/privileges", func(t *testing.T, d *datadriven.TestData) string {
		s := &Session{db: "cur", conn: server.ConnInfo{User: "u", Host: "10.0.0.1"}}
		stmt, err := parser.New().ParseOneStmt(d.Input, "", "")
		if err != nil {
			return "parse error: " + err.Error() + "\n"
		}
		switch d.Cmd {
		case "privs":
			reqs, err := s.stmtPrivs(stmt)
			if err != nil {
				return "error: " + err.Error() + "\n"
			}
			var b strings.Builder
			for _, r := range reqs {
				fmt.Fprintf(&b, "%s %s\n", levelName(r.db, r.table), r.priv)
			}
			if b.Len() == 0 {
				return "none\n"
			}
			return b.String()
		case "check":
			acc := &privilege.Account{User: "u", Host: "%"}
			var grants string
			d.ScanArgs(t, "grants", &grants)
			for _, g := range strings.Split(grants, ";") {
				level, names, _ := strings.Cut(g, ":")
				db, table, _ := strings.Cut(level, ".")
				if db == "*" {
					db = ""
				}
				if table == "*" {
					table = ""
				}
				for _, n := range strings.Split(names, ",") {
					p, ok := privilege.ParsePriv(strings.ReplaceAll(n, "_", " "))
					if !ok {
						t.Fatalf("bad privilege %q", n)
					}
					acc.Grant(db, table, p)
				}
			}
			if err := s.checkStmtFor(acc, stmt); err != nil {
				return err.Error() + "\n"
			}
			return "ok\n"
		}
		t.Fatalf("unknown command %s", d.Cmd)
		return ""
	})
}

func levelName(db, table string) string {
	switch {
	case db == "":
		return "*.*"
	case table == "":
		return db + ".*"
	}
	return db + "." + table
}

// BenchmarkCheckStmt measures the per-statement check of a sysbench point
// select and point update: for root (every global privilege: no walk of
// the privileges, and for the update only a look at its one table for
// information_schema) and for an account holding SELECT and UPDATE on
// the database (walk and resolve).
func BenchmarkCheckStmt(b *testing.B) {
	s := &Session{db: "sbtest", conn: server.ConnInfo{User: "u", Host: "10.0.0.1"}}
	root := privilege.BootstrapAccounts()[0]
	user := &privilege.Account{User: "u", Host: "%"}
	user.Grant("sbtest", "", privilege.SelectPriv|privilege.UpdatePriv)
	for _, q := range []struct{ name, sql string }{
		{"select", "SELECT c FROM sbtest1 WHERE id = 42"},
		{"update", "UPDATE sbtest1 SET k = k + 1 WHERE id = 42"},
	} {
		stmt, err := parser.New().ParseOneStmt(q.sql, "", "")
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			acc  *privilege.Account
		}{{"root", root}, {"db-grant", user}} {
			b.Run(q.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := s.checkStmtFor(c.acc, stmt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
