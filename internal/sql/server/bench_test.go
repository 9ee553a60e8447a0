package server

import (
	"testing"
)

// BenchmarkPointSelectPrepared measures one prepared single-row query
// through go-sql-driver and the server over loopback (the protocol cost
// of sysbench's oltp_point_select).
func BenchmarkPointSelectPrepared(b *testing.B) {
	ts := startServer(b, Config{})
	db := ts.open(b, "root", "", "")
	stmt, err := db.Prepare("args ?")
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	var s string
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := stmt.QueryRow(int64(i)).Scan(&s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextQuery measures a text-protocol query with one row.
func BenchmarkTextQuery(b *testing.B) {
	ts := startServer(b, Config{})
	db := ts.open(b, "root", "", "")
	var s string
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := db.QueryRow("echo x").Scan(&s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendTextRow measures encoding a row of every column type.
func BenchmarkAppendTextRow(b *testing.B) {
	cols, row := allColumns(), fakeRow(allRows()[0])
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = appendTextRow(buf[:0], row, cols)
	}
}

// BenchmarkAppendBinaryRow measures encoding a binary row of every type.
func BenchmarkAppendBinaryRow(b *testing.B) {
	cols, row := allColumns(), fakeRow(allRows()[0])
	buf := make([]byte, 0, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = appendBinaryRow(buf[:0], row, cols)
	}
}
