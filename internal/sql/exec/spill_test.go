package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/sql/catalog"
)

// quotaResult is a query's rows under a memory quota and the bytes its
// operators spilled.
type quotaResult struct {
	rows    []string
	spilled int64
	err     error
}

// queryQuota runs a SELECT with a memory quota (<= 0: none).
func queryQuota(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), sql string, quota int64) quotaResult {
	t.Helper()
	ctx := context.Background()
	tc := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	p := planOf(t, cat, sql, tc)
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Rollback()
	ectx := &Context{Eval: tc, Txn: txn, Strict: true, ChunkSize: 64, Mem: NewRootTracker(quota, 1), Stats: NewRuntimeStats()}
	e, err := Build(ectx, p)
	if err != nil {
		t.Fatal(err)
	}
	var res quotaResult
	res.err = e.Open(ctx)
	if res.err == nil {
		res.rows, res.err = drainRows(ctx, e, 64)
	}
	if err := e.Close(); err != nil && res.err == nil {
		res.err = err
	}
	for _, st := range ectx.Stats.ops {
		res.spilled += st.Mem.Spilled()
	}
	if used := ectx.Mem.Used(); used != 0 {
		t.Errorf("%s: %d bytes still charged after Close", sql, used)
	}
	return res
}

// spillTable creates table s with n random rows of small domains (many
// duplicates and NULLs) and returns the test's catalog.
func spillTable(t *testing.T, n int, seed uint64) (*catalog.Catalog, func(context.Context) (kvTxn, error)) {
	cat, begin := newTestCatalogBegin(t)
	ddl(t, cat, "CREATE TABLE s (id INT PRIMARY KEY, a INT, b VARCHAR(20), c DECIMAL(10,2), d DATETIME(3), e DOUBLE)")
	ddl(t, cat, "CREATE TABLE r (id INT PRIMARY KEY, a INT, b VARCHAR(20))")
	rng := rand.New(rand.NewPCG(seed, 7))
	maybe := func(s string) string {
		if rng.IntN(8) == 0 {
			return "NULL"
		}
		return s
	}
	var vals, rvals []string
	for id := 1; id <= n; id++ {
		vals = append(vals, fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", id,
			maybe(fmt.Sprint(rng.IntN(n/4+1))),
			maybe(fmt.Sprintf("'%s'", strings.Repeat(string(rune('a'+rng.IntN(5))), 1+rng.IntN(15)))),
			maybe(fmt.Sprintf("%d.%02d", rng.IntN(100)-50, rng.IntN(100))),
			maybe(fmt.Sprintf("'2024-01-%02d 10:00:%02d.%03d'", 1+rng.IntN(28), rng.IntN(60), rng.IntN(1000))),
			maybe(fmt.Sprintf("%d.5e0", rng.IntN(1000)))))
		if id <= n/2 {
			rvals = append(rvals, fmt.Sprintf("(%d, %s, %s)", id,
				maybe(fmt.Sprint(rng.IntN(n/4+1))),
				maybe(fmt.Sprintf("'%s'", strings.Repeat(string(rune('a'+rng.IntN(5))), 1+rng.IntN(15))))))
		}
	}
	for len(vals) > 0 {
		k := min(len(vals), 500)
		exec1(t, cat, begin, "INSERT INTO s VALUES "+strings.Join(vals[:k], ","))
		vals = vals[k:]
	}
	for len(rvals) > 0 {
		k := min(len(rvals), 500)
		exec1(t, cat, begin, "INSERT INTO r VALUES "+strings.Join(rvals[:k], ","))
		rvals = rvals[k:]
	}
	return cat, begin
}

// checkSpill runs sql without a quota and with a tiny one: the second
// must spill and return the same rows (in the same order when ordered,
// else as a multiset).
func checkSpill(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), sql string, quota int64, ordered bool) {
	t.Helper()
	want := queryQuota(t, cat, begin, sql, 0)
	if want.err != nil {
		t.Fatalf("%s: %v", sql, want.err)
	}
	got := queryQuota(t, cat, begin, sql, quota)
	if got.err != nil {
		t.Fatalf("%s under %d bytes: %v", sql, quota, got.err)
	}
	if got.spilled == 0 {
		t.Errorf("%s under %d bytes did not spill", sql, quota)
	}
	if !ordered {
		slices.Sort(want.rows)
		slices.Sort(got.rows)
	}
	if !slices.Equal(want.rows, got.rows) {
		t.Errorf("%s under %d bytes: %d rows differ from the %d in memory", sql, quota, len(got.rows), len(want.rows))
		for i := 0; i < min(len(want.rows), len(got.rows)); i++ {
			if want.rows[i] != got.rows[i] {
				t.Errorf("first difference at %d: %q vs %q", i, got.rows[i], want.rows[i])
				break
			}
		}
	}
}

// checkSpills is checkSpill of every query under every quota.
func checkSpills(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), queries []string, quotas []int64, ordered bool) {
	t.Helper()
	for _, q := range queries {
		for _, quota := range quotas {
			checkSpill(t, cat, begin, q, quota, ordered)
		}
	}
}

// isQuotaErr reports whether err is the 8175 quota error.
func isQuotaErr(err error) bool {
	return err != nil && strings.Contains(errText(err), fmt.Sprint(ErrMemQuotaExceeded))
}

func TestSpillSort(t *testing.T) {
	cat, begin := spillTable(t, 3000, 1)
	checkSpills(t, cat, begin, []string{
		"SELECT * FROM s ORDER BY a, id",
		"SELECT * FROM s ORDER BY b DESC, c", // ties: stable order kept
		"SELECT a, d FROM s ORDER BY d, e DESC",
		"SELECT * FROM s ORDER BY c DESC LIMIT 100000 OFFSET 7",
	}, []int64{8 << 10, 64 << 10}, true)
	// A small TopN keeps only offset+count rows: it needs no spill.
	res := queryQuota(t, cat, begin, "SELECT * FROM s ORDER BY e, id LIMIT 5 OFFSET 10", 16<<10)
	want := queryQuota(t, cat, begin, "SELECT * FROM s ORDER BY e, id", 0)
	if res.err != nil || !slices.Equal(res.rows, want.rows[10:15]) {
		t.Fatalf("TopN under a small quota: %v %v", res.err, res.rows)
	}
}
