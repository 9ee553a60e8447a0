package catalog

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// TestDDLScripts runs testdata/ddl: "exec" runs statements (one per line)
// and prints ok or the MySQL error of each; "show-create", "describe" and
// "show-index" print a table's SHOW output.
func TestDDLScripts(t *testing.T) {
	datadriven.Walk(t, "testdata/ddl", func(t *testing.T, path string) {
		c, _ := newTestCatalog(t)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "exec":
				var out strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					if strings.TrimSpace(line) == "" {
						continue
					}
					stmt, err := parser.New().ParseOneStmt(line, "", "")
					if err == nil {
						err = c.Exec(t.Context(), Env{CurrentDB: "test"}, stmt)
					}
					out.WriteString(result(err) + "\n")
				}
				return out.String()
			case "show-create":
				tbl, err := c.InfoSchema().Table(dbArg(t, d), d.CmdArgs[0].Key)
				if err != nil {
					return result(err) + "\n"
				}
				return ShowCreateTable(tbl) + "\n"
			case "describe":
				tbl, err := c.InfoSchema().Table(dbArg(t, d), d.CmdArgs[0].Key)
				if err != nil {
					return result(err) + "\n"
				}
				return formatRows(DescribeColumnNames, DescribeRows(tbl))
			case "show-full-columns":
				tbl, err := c.InfoSchema().Table(dbArg(t, d), d.CmdArgs[0].Key)
				if err != nil {
					return result(err) + "\n"
				}
				return formatRows(FullColumnNames, FullColumnRows(tbl))
			case "show-create-database":
				db, err := c.InfoSchema().Database(d.CmdArgs[0].Key)
				if err != nil {
					return result(err) + "\n"
				}
				return ShowCreateDatabase(db) + "\n"
			case "show-index":
				tbl, err := c.InfoSchema().Table(dbArg(t, d), d.CmdArgs[0].Key)
				if err != nil {
					return result(err) + "\n"
				}
				return formatRows(ShowIndexColumnNames[:10], cut(ShowIndexRows(tbl), 10))
			case "tables":
				var out strings.Builder
				is := c.InfoSchema()
				fmt.Fprintf(&out, "version>0: %v\n", is.Version() > 0)
				for _, db := range is.Databases() {
					tables, _ := is.Tables(db.Name)
					names := make([]string, len(tables))
					for i, tb := range tables {
						names[i] = tb.Name
					}
					fmt.Fprintf(&out, "%s: %s\n", db.Name, strings.Join(names, " "))
				}
				return out.String()
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

func dbArg(t *testing.T, d *datadriven.TestData) string {
	db := "test"
	if d.HasArg("db") {
		d.ScanArgs(t, "db", &db)
	}
	return db
}

func result(err error) string {
	if err == nil {
		return "ok"
	}
	var e *sqlerr.Error
	if errors.As(err, &e) {
		return e.Error()
	}
	return "non-MySQL error: " + err.Error()
}

func cut(rows [][]types.Datum, n int) [][]types.Datum {
	for i := range rows {
		rows[i] = rows[i][:n]
	}
	return rows
}

func formatRows(names []string, rows [][]types.Datum) string {
	var out strings.Builder
	out.WriteString(strings.Join(names, " | ") + "\n")
	for _, r := range rows {
		parts := make([]string, len(r))
		for i := range r {
			parts[i] = r[i].String()
		}
		out.WriteString(strings.Join(parts, " | ") + "\n")
	}
	return out.String()
}
