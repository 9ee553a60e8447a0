package catalog

import (
	"context"
	"fmt"
	"github.com/strata-db/strata/internal/codec"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// writeRow writes one row the way a DML statement on another server
// does: the record and the entries of every writable index (deleting the
// entries of the old row when it replaces one).
func writeRow(t *testing.T, begin BeginFunc, tbl *TableInfo, old, row []types.Datum, h int64) {
	t.Helper()
	ctx := context.Background()
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range tbl.WritableIndices() {
		if old != nil {
			k, _ := tbl.IndexKey(idx, old, h)
			if err := txn.Delete(k); err != nil {
				t.Fatal(err)
			}
		}
		k, distinct := tbl.IndexKey(idx, row, h)
		if err := txn.Set(k, IndexValue(h, distinct)); err != nil {
			t.Fatal(err)
		}
	}
	k, v := tbl.EncodeRecord(h, row)
	if err := txn.Set(k, v); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

func intRow(vals ...int64) []types.Datum {
	out := make([]types.Datum, len(vals))
	for i, v := range vals {
		out[i] = types.NewIntDatum(v)
	}
	return out
}

// TestBackfillWithConcurrentWriter: while a unique index is backfilled,
// another server that sees it write-only inserts a row and updates a row
// the backfill has not reached; the index ends up with exactly one
// correct entry per row.
func TestBackfillWithConcurrentWriter(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	other := New(begin, Options{})
	mustExec(t, c, "CREATE TABLE w (id INT PRIMARY KEY, a INT)")
	w := mustTable(t, c, "w")
	const n = 20
	var rows [][]types.Datum
	for i := int64(1); i <= n; i++ {
		rows = append(rows, intRow(i, i))
	}
	insertRows(t, c, begin, w, rows)

	calls := 0
	c.hooks.afterBackfillBatch = func() {
		calls++
		if calls != 1 {
			return
		}
		is, err := other.Refresh(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		ow, _ := is.Table("test", "w")
		if len(ow.WritableIndices()) != 1 || len(ow.PublicIndices()) != 0 {
			t.Errorf("other server sees writable %d, public %d indexes", len(ow.WritableIndices()), len(ow.PublicIndices()))
			return
		}
		writeRow(t, begin, ow, nil, intRow(100, 100), 100)
		writeRow(t, begin, ow, intRow(15, 15), intRow(15, 115), 15)
	}
	mustExec(t, c, "CREATE UNIQUE INDEX ua ON w (a)")
	if calls < 3 {
		t.Fatalf("backfill ran %d batches; want several", calls)
	}
	w = mustTable(t, c, "w")
	ua := w.Index("ua")
	start, end := w.IndexRange(ua)
	keys, values := scan(t, begin, start, end)
	if len(keys) != n+1 {
		t.Fatalf("%d index entries, want %d", len(keys), n+1)
	}
	for i := range keys {
		h, err := IndexEntryHandle(ua, keys[i], values[i])
		if err != nil {
			t.Fatal(err)
		}
		_, rv := scan(t, begin, w.RecordKey(h), w.RecordKey(h).Next())
		row, err := w.DecodeRecord(h, rv[0])
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := w.IndexKey(ua, row, h); string(k) != string(keys[i]) {
			t.Fatalf("entry %d points to row %d = %v", i, h, row)
		}
	}
}

// TestBackfillDuplicateFromWriter: a writer's entry for another row with
// the same value makes the backfill fail with 1062, and the index goes.
func TestBackfillDuplicateFromWriter(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	other := New(begin, Options{})
	mustExec(t, c, "CREATE TABLE w (id INT PRIMARY KEY, a INT)")
	w := mustTable(t, c, "w")
	var rows [][]types.Datum
	for i := int64(1); i <= 20; i++ {
		rows = append(rows, intRow(i, i))
	}
	insertRows(t, c, begin, w, rows)
	c.hooks.afterBackfillBatch = func() {
		c.hooks.afterBackfillBatch = nil
		is, err := other.Refresh(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		ow, _ := is.Table("test", "w")
		writeRow(t, begin, ow, nil, intRow(101, 18), 101)
	}
	err := execSQL(t, c, "CREATE UNIQUE INDEX ua ON w (a)")
	wantCode(t, err, mysql.ErrDupEntry)
	w = mustTable(t, c, "w")
	if w.Index("ua") != nil || len(w.Indices) != 0 {
		t.Fatalf("indexes left: %v", w.Indices)
	}
	if got := countPrefix(t, begin, w.indexPrefix(w.MaxIndexID)); got != 0 {
		t.Fatalf("%d entries left", got)
	}
}

func BenchmarkAddIndex(b *testing.B) {
	c, begin := newTestCatalog(b)
	c.opts.BatchSize = 1024
	mustExec(b, c, "CREATE TABLE bi (id INT PRIMARY KEY, k INT, c CHAR(120))")
	tbl := mustTable(b, c, "bi")
	const n = 10000
	ctx := context.Background()
	for lo := 0; lo < n; lo += 1000 {
		txn, err := begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for i := lo; i < lo+1000; i++ {
			k, v := tbl.EncodeRecord(int64(i), []types.Datum{types.NewIntDatum(int64(i)),
				types.NewIntDatum(int64(i * 7 % n)), types.NewStringDatum(fmt.Sprintf("%0120d", i))})
			if err := txn.Set(k, v); err != nil {
				b.Fatal(err)
			}
		}
		if err := txn.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustExec(b, c, "CREATE UNIQUE INDEX uk ON bi (k)")
		mustExec(b, c, "DROP INDEX uk ON bi")
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestDropDuringBackfill: a table dropped by another server while its
// index is backfilled leaves no keys behind, and ADD INDEX fails.
func TestDropDuringBackfill(t *testing.T) {
	c, begin := newTestCatalog(t)
	other := New(begin, Options{})
	mustExec(t, c, "CREATE TABLE w (id INT PRIMARY KEY, a INT)")
	w := mustTable(t, c, "w")
	var rows [][]types.Datum
	for i := int64(1); i <= 20; i++ {
		rows = append(rows, intRow(i, i))
	}
	insertRows(t, c, begin, w, rows)
	calls := 0
	c.hooks.afterBackfillBatch = func() {
		if calls++; calls == 1 {
			if err := execSQL(t, other, "DROP TABLE w"); err != nil {
				t.Error(err)
			}
		}
	}
	err := execSQL(t, c, "CREATE INDEX ia ON w (a)")
	wantCode(t, err, mysql.ErrNoSuchTable)
	if n := countPrefix(t, begin, codec.TablePrefix(w.ID)); n != 0 {
		t.Fatalf("%d keys left of the dropped table", n)
	}
}
