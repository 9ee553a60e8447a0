package sqlnode

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/strata-db/strata/tests/testproc"
)

var readyRE = regexp.MustCompile(`strata server ready: mysql --host (\S+) --port (\d+) -u root`)

// sqlNode is one `strata server` process with its data dir.
type sqlNode struct {
	t    *testing.T
	dir  string
	port string
	proc *testproc.Proc
}

func startServer(t *testing.T) *sqlNode {
	n := &sqlNode{t: t, dir: filepath.Join(t.TempDir(), "data"), port: "0"}
	n.start()
	return n
}

// start (re)starts the server on n.dir; the first start learns the port.
func (n *sqlNode) start() {
	n.t.Helper()
	n.proc = testproc.Start(n.t, "server", "--data-dir", n.dir, "--port", n.port, "--status-port", "-1")
	n.port = n.proc.WaitLine(readyRE, 60*time.Second)[2]
}

// db opens a go-sql-driver pool to the server.
func (n *sqlNode) db(params string) *sql.DB {
	n.t.Helper()
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%s)/?%s", n.port, params))
	if err != nil {
		n.t.Fatal(err)
	}
	n.t.Cleanup(func() { db.Close() })
	return db
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// firstColumn returns the first column of q's rows (NULL as "").
func firstColumn(t *testing.T, db querier, q string) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var first sql.NullString
	vals := []any{&first}
	for range cols[1:] {
		vals = append(vals, new(sql.RawBytes))
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(vals...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		out = append(out, first.String)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// column returns the first column of q's rows, comma-separated.
func column(t *testing.T, db querier, q string) string {
	t.Helper()
	return strings.Join(firstColumn(t, db, q), ",")
}
