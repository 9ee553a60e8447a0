package sqlnode

import (
	"fmt"
	"strings"
	"testing"
)

// TestLargeMultiRowInsert: one INSERT statement of more than 512 KB.
func TestLargeMultiRowInsert(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	db.SetMaxOpenConns(1)
	for _, q := range []string{"CREATE DATABASE big", "CREATE TABLE big.t (id INT PRIMARY KEY, k INT, c VARCHAR(64))"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	b.WriteString("INSERT INTO big.t VALUES ")
	const rows = 12000
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "(%d,%d,'%s')", i, i, strings.Repeat("x", 40))
	}
	if b.Len() < 512<<10 {
		t.Fatalf("statement is only %d bytes", b.Len())
	}
	res, err := db.Exec(b.String())
	if err != nil {
		t.Fatalf("%d-byte insert: %v", b.Len(), err)
	}
	if n, _ := res.RowsAffected(); n != rows {
		t.Errorf("affected %d rows, want %d", n, rows)
	}
	var count, sum int64
	if err := db.QueryRow("SELECT COUNT(*), SUM(k) FROM big.t").Scan(&count, &sum); err != nil {
		t.Fatal(err)
	}
	if count != rows || sum != rows*(rows-1)/2 {
		t.Errorf("count %d sum %d", count, sum)
	}
}
