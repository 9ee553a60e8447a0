package exec

import (
	"context"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/planner"
)

// TestKeysToLock: a statement staged over a StmtTxn asks a pessimistic
// transaction to lock its rows and unique index entries, not the
// non-unique entries (they hold the handle; the row lock covers them).
func TestKeysToLock(t *testing.T) {
	ctx := context.Background()
	cat, begin := newTestCatalogBegin(t)
	ddl(t, cat, "CREATE TABLE t (id INT PRIMARY KEY, u INT, k INT, UNIQUE KEY uu (u), KEY kk (k))")
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	run := func(sql string) (staged, toLock []string) {
		t.Helper()
		stmt, err := parser.New().ParseOneStmt(sql, "", "")
		if err != nil {
			t.Fatal(err)
		}
		qc := &testCtx{IS: cat.InfoSchema(), DB: "test"}
		p, err := planner.Build(qc, stmt)
		if err != nil {
			t.Fatal(err)
		}
		st := NewStmtTxn(txn)
		e, err := Build(&Context{Eval: qc, Txn: st, Alloc: cat.Allocator(), Strict: true, Now: time.Unix(0, 0)}, p)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Open(ctx); err != nil {
			t.Fatal(err)
		}
		if err := Drain(ctx, e, 32, func(*chunk.Chunk) error { return nil }); err != nil {
			t.Fatal(err)
		}
		_ = e.Close()
		for _, k := range st.order {
			staged = append(staged, kind(k))
		}
		for _, k := range st.KeysToLock() {
			toLock = append(toLock, kind(string(k)))
		}
		if err := st.Flush(); err != nil {
			t.Fatal(err)
		}
		return staged, toLock
	}
	check := func(sql string, wantStaged, wantLock int) {
		t.Helper()
		staged, toLock := run(sql)
		for _, k := range toLock {
			if k == "index(kk)" {
				t.Errorf("%s: locks a non-unique index entry: %v", sql, toLock)
			}
		}
		if len(staged) != wantStaged || len(toLock) != wantLock {
			t.Errorf("%s: staged %v, to lock %v; want %d and %d", sql, staged, toLock, wantStaged, wantLock)
		}
	}
	tbl, err := cat.InfoSchema().Table("test", "t")
	if err != nil {
		t.Fatal(err)
	}
	kind = func(k string) string {
		if _, _, err := codec.DecodeRecordKey([]byte(k)); err == nil {
			return "row"
		}
		if _, iid, _, err := codec.DecodeIndexKey([]byte(k)); err == nil {
			for _, ix := range tbl.Indices {
				if ix.ID == iid {
					return "index(" + ix.Name + ")"
				}
			}
		}
		return "?"
	}
	check("INSERT INTO t VALUES (1, 10, 100)", 3, 2) // row, uu, kk
	check("UPDATE t SET k = 101 WHERE id = 1", 3, 1) // row, kk old, kk new
	check("UPDATE t SET u = 11 WHERE id = 1", 3, 3)  // row, uu old, uu new
	check("DELETE FROM t WHERE id = 1", 3, 2)        // row, uu, kk
}

var kind func(string) string
