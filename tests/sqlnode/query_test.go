package sqlnode

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// sqlT wraps a *sql.DB (or a connection) with fatal-on-error helpers.
type sqlT struct {
	t  *testing.T
	db interface {
		Exec(string, ...any) (sql.Result, error)
		Query(string, ...any) (*sql.Rows, error)
	}
}

func (s sqlT) exec(q string, args ...any) sql.Result {
	s.t.Helper()
	r, err := s.db.Exec(q, args...)
	if err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	return r
}

// rows returns the result as lines of space-separated values.
func (s sqlT) rows(q string, args ...any) string {
	s.t.Helper()
	rs, err := s.db.Query(q, args...)
	if err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var lines []string
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			s.t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = "NULL"
			if v.Valid {
				parts[i] = v.String
			}
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	if err := rs.Err(); err != nil {
		s.t.Fatalf("%s: %v", q, err)
	}
	return strings.Join(lines, "\n")
}

func (s sqlT) want(q, want string, args ...any) {
	s.t.Helper()
	if got := s.rows(q, args...); got != want {
		s.t.Errorf("%s %v:\n got: %q\nwant: %q", q, args, got, want)
	}
}

func (s sqlT) wantErr(code uint16, q string, args ...any) {
	s.t.Helper()
	_, err := s.db.Exec(q, args...)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != code {
		s.t.Errorf("%s: %v, want error %d", q, err, code)
	}
}

// TestQuerySysbench runs sysbench's statements (oltp_read_write and
// select_random_*) over both protocols.
func TestQuerySysbench(t *testing.T) {
	n := startServer(t)
	admin := n.db("")
	admin.SetMaxOpenConns(1)
	a := sqlT{t, admin}
	a.exec("CREATE DATABASE sbtest")
	a.exec("USE sbtest")
	a.exec("CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))")
	var vals []string
	for i := 1; i <= 100; i++ {
		vals = append(vals, fmt.Sprintf("(%d, 'c%03d', 'pad%d')", i%10, 100-i, i))
	}
	r := a.exec("INSERT INTO sbtest1(k, c, pad) VALUES " + strings.Join(vals, ","))
	if n, _ := r.RowsAffected(); n != 100 {
		t.Fatalf("affected %d", n)
	}
	if id, _ := r.LastInsertId(); id != 1 {
		t.Errorf("last insert id %d", id)
	}
	a.exec("CREATE INDEX k_1 ON sbtest1(k)")

	for _, params := range []string{"interpolateParams=true", "interpolateParams=false"} {
		t.Run(params, func(t *testing.T) {
			db := n.db(params)
			db.SetMaxOpenConns(1)
			s := sqlT{t, db}
			s.exec("USE sbtest")
			s.want("SELECT c FROM sbtest1 WHERE id=?", "c090", 10)
			s.want("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", "c097\nc096\nc095", 3, 5)
			s.want("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", "45", 1, 10)
			s.want("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", "c095\nc096\nc097", 3, 5)
			s.want("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", "c095\nc096\nc097", 3, 5)
			s.want("SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ?) ORDER BY id LIMIT 3", "3 3 c097 pad3\n7 7 c093 pad7\n13 3 c087 pad13", 3, 7)
			s.want("SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ?", "30", 2, 4)
			s.exec("UPDATE sbtest1 SET k=k+1 WHERE id=?", 5)
			s.want("SELECT k FROM sbtest1 WHERE id=?", "6", 5)
			s.want("SELECT count(*) FROM sbtest1 WHERE k = ?", "11", 6)
			s.exec("UPDATE sbtest1 SET k=k-1 WHERE id=?", 5)
			s.exec("UPDATE sbtest1 SET c=? WHERE id=?", "changed", 6)
			s.want("SELECT c FROM sbtest1 WHERE id=?", "changed", 6)
			s.exec("DELETE FROM sbtest1 WHERE id=?", 7)
			s.want("SELECT c FROM sbtest1 WHERE id=?", "", 7)
			s.exec("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", 7, 7, "c093", "pad7")
			s.want("SELECT count(*) FROM sbtest1 WHERE k = ?", "10", 7)
			s.exec("UPDATE sbtest1 SET c=? WHERE id=?", "c094", 6)
		})
	}
	// One prepared statement executed many times (the cached plan re-bound
	// to new parameters), including a parameter of another kind.
	stmt, err := admin.Prepare("SELECT c FROM sbtest1 WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	for id := 20; id <= 30; id++ {
		var c string
		if err := stmt.QueryRow(id).Scan(&c); err != nil || c != fmt.Sprintf("c%03d", 100-id) {
			t.Errorf("id %d: %q %v", id, c, err)
		}
	}
	var c string
	if err := stmt.QueryRow("31").Scan(&c); err != nil || c != "c069" {
		t.Errorf("id '31': %q %v", c, err)
	}
	stmt.Close()
	a.want("EXPLAIN SELECT c FROM sbtest1 WHERE id=1", "Projection_1 1.00 root  c\n└─Point_Get_2 1.00 root table:sbtest1 handle:1")
}

// TestQueryDML: constraint errors, auto-increment, ON DUPLICATE KEY
// UPDATE, REPLACE, GROUP BY, ORDER BY/LIMIT, transactions.
func TestQueryDML(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	db.SetMaxOpenConns(1)
	s := sqlT{t, db}
	s.exec("CREATE DATABASE d")
	s.exec("USE d")
	s.exec("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT, u INT, v VARCHAR(5) NOT NULL, n INT NOT NULL, UNIQUE KEY uu (u))")
	s.wantErr(1146, "SELECT * FROM nosuch")
	s.wantErr(1054, "SELECT nosuch FROM t")
	s.exec("CREATE TABLE e (id INT PRIMARY KEY AUTO_INCREMENT, u INT, v VARCHAR(5) NOT NULL, n INT NOT NULL)")
	s.wantErr(1048, "INSERT INTO e (u, v, n) VALUES (1, NULL, 1)")
	s.wantErr(1364, "INSERT INTO e (u, v) VALUES (1, 'a')")
	s.wantErr(1406, "INSERT INTO e (u, v, n) VALUES (1, 'toolong', 1)")
	s.wantErr(1264, "INSERT INTO e (u, v, n) VALUES (1, 'a', 99999999999)")
	s.exec("INSERT INTO t (u, v, n) VALUES (1, 'a', 1), (2, 'b', 2)")
	s.want("SELECT LAST_INSERT_ID()", "1")
	s.wantErr(1062, "INSERT INTO t (u, v, n) VALUES (1, 'c', 3)")
	s.wantErr(1062, "INSERT INTO t (id, u, v, n) VALUES (2, 9, 'c', 3)")
	s.exec("INSERT INTO t (id, u, v, n) VALUES (10, 10, 'x', 10)")
	s.exec("INSERT INTO t (u, v, n) VALUES (11, 'y', 11)")
	s.want("SELECT id FROM t WHERE u = 11", "11")
	r := s.exec("INSERT INTO t (u, v, n) VALUES (1, 'z', 5) ON DUPLICATE KEY UPDATE n = n + VALUES(n)")
	if a, _ := r.RowsAffected(); a != 2 {
		t.Errorf("on dup affected %d", a)
	}
	// ROW_COUNT() in a prepared statement is the statement before's count.
	var rc int64
	if err := db.QueryRow("SELECT ROW_COUNT() + ?", 0).Scan(&rc); err != nil || rc != 2 {
		t.Errorf("prepared ROW_COUNT() after ON DUPLICATE KEY UPDATE: %d, %v; want 2", rc, err)
	}
	// A prepared SELECT without FROM reads its parameters (it read NULL).
	var sum int64
	if err := db.QueryRow("SELECT ? + 1", 41).Scan(&sum); err != nil || sum != 42 {
		t.Errorf("prepared SELECT ? + 1 with 41: %d, %v; want 42", sum, err)
	}
	s.want("SELECT n FROM t WHERE u = 1", "6")
	s.exec("REPLACE INTO t (id, u, v, n) VALUES (2, 20, 'r', 0)")
	s.want("SELECT id, u, v FROM t WHERE id = 2", "2 20 r")
	s.want("SELECT count(*) FROM t WHERE u = 2", "0")
	s.want("SELECT n % 2, count(*), sum(n), max(v) FROM t GROUP BY n % 2 ORDER BY 1", "0 3 16 x\n1 1 11 y")
	s.want("SELECT id FROM t ORDER BY id DESC LIMIT 2", "11\n10")
	s.want("SELECT id FROM t ORDER BY id LIMIT 1, 2", "2\n10")
	// FOUND_ROWS(): the rows of the last result set, over both protocols.
	var found int64
	if err := db.QueryRow("SELECT FOUND_ROWS() + ?", 0).Scan(&found); err != nil || found != 2 {
		t.Errorf("prepared FOUND_ROWS() after a 2-row SELECT: %d, %v; want 2", found, err)
	}
	rows, qerr := db.Query("SELECT id FROM t WHERE id > ?", 0)
	if qerr != nil {
		t.Fatal(qerr)
	}
	var nrows int
	for rows.Next() {
		nrows++
	}
	rows.Close()
	if nrows < 2 {
		t.Fatalf("SELECT id FROM t: %d rows", nrows)
	}
	s.want("SELECT FOUND_ROWS()", strconv.Itoa(nrows))
	// SQL_CALC_FOUND_ROWS with a LIMIT parameter: one row sent, all counted.
	var first int
	if err := db.QueryRow("SELECT SQL_CALC_FOUND_ROWS id FROM t ORDER BY id LIMIT ?", 1).Scan(&first); err != nil || first != 1 {
		t.Errorf("SQL_CALC_FOUND_ROWS ... LIMIT ?: %d, %v; want 1", first, err)
	}
	s.want("SELECT FOUND_ROWS()", strconv.Itoa(nrows))

	tx, _ := db.Begin()
	if _, err := tx.Exec("INSERT INTO t (u, v, n) VALUES (50, 'q', 1)"); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	s.want("SELECT count(*) FROM t WHERE u = 50", "0")

	// A failing statement in an explicit transaction leaves no writes.
	tx, _ = db.Begin()
	if _, err := tx.Exec("INSERT INTO t (u, v, n) VALUES (60, 'q', 1), (1, 'dup', 1)"); err == nil {
		t.Error("duplicate insert succeeded")
	}
	if _, err := tx.Exec("INSERT INTO t (u, v, n) VALUES (61, 'q', 1)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.want("SELECT u FROM t WHERE u >= 60", "61")
	s.exec("DELETE FROM t WHERE u = 61")

	// Write conflict between two explicit optimistic transactions: 1213 /
	// SQLSTATE 40001, which clients retry. (Pessimistic transactions, the
	// default, wait instead: see TestPessimisticTransactions.)
	db = n.db("tidb_txn_mode=%27optimistic%27")
	db2 := n.db("tidb_txn_mode=%27optimistic%27")
	c1, _ := db.Begin()
	c2, _ := db2.Begin()
	if _, err := c1.Exec("UPDATE d.t SET n = 100 WHERE id = 10"); err != nil {
		t.Fatal(err)
	}
	if _, err := c2.Exec("UPDATE d.t SET n = 200 WHERE id = 10"); err != nil {
		t.Fatal(err)
	}
	if err := c1.Commit(); err != nil {
		t.Fatal(err)
	}
	err := c2.Commit()
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1213 || string(me.SQLState[:]) != "40001" {
		t.Errorf("second commit: %v, want 1213 (40001)", err)
	}
	s.want("SELECT n FROM t WHERE id = 10", "100")

	// SELECT ... FOR UPDATE makes a concurrent writer of the row conflict.
	c1, _ = db.Begin()
	var got int
	if err := c1.QueryRow("SELECT n FROM d.t WHERE id = 10 FOR UPDATE").Scan(&got); err != nil || got != 100 {
		t.Fatalf("for update: %d %v", got, err)
	}
	if _, err := db2.Exec("UPDATE d.t SET n = 300 WHERE id = 10"); err != nil {
		t.Fatal(err)
	}
	err = c1.Commit()
	if !isConflict(err) {
		t.Errorf("commit after FOR UPDATE: %v, want a write conflict", err)
	}
	s.exec("DELETE FROM t WHERE id > 5")
	s.want("SELECT id FROM t", "1\n2")
}

// isConflict: the write-conflict error clients retry (MySQL's 1213 with
// TiDB's text, or TiDB's 9007).
func isConflict(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && (me.Number == 1213 || me.Number == 9007)
}

// TestQueryTypes: values of every column type round-trip through INSERT
// and SELECT over both protocols (parameters bound as their Go types).
func TestQueryTypes(t *testing.T) {
	n := startServer(t)
	for _, params := range []string{"interpolateParams=true", "parseTime=true"} {
		db := n.db(params)
		db.SetMaxOpenConns(1)
		s := sqlT{t, db}
		s.exec("CREATE DATABASE IF NOT EXISTS ty")
		s.exec("USE ty")
		s.exec("DROP TABLE IF EXISTS a")
		s.exec("CREATE TABLE a (id BIGINT UNSIGNED PRIMARY KEY, i TINYINT, d DECIMAL(10,3), f FLOAT, g DOUBLE, c CHAR(4), v VARCHAR(20), b BLOB, vb VARBINARY(8), dt DATETIME(3), da DATE, ts TIMESTAMP)")
		s.exec("INSERT INTO a VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			uint64(18446744073709551615), -7, "123.456", 1.5, 2.25, "ab", "héllo", []byte{0, 1, 2}, []byte("xy"), "2024-02-29 12:34:56.789", "2024-03-01", "2024-03-01 00:00:01")
		s.exec("INSERT INTO a (id) VALUES (?)", 1)
		s.want("SELECT id, i, d, f, g, c, v, hex(b), vb, dt, da, ts FROM a WHERE id = ?",
			map[bool]string{true: "18446744073709551615 -7 123.456 1.5 2.25 ab héllo 000102 xy 2024-02-29 12:34:56.789 2024-03-01 2024-03-01 00:00:01",
				false: "18446744073709551615 -7 123.456 1.5 2.25 ab héllo 000102 xy 2024-02-29T12:34:56.789Z 2024-03-01T00:00:00Z 2024-03-01T00:00:01Z"}[params == "interpolateParams=true"],
			uint64(18446744073709551615))
		s.want("SELECT id, i, d, c, b FROM a WHERE id = 1", "1 NULL NULL NULL NULL")
		s.want("SELECT count(*), sum(d), avg(g), min(dt), max(v) FROM a", map[bool]string{true: "2 123.456 2.25 2024-02-29 12:34:56.789 héllo", false: "2 123.456 2.25 2024-02-29T12:34:56.789Z héllo"}[params == "interpolateParams=true"])
	}
}
