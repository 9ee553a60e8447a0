package catalog

import (
	"context"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

func TestRecordWrites(t *testing.T) {
	ctx := context.Background()
	c, begin := newTestCatalog(t)
	mustExec(t, c, "CREATE TABLE r (id INT PRIMARY KEY, u INT, k INT, UNIQUE KEY uu (u), KEY ik (k))")
	r := mustTable(t, c, "r")
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 3; i++ {
		if err := r.AddRecord(ctx, txn, i, intRow(i, i*10, i%2)); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, r.AddRecord(ctx, txn, 2, intRow(2, 99, 0)), mysql.ErrDupEntry)
	err = r.AddRecord(ctx, txn, 4, intRow(4, 20, 0))
	wantCode(t, err, mysql.ErrDupEntry)
	if err.Error() != "ERROR 1062 (23000): Duplicate entry '20' for key 'r.uu'" {
		t.Fatalf("message %v", err)
	}
	// NULLs in a unique index never collide.
	for h := int64(5); h <= 6; h++ {
		if err := r.AddRecord(ctx, txn, h, []types.Datum{types.NewIntDatum(h), types.NewNullDatum(), types.NewIntDatum(1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	txn, _ = begin(ctx)
	wantCode(t, r.UpdateRecord(ctx, txn, 1, intRow(1, 10, 1), intRow(1, 30, 1)), mysql.ErrDupEntry)
	if k, _ := r.IndexKey(r.Index("uu"), intRow(1, 10, 1), 1); func() error { _, err := txn.Get(ctx, k); return err }() != nil {
		t.Fatal("a failed update deleted the old unique entry")
	}
	if err := r.UpdateRecord(ctx, txn, 1, intRow(1, 10, 1), intRow(1, 40, 0)); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveRecord(txn, 3, intRow(3, 30, 1)); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// Rows 1 (40, 0), 2 (20, 0), 5 and 6 (NULL, 1) remain.
	if got := countPrefix(t, begin, r.indexPrefix(r.Index("uu").ID)); got != 4 {
		t.Fatalf("uu has %d entries", got)
	}
	if hs := indexHandles(t, begin, r, r.Index("ik")); len(hs) != 4 || hs[0] != 1 || hs[1] != 2 {
		t.Fatalf("ik handles %v", hs)
	}
	start, end := r.RecordRange()
	if keys, _ := scan(t, begin, start, end); len(keys) != 4 {
		t.Fatalf("%d rows", len(keys))
	}
}
