package logic

import (
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/strata-db/strata/tests/testproc"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the expected results of queries")

var readyRE = regexp.MustCompile(`strata server ready: mysql --host (\S+) --port (\d+) -u root`)

// TestLogic runs every testdata/*.test file against one server, each file
// in its own database and connection.
func TestLogic(t *testing.T) {
	files, err := filepath.Glob("testdata/*.test")
	if err != nil || len(files) == 0 {
		t.Fatalf("no logic test files: %v", err)
	}
	p := testproc.Start(t, "server", "--data-dir", filepath.Join(t.TempDir(), "data"), "--port", "0", "--status-port", "-1")
	port := p.WaitLine(readyRE, time.Minute)[2]
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".test")
		t.Run(name, func(t *testing.T) {
			db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%s)/?multiStatements=true", port))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			dbName := "logic_" + name
			for _, q := range []string{"CREATE DATABASE " + dbName, "USE " + dbName} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			runFile(t, db, f)
		})
	}
}

// record is one statement or query of a file.
type record struct {
	line     int
	kind     string // "statement" or "query"
	errRE    string // statement error <re>; "" for ok
	types    string
	rowsort  bool
	sql      string
	expected []string
	// span of the expected lines in the file, for -rewrite
	resStart, resEnd int
}

func parse(t *testing.T, path string) ([]record, []string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var recs []record
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		r := record{line: i + 1, kind: f[0]}
		switch {
		case f[0] == "statement" && len(f) >= 2 && f[1] == "ok":
		case f[0] == "statement" && len(f) >= 3 && f[1] == "error":
			r.errRE = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l, "statement"), " error"))
		case f[0] == "query" && len(f) >= 2:
			r.types = f[1]
			r.rowsort = len(f) > 2 && f[2] == "rowsort"
		default:
			t.Fatalf("%s:%d: unknown directive %q", path, i+1, l)
		}
		var sqlLines []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.TrimSpace(lines[i]) != "----"; i++ {
			sqlLines = append(sqlLines, lines[i])
		}
		r.sql = strings.Join(sqlLines, "\n")
		if r.kind == "query" {
			if i >= len(lines) || strings.TrimSpace(lines[i]) != "----" {
				t.Fatalf("%s:%d: query without ----", path, r.line)
			}
			r.resStart = i + 1
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				r.expected = append(r.expected, lines[i])
			}
			r.resEnd = i
		}
		recs = append(recs, r)
	}
	return recs, lines
}

func runFile(t *testing.T, db *sql.DB, path string) {
	recs, lines := parse(t, path)
	var rewrites []record
	for _, r := range recs {
		switch r.kind {
		case "statement":
			_, err := db.Exec(r.sql)
			checkErr(t, path, r, err)
		case "query":
			got, err := query(db, r)
			if err != nil {
				t.Errorf("%s:%d: %s\nerror: %v", path, r.line, r.sql, err)
				continue
			}
			if *rewrite {
				r.expected = got
				rewrites = append(rewrites, r)
				continue
			}
			if strings.Join(got, "\n") != strings.Join(r.expected, "\n") {
				t.Errorf("%s:%d: %s\ngot:\n%s\nwant:\n%s", path, r.line, r.sql, strings.Join(got, "\n"), strings.Join(r.expected, "\n"))
			}
		}
	}
	if *rewrite && len(rewrites) > 0 {
		var out []string
		prev := 0
		for _, r := range rewrites {
			out = append(out, lines[prev:r.resStart]...)
			out = append(out, r.expected...)
			prev = r.resEnd
		}
		out = append(out, lines[prev:]...)
		if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func checkErr(t *testing.T, path string, r record, err error) {
	t.Helper()
	if r.errRE == "" {
		if err != nil {
			t.Errorf("%s:%d: %s\nunexpected error: %v", path, r.line, r.sql, err)
		}
		return
	}
	if err == nil {
		t.Errorf("%s:%d: %s\nsucceeded, want error matching %q", path, r.line, r.sql, r.errRE)
		return
	}
	msg := err.Error()
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		msg = fmt.Sprintf("Error %d: %s", me.Number, me.Message)
	}
	if ok, rerr := regexp.MatchString(r.errRE, msg); rerr != nil || !ok {
		t.Errorf("%s:%d: %s\nerror %q does not match %q (%v)", path, r.line, r.sql, msg, r.errRE, rerr)
	}
}

// query runs a query and formats its rows.
func query(db *sql.DB, r record) ([]string, error) {
	rows, err := db.Query(r.sql)
	if err != nil {
		if r.errRE != "" {
			return nil, nil
		}
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if len(cols) != len(r.types) {
		return nil, fmt.Errorf("%d columns, the directive says %d (%q)", len(cols), len(r.types), r.types)
	}
	var out []string
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if !v.Valid {
				parts[i] = "NULL"
			} else {
				parts[i] = v.String
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if r.rowsort {
		sort.Strings(out)
	}
	return out, nil
}
