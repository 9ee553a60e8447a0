package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// insertRows writes rows (and their entries in every writable index) the
// way DML does, with the package's encode helpers, in one transaction.
func insertRows(t *testing.T, c *Catalog, begin BeginFunc, tbl *TableInfo, rows [][]types.Datum) {
	t.Helper()
	ctx := context.Background()
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		h, ok := tbl.Handle(row)
		if !ok {
			if h, _, err = c.Allocator().Alloc(ctx, tbl.ID, 1); err != nil {
				t.Fatal(err)
			}
		}
		k, v := tbl.EncodeRecord(h, row)
		if err := txn.Set(k, v); err != nil {
			t.Fatal(err)
		}
		for _, idx := range tbl.WritableIndices() {
			ik, distinct := tbl.IndexKey(idx, row, h)
			if err := txn.Set(ik, IndexValue(h, distinct)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

// scan returns the key/value pairs in [start, end).
func scan(t *testing.T, begin BeginFunc, start, end kv.Key) (keys, values [][]byte) {
	t.Helper()
	ctx := context.Background()
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = txn.Rollback() }()
	it, err := txn.Iter(ctx, start, end)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.Valid() {
		keys = append(keys, it.Key().Clone())
		values = append(values, append([]byte(nil), it.Value()...))
		if err := it.Next(); err != nil {
			t.Fatal(err)
		}
	}
	return keys, values
}

func countPrefix(t *testing.T, begin BeginFunc, p kv.Key) int {
	keys, _ := scan(t, begin, p, codec.PrefixEnd(p))
	return len(keys)
}

// indexHandles returns the handles of index idx's entries, in key order.
func indexHandles(t *testing.T, begin BeginFunc, tbl *TableInfo, idx *IndexInfo) []int64 {
	t.Helper()
	start, end := tbl.IndexRange(idx)
	keys, values := scan(t, begin, start, end)
	out := make([]int64, len(keys))
	for i := range keys {
		h, err := IndexEntryHandle(idx, keys[i], values[i])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = h
	}
	return out
}

func wantCode(t *testing.T, err error, code uint16) {
	t.Helper()
	var e *sqlerr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("want MySQL error %d, got %v", code, err)
	}
}

func TestIndexOnPopulatedTable(t *testing.T) {
	c, begin := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE p (id INT PRIMARY KEY, a INT, b VARCHAR(10))")
	p := mustTable(t, c, "p")
	const n = 30 // > 4 backfill batches of 7
	var rows [][]types.Datum
	for i := 1; i <= n; i++ {
		rows = append(rows, []types.Datum{types.NewIntDatum(int64(i)), types.NewIntDatum(int64(i % 5)),
			types.NewStringDatum(fmt.Sprintf("v%02d", i))})
	}
	insertRows(t, c, begin, p, rows)

	mustExec(t, c, "ALTER TABLE p ADD INDEX ia (a)")
	p = mustTable(t, c, "p")
	ia := p.Index("ia")
	if ia == nil || ia.State != StatePublic {
		t.Fatalf("index ia: %+v", ia)
	}
	hs := indexHandles(t, begin, p, ia)
	if len(hs) != n {
		t.Fatalf("ia has %d entries, want %d", len(hs), n)
	}
	// Entries sort by a, then handle: a=0 holds 5,10,...,30.
	if got := fmt.Sprint(hs[:6]); got != "[5 10 15 20 25 30]" {
		t.Fatalf("first entries of ia: %s", got)
	}

	// A unique index over duplicate values fails and leaves nothing.
	err := execSQL(t, c, "CREATE UNIQUE INDEX ua ON p (a)")
	wantCode(t, err, mysql.ErrDupEntry)
	if !strings.Contains(err.Error(), "for key 'p.ua'") {
		t.Fatalf("message: %v", err)
	}
	p = mustTable(t, c, "p")
	if p.Index("ua") != nil {
		t.Fatal("failed unique index left in the schema")
	}
	if got := countPrefix(t, begin, codec.IndexPrefix(p.ID, p.MaxIndexID)); got != 0 {
		t.Fatalf("failed unique index left %d entries", got)
	}

	// A unique index over distinct values stores handles as values.
	mustExec(t, c, "CREATE UNIQUE INDEX ub ON p (b)")
	p = mustTable(t, c, "p")
	ub := p.Index("ub")
	hs = indexHandles(t, begin, p, ub)
	if len(hs) != n || hs[0] != 1 || hs[n-1] != n {
		t.Fatalf("ub handles %v", hs)
	}
	key, distinct := p.IndexKey(ub, rows[6], 7)
	if !distinct {
		t.Fatal("unique index entry without NULL is not distinct")
	}
	if _, vals := scan(t, begin, key, key.Next()); len(vals) != 1 || string(vals[0]) != string(IndexValue(7, true)) {
		t.Fatalf("ub entry of row 7: %x", vals)
	}

	// DROP INDEX deletes its entries.
	iaID := ia.ID
	mustExec(t, c, "ALTER TABLE p DROP INDEX ia")
	if got := countPrefix(t, begin, codec.IndexPrefix(p.ID, iaID)); got != 0 {
		t.Fatalf("dropped index left %d entries", got)
	}

	// RENAME keeps the table (and its data) under the same ID.
	mustExec(t, c, "RENAME TABLE p TO q")
	q := mustTable(t, c, "q")
	if q.ID != p.ID || countPrefix(t, begin, codec.TableRecordPrefix(q.ID)) != n {
		t.Fatalf("renamed table id %d (was %d)", q.ID, p.ID)
	}
	if _, err := c.InfoSchema().Table("test", "p"); err == nil {
		t.Fatal("old name still resolves")
	}

	// TRUNCATE: a new ID, the old rows and entries gone, indexes kept.
	mustExec(t, c, "TRUNCATE TABLE q")
	q2 := mustTable(t, c, "q")
	if q2.ID == q.ID || q2.Index("ub") == nil {
		t.Fatalf("truncated table: id %d (was %d), ub %v", q2.ID, q.ID, q2.Index("ub"))
	}
	if got := countPrefix(t, begin, codec.TablePrefix(q.ID)); got != 0 {
		t.Fatalf("truncate left %d keys", got)
	}

	// DROP TABLE deletes the data of the table.
	insertRows(t, c, begin, q2, rows[:3])
	if got := countPrefix(t, begin, codec.TablePrefix(q2.ID)); got != 6 {
		t.Fatalf("3 rows with one index: %d keys", got)
	}
	mustExec(t, c, "DROP TABLE q")
	if got := countPrefix(t, begin, codec.TablePrefix(q2.ID)); got != 0 {
		t.Fatalf("drop left %d keys", got)
	}

	// DROP DATABASE deletes the data of its tables.
	mustExec(t, c, "CREATE DATABASE gone")
	mustExec(t, c, "CREATE TABLE gone.g (id INT PRIMARY KEY, a INT, KEY (a))")
	g, err := c.InfoSchema().Table("gone", "g")
	if err != nil {
		t.Fatal(err)
	}
	insertRows(t, c, begin, g, rows[:5])
	mustExec(t, c, "DROP DATABASE gone")
	if got := countPrefix(t, begin, codec.TablePrefix(g.ID)); got != 0 {
		t.Fatalf("drop database left %d keys", got)
	}
	if c.InfoSchema().DatabaseExists("gone") {
		t.Fatal("database still there")
	}
}

// TestRowIDTable: a table without an integer primary key keys rows by
// _tidb_rowid, its primary key is a unique index, and NULLs in a unique
// index are not distinct.
func TestRowIDTable(t *testing.T) {
	c, begin := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE r (name VARCHAR(10) PRIMARY KEY, u INT, UNIQUE KEY uu (u))")
	r := mustTable(t, c, "r")
	if r.PKIsHandle || r.PrimaryIndex() == nil {
		t.Fatalf("pk is handle %v, primary index %v", r.PKIsHandle, r.PrimaryIndex())
	}
	insertRows(t, c, begin, r, [][]types.Datum{
		{types.NewStringDatum("a"), types.NewNullDatum()},
		{types.NewStringDatum("b"), types.NewNullDatum()},
		{types.NewStringDatum("c"), types.NewIntDatum(1)},
	})
	if got := countPrefix(t, begin, codec.TableRecordPrefix(r.ID)); got != 3 {
		t.Fatalf("%d rows", got)
	}
	hs := indexHandles(t, begin, r, r.Index("uu"))
	if len(hs) != 3 {
		t.Fatalf("uu entries %v", hs)
	}
	// Adding another unique index over the NULLs succeeds.
	mustExec(t, c, "CREATE UNIQUE INDEX uu2 ON r (u)")
	// A prefix index cuts values to characters.
	mustExec(t, c, "CREATE INDEX pre ON r (name(1))")
	r = mustTable(t, c, "r")
	vals := r.Index("pre").IndexValues([]types.Datum{types.NewStringDatum("héllo"), types.NewNullDatum()})
	if vals[0].GetString() != "h" {
		t.Fatalf("prefix value %q", vals[0].GetString())
	}
}

func TestAddColumnDefaults(t *testing.T) {
	c, begin := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE c (id INT PRIMARY KEY, a INT)")
	old := mustTable(t, c, "c")
	insertRows(t, c, begin, old, [][]types.Datum{
		{types.NewIntDatum(1), types.NewIntDatum(10)},
		{types.NewIntDatum(2), types.NewNullDatum()},
	})
	mustExec(t, c, "ALTER TABLE c ADD COLUMN x INT DEFAULT 7, ADD COLUMN y VARCHAR(5) NOT NULL, "+
		"ADD COLUMN z DATETIME DEFAULT CURRENT_TIMESTAMP, ADD COLUMN w INT, ADD COLUMN v DECIMAL(5,2) DEFAULT '1.5' FIRST")
	tbl := mustTable(t, c, "c")
	insertRows(t, c, begin, tbl, [][]types.Datum{{types.NewDecimalDatum(mustDecimal("2.25")), types.NewIntDatum(3),
		types.NewIntDatum(30), types.NewIntDatum(8), types.NewStringDatum("new"),
		types.NewTimeDatum(types.FromGoTime(fixedNow.Add(1e9), mysql.TypeDatetime, 0)), types.NewIntDatum(9)}})

	decodeAll := func(tbl *TableInfo) []string {
		start, end := tbl.RecordRange()
		keys, values := scan(t, begin, start, end)
		var out []string
		for i := range keys {
			_, h, err := codec.DecodeRecordKey(keys[i])
			if err != nil {
				t.Fatal(err)
			}
			row, err := tbl.DecodeRecord(h, values[i])
			if err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(row))
			for j := range row {
				parts[j] = row[j].String()
			}
			out = append(out, strings.Join(parts, ","))
		}
		return out
	}
	got := strings.Join(decodeAll(tbl), "\n")
	want := "1.50,1,10,7,,2024-05-06 07:08:09,NULL\n" +
		"1.50,2,NULL,7,,2024-05-06 07:08:09,NULL\n" +
		"2.25,3,30,8,new,2024-05-06 07:08:10,9"
	if got != want {
		t.Fatalf("rows after ADD COLUMN:\n%s\nwant:\n%s", got, want)
	}
	// New rows written without z get CURRENT_TIMESTAMP of their insert.
	now := fixedNow.Add(3600e9)
	if d, ok := tbl.Column("z").GetDefault(now); !ok || d.String() != "2024-05-06 08:08:09" {
		t.Fatalf("default of z: %v %v", d, ok)
	}
	if _, ok := tbl.Column("y").GetDefault(now); ok {
		t.Fatal("NOT NULL column without default has a default")
	}
	// Dropping a column leaves old rows decodable.
	mustExec(t, c, "ALTER TABLE c DROP COLUMN a")
	tbl = mustTable(t, c, "c")
	got = strings.Join(decodeAll(tbl), "\n")
	want = "1.50,1,7,,2024-05-06 07:08:09,NULL\n" +
		"1.50,2,7,,2024-05-06 07:08:09,NULL\n" +
		"2.25,3,8,new,2024-05-06 07:08:10,9"
	if got != want {
		t.Fatalf("rows after DROP COLUMN:\n%s\nwant:\n%s", got, want)
	}
}
