package sqlnode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestBadClientInput: garbage on the wire, a non-integer parameter for an
// integer column, and a client that goes away in the middle of a result:
// each gets an error or a clean close, and the server goes on serving.
func TestBadClientInput(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	for _, q := range []string{"CREATE DATABASE b", "CREATE TABLE b.t (id INT PRIMARY KEY, v VARCHAR(100))"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	// Enough rows that a result spans many packets.
	var sb strings.Builder
	sb.WriteString("INSERT INTO b.t VALUES ")
	for i := 0; i < 5000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "(%d, '%s')", i, strings.Repeat("v", 80))
	}
	if _, err := db.Exec(sb.String()); err != nil {
		t.Fatal(err)
	}

	// Garbage instead of a handshake response: the server closes that
	// connection.
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+n.port, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	greeting := make([]byte, 4096)
	if _, err := c.Read(greeting); err != nil {
		t.Fatalf("no handshake: %v", err)
	}
	c.Write([]byte{0x05, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff})
	c.Write([]byte(strings.Repeat("\xde\xad\xbe\xef", 64)))
	if _, err := io.ReadAll(c); err != nil && !errors.Is(err, io.EOF) {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("server kept a garbage connection open")
		}
	}
	c.Close()

	// A string that is not a number, as a prepared parameter of an INT
	// column: 1366 in strict mode, nothing written.
	_, err = db.Exec("INSERT INTO b.t (id, v) VALUES (?, ?)", "not-a-number", "x")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1366 {
		t.Errorf("string for an INT parameter: %v, want 1366", err)
	}

	// A client that goes away in the middle of a result.
	ctx, cancel := context.WithCancel(context.Background())
	rows, err := db.QueryContext(ctx, "SELECT id, v FROM b.t")
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal("no first row")
	}
	cancel() // the driver drops the connection mid-result
	rows.Close()

	// The server still serves everyone else, and nothing was half-written.
	var count int
	if err := db.QueryRow("SELECT COUNT(*) FROM b.t").Scan(&count); err != nil || count != 5000 {
		t.Fatalf("after bad clients: %d rows, %v", count, err)
	}
	if exited, err := n.proc.Exited(); exited {
		t.Fatalf("server exited: %v", err)
	}
}
