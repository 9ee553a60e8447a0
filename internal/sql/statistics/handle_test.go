package statistics

import (
	"context"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/testutil/localkv"
	"github.com/strata-db/strata/internal/types"
)

type beginFunc = func(ctx context.Context) (kv.Transaction, error)

func newBegin(t *testing.T) beginFunc {
	return localkv.Start(t, txnclient.Options{AsyncCommit: true, OnePC: true}).Begin
}

// writeRows stores n rows of tbl (a = i % 10, b = 'b'), handles 1..n.
func writeRows(t *testing.T, begin beginFunc, tbl *catalog.TableInfo, n int) {
	t.Helper()
	ctx := context.Background()
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		k, v := tbl.EncodeRecord(int64(i), []types.Datum{types.NewIntDatum(int64(i % 10)), types.NewStringDatum("b")})
		if err := txn.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestHandleAnalyzeAndRefresh(t *testing.T) {
	ctx := context.Background()
	begin := newBegin(t)
	tbl := testTable(mysql.TypeLonglong)
	writeRows(t, begin, tbl, 500)
	clock := time.UnixMilli(1700000000000)
	h1 := NewHandle(begin, func() time.Time { return clock })
	h2 := NewHandle(begin, nil) // a second SQL server of the cluster

	// Writes counted before the ANALYZE are flushed, then reset by it.
	h1.Update(tbl.ID, Delta{Count: 500, Modify: 500})
	st, err := h1.AnalyzeTable(ctx, tbl, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if st.Meta.Count != 500 || st.Meta.ModifyCount != 0 || st.Meta.Delta != 0 || !st.Meta.Analyzed() {
		t.Fatalf("meta after ANALYZE: %+v", st.Meta)
	}
	if got := h1.Table(tbl.ID); got == nil || got.Meta.AnalyzeTime != clock.UnixMilli() {
		t.Fatalf("h1 cache: %+v", got)
	}
	if h2.Table(tbl.ID) != nil {
		t.Fatal("h2 has statistics before its refresh")
	}
	if err := h2.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	got := h2.Table(tbl.ID)
	if got == nil || got.Pseudo() || got.RowCount() != 500 {
		t.Fatalf("h2 after refresh: %+v", got)
	}
	within(t, "h2 EqualRows(a=3)", got.Column(1).EqualRows(types.NewIntDatum(3)), 50, 0, 0)
	within(t, "h2 index EqualRows(a=3)", got.Index(2).EqualRows(types.NewIntDatum(3)), 50, 0, 0)

	// h2's writes: visible to h2 at once, to h1 after h2's flush and h1's refresh.
	h2.Update(tbl.ID, Delta{Count: 100, Modify: 100})
	h2.Update(tbl.ID, Delta{Count: -10, Modify: 30})
	if m := h2.Table(tbl.ID).Meta; m.RealtimeCount() != 590 || m.ModifyCount != 130 {
		t.Fatalf("h2 pending: %+v", m)
	}
	if err := h2.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if m := h2.Table(tbl.ID).Meta; m.RealtimeCount() != 590 || m.ModifyCount != 130 {
		t.Fatalf("h2 after flush: %+v", m)
	}
	if err := h1.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	m := h1.Table(tbl.ID).Meta
	if m.RealtimeCount() != 590 || m.ModifyCount != 130 || m.Version != st.Meta.Version {
		t.Fatalf("h1 after refresh: %+v", m)
	}
	if h1.Table(tbl.ID).Columns[1] != st.Columns[1] {
		t.Fatal("refresh reloaded histograms whose version did not move")
	}
	// Scaled to the new size.
	within(t, "scaled RangeRows", h1.Table(tbl.ID).Column(1).RangeRows(Unbounded(), Unbounded()), 590, 0, 0)

	if err := h1.DropTable(ctx, tbl.ID); err != nil {
		t.Fatal(err)
	}
	if err := h2.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if h2.Table(tbl.ID) != nil {
		t.Fatal("statistics left after DropTable")
	}
}

func TestNeedsAnalyze(t *testing.T) {
	for _, c := range []struct {
		m     Meta
		ratio float64
		want  bool
	}{
		{Meta{Delta: 999, ModifyCount: 999}, 0.5, false},
		{Meta{Delta: 1000, ModifyCount: 1000}, 0.5, true},
		{Meta{Delta: 1000, ModifyCount: 1000}, 0, false},
		{Meta{Version: 1, Count: 2000, ModifyCount: 1000}, 0.5, false},
		{Meta{Version: 1, Count: 2000, ModifyCount: 1001}, 0.5, true},
		{Meta{Version: 1, Count: 500, Delta: 400, ModifyCount: 900}, 0.5, false}, // under 1000 rows
		{Meta{Version: 1, Count: 0, Delta: 1000, ModifyCount: 1000}, 0.5, true},
	} {
		if got := NeedsAnalyze(&Table{Meta: c.m}, c.ratio); got != c.want {
			t.Errorf("NeedsAnalyze(%+v, %v) = %v, want %v", c.m, c.ratio, got, c.want)
		}
	}
}

func TestAutoAnalyze(t *testing.T) {
	ctx := context.Background()
	begin := newBegin(t)
	tbl := testTable(mysql.TypeLonglong)
	writeRows(t, begin, tbl, 1200)
	h := NewHandle(begin, nil)
	tables := []*catalog.TableInfo{tbl}
	done := make(chan error, 1)
	report := func(_ *catalog.TableInfo, err error) { done <- err }
	if h.AutoAnalyze(ctx, tables, 0.5, report) {
		t.Fatal("auto analyze of a table without counted writes")
	}
	h.Update(tbl.ID, Delta{Count: 1200, Modify: 1200})
	if !h.AutoAnalyze(ctx, tables, 0.5, report) {
		t.Fatal("no auto analyze of a never-analyzed table of 1200 rows")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	st := h.Table(tbl.ID)
	if st.Pseudo() || st.Meta.Count != 1200 || st.Meta.ModifyCount != 0 {
		t.Fatalf("after auto analyze: %+v", st.Meta)
	}
	if h.AutoAnalyze(ctx, tables, 0.5, report) {
		t.Fatal("auto analyze right after an analyze")
	}
	h.Update(tbl.ID, Delta{Modify: 601})
	if !h.AutoAnalyze(ctx, tables, 0.5, report) {
		t.Fatal("no auto analyze after modifying half the rows")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
