package server

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// expectedAll is the first row of allRows as go-sql-driver returns it
// (binary differs in one place: unsigned BIGINT above MaxInt64 is text).
func expectedAll(binary bool) []any {
	ull := any(uint64(18446744073709551615))
	if binary {
		ull = []byte("18446744073709551615")
	}
	return []any{
		int64(-5), int64(250), int64(-300), int64(65000), int64(-8000000),
		int64(-2000000000), int64(4000000000), int64(-9000000000000000000), ull,
		int64(2024), float32(0.1), float64(3.141592653589793), float64(1e20),
		[]byte("12.50"), []byte("héllo"), []byte("c"), []byte{0, 1, 2, 255}, []byte(`{"a": 1}`), []byte{5},
		[]byte("2024-02-29"), []byte("2024-02-29 13:14:15.123456"), []byte("1999-12-31 23:59:58"),
		[]byte("-838:59:59"), []byte("01:02:03.450"), nil,
	}
}

func scanAll(t *testing.T, rows *sql.Rows) [][]any {
	t.Helper()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkAllTypes(t *testing.T, got [][]any, binary bool) {
	t.Helper()
	if len(got) != 2 {
		t.Fatalf("got %d rows, want 2", len(got))
	}
	want := expectedAll(binary)
	names := allColumns()
	for i, w := range want {
		if !reflect.DeepEqual(got[0][i], w) {
			t.Errorf("%s: got %T %v, want %T %v", names[i].Name, got[0][i], got[0][i], w, w)
		}
		if got[1][i] != nil {
			t.Errorf("%s: NULL row got %v", names[i].Name, got[1][i])
		}
	}
}

func TestTextProtocolAllTypes(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	rows, err := db.Query("select_all")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	checkAllTypes(t, scanAll(t, rows), false)
}

func TestBinaryProtocolAllTypes(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	stmt, err := db.Prepare("select_all")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for range 3 { // prepared-statement reuse
		rows, err := stmt.Query()
		if err != nil {
			t.Fatal(err)
		}
		ct, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		wantTypes := map[string]string{"c_utiny": "UNSIGNED TINYINT", "c_decimal": "DECIMAL",
			"c_datetime": "DATETIME", "c_time": "TIME", "c_blob": "BLOB", "c_json": "JSON", "c_varchar": "VARCHAR"}
		for _, c := range ct {
			if w, ok := wantTypes[c.Name()]; ok && c.DatabaseTypeName() != w {
				t.Errorf("%s: type %s, want %s", c.Name(), c.DatabaseTypeName(), w)
			}
		}
		checkAllTypes(t, scanAll(t, rows), true)
		rows.Close()
	}
}

func TestParseTimeBothProtocols(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "parseTime=true")
	want := []time.Time{
		time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 58, 0, time.UTC),
	}
	check := func(rows *sql.Rows, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		got := scanAll(t, rows)
		for i, w := range want {
			v, ok := got[0][19+i].(time.Time)
			if !ok || !v.Equal(w) {
				t.Errorf("column %d: got %T %v, want %v", 19+i, got[0][19+i], got[0][19+i], w)
			}
		}
	}
	check(db.Query("select_all"))
	stmt, err := db.Prepare("select_all")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	check(stmt.Query())
}

func TestPreparedParameters(t *testing.T) {
	ts := startServer(t, Config{})
	// maxAllowedPacket small enough that the driver sends the long string
	// with COM_STMT_SEND_LONG_DATA.
	db := ts.open(t, "root", "", "maxAllowedPacket=2048")
	long := strings.Repeat("L", 3000)
	stmt, err := db.Prepare("args ?,?,?,?,?,?,?,?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	for i := range 2 {
		var rows *sql.Rows
		if i == 0 {
			rows, err = stmt.Query(int64(-7), uint64(1<<63+5), 2.5, "str", []byte{1, 2}, nil, true, long)
		} else {
			rows, err = stmt.Query(int64(8), uint64(9), -0.5, "", []byte{}, "x", false, "short")
		}
		if err != nil {
			t.Fatal(err)
		}
		got := scanAll(t, rows)
		rows.Close()
		var want []string
		if i == 0 {
			want = []string{"8/int64:-7", "8/uint64:9223372036854775813", "5/float64:2.5", "254/[]byte:str",
				"254/[]byte:\x01\x02", "NULL/6", "1/int64:1", "254/[]byte:" + long}
		} else {
			want = []string{"8/int64:8", "8/uint64:9", "5/float64:-0.5", "254/[]byte:", "254/[]byte:",
				"254/[]byte:x", "1/int64:0", "254/[]byte:short"}
		}
		for j, w := range want {
			if g := string(got[0][j].([]byte)); g != w {
				t.Errorf("exec %d arg %d: got %q, want %q", i, j, g, w)
			}
		}
	}
}

func TestMultiStatements(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "multiStatements=true")
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, "echo one; ok 3; select_all; echo two")
	if err != nil {
		t.Fatal(err)
	}
	var sets [][][]any
	for {
		sets = append(sets, scanAll(t, rows))
		if !rows.NextResultSet() {
			break
		}
	}
	rows.Close()
	// go-sql-driver skips the OK result of "ok 3" between result sets.
	if len(sets) != 3 {
		t.Fatalf("got %d result sets, want 3", len(sets))
	}
	if string(sets[0][0][0].([]byte)) != "one" || string(sets[2][0][0].([]byte)) != "two" || len(sets[1]) != 2 {
		t.Errorf("unexpected sets %v", sets)
	}
	res, err := conn.ExecContext(ctx, "ok 1; ok 2; ok 5")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 5 {
		t.Errorf("RowsAffected %d, want 5 (the last statement's)", n)
	}
	if id, _ := res.LastInsertId(); id != 105 {
		t.Errorf("LastInsertId %d, want 105", id)
	}
	_, err = conn.ExecContext(ctx, "ok 1; error 1146; ok 2")
	if n, _ := mysqlErr(err); n != 1146 {
		t.Errorf("error in the middle: got %v, want 1146", err)
	}
	if err := conn.PingContext(ctx); err != nil {
		t.Errorf("connection unusable after error: %v", err)
	}

	off := ts.open(t, "root", "", "")
	_, err = off.Exec("ok 1; ok 2")
	if n, _ := mysqlErr(err); n != 8130 {
		t.Errorf("multi-statement without capability: got %v, want 8130", err)
	}
}

func TestErrorsCarryNumbers(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	db.SetMaxOpenConns(1)
	cases := []struct {
		q     string
		code  uint16
		state string
	}{
		{"error 1062", 1062, "23000"},
		{"error 1146", 1146, "42S02"},
		{"error 1054", 1054, "42S22"},
		{"error 9007", 9007, "HY000"},
		{"nonsense", 1064, "42000"},
		{"midfail", 1365, "22012"},
	}
	for _, c := range cases {
		rows, err := db.Query(c.q)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		if n, st := mysqlErr(err); n != c.code || st != c.state {
			t.Errorf("%s: got %v (%d %s), want %d %s", c.q, err, n, st, c.code, c.state)
		}
	}
	if err := db.Ping(); err != nil {
		t.Fatalf("server stopped serving: %v", err)
	}
	// A panic in the session: ERR 1105, that connection closes, the server
	// goes on.
	pdb := ts.open(t, "root", "", "")
	if _, err := pdb.Exec("panic"); err == nil {
		t.Errorf("panic: no error")
	} else if n, _ := mysqlErr(err); n != 1105 {
		t.Errorf("panic: got %v, want 1105", err)
	}
	if err := db.Ping(); err != nil {
		t.Fatalf("server stopped serving after a panic: %v", err)
	}
	// prepared errors
	if _, err := db.Prepare("nonsense"); err == nil {
		t.Errorf("prepare of bad SQL succeeded")
	} else if n, _ := mysqlErr(err); n != 1064 {
		t.Errorf("prepare error %v", err)
	}
}

func TestAuthentication(t *testing.T) {
	for _, plugin := range []string{PluginNativePassword, PluginCachingSHA2Password} {
		t.Run(plugin, func(t *testing.T) {
			ts := startServer(t, Config{DefaultAuthPlugin: plugin})
			if err := ts.open(t, "alice", "secret", "").Ping(); err != nil {
				t.Errorf("alice: %v", err)
			}
			if err := ts.open(t, "root", "", "").Ping(); err != nil {
				t.Errorf("root: %v", err)
			}
			err := ts.open(t, "alice", "wrong", "").Ping()
			if n, st := mysqlErr(err); n != 1045 || st != "28000" {
				t.Errorf("wrong password: %v", err)
			}
			err = ts.open(t, "mallory", "", "").Ping()
			if n, _ := mysqlErr(err); n != 1045 {
				t.Errorf("unknown user: %v", err)
			}
		})
	}
	ts := startServer(t, Config{})
	db, err := sql.Open("mysql", "root@tcp("+ts.addr+")/nodb")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, _ := mysqlErr(db.Ping()); n != 1049 {
		t.Errorf("unknown database at connect: want 1049")
	}
}

func TestAuthSwitch(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.greeting()
	c.write(handshakeResponseFor(rawCaps, "alice", []byte("garbage"), "", "sha256_password"))
	sw := c.read()
	if sw[0] != headerEOF || !bytes.HasPrefix(sw[1:], []byte(PluginNativePassword+"\x00")) {
		t.Fatalf("want AuthSwitchRequest, got %q", sw)
	}
	salt := sw[1+len(PluginNativePassword)+1 : len(sw)-1]
	c.write(ScrambleNativePassword(salt, "secret"))
	if ok := c.read(); ok[0] != headerOK {
		t.Fatalf("after auth switch: %x", ok)
	}
}

func TestMaxAllowedPacket(t *testing.T) {
	ts := startServer(t, Config{MaxAllowedPacket: 64 << 10})
	db := ts.open(t, "root", "", "maxAllowedPacket=16777216")
	db.SetMaxOpenConns(1)
	var n int64
	if err := db.QueryRow("echolen " + strings.Repeat("a", 60<<10)).Scan(&n); err != nil || n != 60<<10 {
		t.Fatalf("under the limit: %v %d", err, n)
	}
	_, err := db.Query("echolen " + strings.Repeat("a", 100<<10))
	if c, st := mysqlErr(err); c != 1153 || st != "08S01" {
		t.Fatalf("over the limit: got %v, want 1153", err)
	}
	// The server closed that connection; a new one works.
	if err := ts.open(t, "root", "", "").QueryRow("echolen abc").Scan(&n); err != nil || n != 3 {
		t.Fatalf("after 1153: %v %d", err, n)
	}
}

func TestLargePacketsSplitAndJoin(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "maxAllowedPacket=33554432")
	big := strings.Repeat("b", 1<<24+100) // more than one physical packet each way
	var got string
	if err := db.QueryRow("echo " + big).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != big {
		t.Fatalf("echo of %d bytes came back with %d", len(big), len(got))
	}
}

func TestKill(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	ts.b.mu.Lock()
	id := ts.b.lastInfo.ID
	ts.b.mu.Unlock()

	errc := make(chan error, 1)
	go func() { _, err := conn.ExecContext(ctx, "sleep"); errc <- err }()
	<-ts.b.running
	if !ts.srv.Kill(id, true) {
		t.Fatal("Kill: no such connection")
	}
	if n, _ := mysqlErr(<-errc); n != 1317 {
		t.Fatalf("KILL QUERY: want 1317")
	}
	if err := conn.PingContext(ctx); err != nil {
		t.Fatalf("connection gone after KILL QUERY: %v", err)
	}
	go func() { _, err := conn.ExecContext(ctx, "sleep"); errc <- err }()
	<-ts.b.running
	ts.srv.Kill(id, false)
	if err := <-errc; err == nil {
		t.Fatal("KILL CONNECTION: statement succeeded")
	}
	if ts.srv.Kill(999999, true) {
		t.Error("Kill of unknown id reported true")
	}
}

func TestDisconnectMidResult(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.login(rawCaps|ClientDeprecateEOF, PluginNativePassword)
	c.command(comQuery, []byte("big 1000000"))
	for range 10 {
		c.read()
	}
	c.nc.Close()
	if name := <-ts.b.resClose; name != "big" {
		t.Fatalf("closed result %q", name)
	}
	db := ts.open(t, "root", "", "")
	if err := db.Ping(); err != nil {
		t.Fatalf("server stopped serving: %v", err)
	}
}

func TestServerCloseEndsConnections(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	ts.srv.Close()
	if n := ts.srv.ConnCount(); n != 0 {
		t.Fatalf("%d connections after Close", n)
	}
	ts.b.mu.Lock()
	closed := ts.b.closed
	ts.b.mu.Unlock()
	if closed != 1 {
		t.Fatalf("%d sessions closed, want 1", closed)
	}
}

func TestMain(m *testing.M) {
	mysql.SetLogger(log.New(io.Discard, "", 0))
	os.Exit(m.Run())
}

// TestConcurrentClients runs many goroutines over a pool of connections,
// text and binary queries interleaved (run with -race).
func TestConcurrentClients(t *testing.T) {
	ts := startServer(t, Config{})
	db := ts.open(t, "root", "", "")
	db.SetMaxOpenConns(8)
	stmt, err := db.Prepare("args ?")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	errc := make(chan error, 16)
	for g := range 16 {
		go func() {
			for i := range 30 {
				var s string
				var err error
				if (g+i)%2 == 0 {
					err = stmt.QueryRow(int64(i)).Scan(&s)
					if err == nil && s != fmt.Sprintf("8/int64:%d", i) {
						err = fmt.Errorf("got %q", s)
					}
				} else {
					err = db.QueryRow("echo " + strconv.Itoa(i)).Scan(&s)
					if err == nil && s != strconv.Itoa(i) {
						err = fmt.Errorf("got %q", s)
					}
				}
				if err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for range 16 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
}
