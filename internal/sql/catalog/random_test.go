package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"testing"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// TestRandomDDLAndDML runs random DDL (add/drop index, unique or not;
// add/drop column) mixed with row inserts, updates and deletes, and after
// every step checks that each index holds exactly the entries its rows
// call for: the invariant ADD INDEX backfill, DROP INDEX, DROP COLUMN and
// the DML helpers must keep together.
func TestRandomDDLAndDML(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	rng := rand.New(rand.NewSource(1))
	mustExec(t, c, "CREATE TABLE r (id INT PRIMARY KEY, c0 INT)")
	nextCol, nextIdx, nextID := 1, 0, int64(1)
	var ddls, dmls, dups int
	for step := 0; step < 150; step++ {
		tbl := mustTable(t, c, "r")
		switch op := rng.Intn(10); {
		case op < 5: // DML
			dmls++
			txn, err := begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rows := loadRows(t, begin, tbl)
			switch {
			case op < 3 || len(rows) == 0:
				row := randomRow(rng, tbl, nextID)
				err = tbl.AddRecord(ctx, txn, nextID, row)
				nextID++
			case op == 3:
				h := pick(rng, rows)
				nr := randomRow(rng, tbl, h)
				err = tbl.UpdateRecord(ctx, txn, h, rows[h], nr)
			default:
				h := pick(rng, rows)
				err = tbl.RemoveRecord(txn, h, rows[h])
			}
			if isDup(err) {
				dups++
				_ = txn.Rollback()
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := txn.Commit(ctx); err != nil {
				t.Fatal(err)
			}
		default: // DDL
			ddls++
			var sql string
			cols := nonPKColumns(tbl)
			switch rng.Intn(4) {
			case 0:
				sql = fmt.Sprintf("ALTER TABLE r ADD COLUMN c%d INT DEFAULT %d", nextCol, rng.Intn(3))
				nextCol++
			case 1:
				if len(cols) < 2 {
					continue
				}
				sql = "ALTER TABLE r DROP COLUMN " + cols[rng.Intn(len(cols))]
			case 2:
				if len(cols) == 0 {
					continue
				}
				kind := "INDEX"
				if rng.Intn(2) == 0 {
					kind = "UNIQUE INDEX"
				}
				a, b := cols[rng.Intn(len(cols))], cols[rng.Intn(len(cols))]
				on := a
				if a != b {
					on = a + ", " + b
				}
				sql = fmt.Sprintf("CREATE %s i%d ON r (%s)", kind, nextIdx, on)
				nextIdx++
			default:
				if len(tbl.Indices) == 0 {
					continue
				}
				sql = "DROP INDEX " + tbl.Indices[rng.Intn(len(tbl.Indices))].Name + " ON r"
			}
			err := execSQL(t, c, sql)
			if isDup(err) {
				dups++
			} else if err != nil && !isNotSupported(err) {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		checkIndexes(t, begin, mustTable(t, c, "r"), step)
	}
	t.Logf("%d DDL, %d DML, %d duplicate errors; %d columns, %d indexes at the end",
		ddls, dmls, dups, len(mustTable(t, c, "r").Columns), len(mustTable(t, c, "r").Indices))
}

func isDup(err error) bool {
	var e *sqlerr.Error
	return errors.As(err, &e) && e.Code == sqlerr.ErrDupEntry
}

func isNotSupported(err error) bool {
	var e *sqlerr.Error
	return errors.As(err, &e) && e.Code == sqlerr.ErrNotSupportedYet
}

func nonPKColumns(t *TableInfo) []string {
	var out []string
	for _, c := range t.Columns {
		if !c.InPrimaryKey() {
			out = append(out, c.Name)
		}
	}
	return out
}

// randomRow returns a row with small values (duplicates are likely) and
// some NULLs.
func randomRow(rng *rand.Rand, t *TableInfo, h int64) []types.Datum {
	row := make([]types.Datum, len(t.Columns))
	for i, c := range t.Columns {
		switch {
		case c.InPrimaryKey():
			row[i] = types.NewIntDatum(h)
		case rng.Intn(8) == 0:
			row[i] = types.NewNullDatum()
		default:
			row[i] = types.NewIntDatum(int64(rng.Intn(12)))
		}
	}
	return row
}

func pick(rng *rand.Rand, rows map[int64][]types.Datum) int64 {
	hs := make([]int64, 0, len(rows))
	for h := range rows {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i] < hs[j] })
	return hs[rng.Intn(len(hs))]
}

func loadRows(t *testing.T, begin BeginFunc, tbl *TableInfo) map[int64][]types.Datum {
	t.Helper()
	start, end := tbl.RecordRange()
	keys, values := scan(t, begin, start, end)
	rows := make(map[int64][]types.Datum, len(keys))
	for i := range keys {
		_, h, err := codec.DecodeRecordKey(keys[i])
		if err != nil {
			t.Fatal(err)
		}
		row, err := tbl.DecodeRecord(h, values[i])
		if err != nil {
			t.Fatal(err)
		}
		rows[h] = cloneRow(row)
	}
	return rows
}

// checkIndexes compares every index's entries with those its rows call
// for, and checks that no entries of dropped indexes remain.
func checkIndexes(t *testing.T, begin BeginFunc, tbl *TableInfo, step int) {
	t.Helper()
	rows := loadRows(t, begin, tbl)
	live := map[int64]bool{}
	for _, idx := range tbl.Indices {
		live[idx.ID] = true
		want := map[string]string{}
		for h, row := range rows {
			k, distinct := tbl.IndexKey(idx, row, h)
			want[string(k)] = string(IndexValue(h, distinct))
		}
		start, end := tbl.IndexRange(idx)
		keys, values := scan(t, begin, start, end)
		if len(keys) != len(want) {
			t.Fatalf("step %d: index %s has %d entries for %d rows", step, idx.Name, len(keys), len(rows))
		}
		for i := range keys {
			if v, ok := want[string(keys[i])]; !ok || v != string(values[i]) {
				t.Fatalf("step %d: index %s has a stray entry %x", step, idx.Name, keys[i])
			}
		}
	}
	for id := int64(1); id <= tbl.MaxIndexID; id++ {
		if !live[id] {
			if n := countPrefix(t, begin, codec.IndexPrefix(tbl.ID, id)); n != 0 {
				t.Fatalf("step %d: dropped index %d left %d entries", step, id, n)
			}
		}
	}
}
