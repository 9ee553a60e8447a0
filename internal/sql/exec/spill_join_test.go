package exec

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestSpillHashJoin(t *testing.T) {
	cat, begin := spillTable(t, 3000, 3)
	checkSpills(t, cat, begin, []string{
		"SELECT s.id, r.id, s.b, r.b FROM s JOIN r ON s.a = r.a",
		"SELECT s.id, r.id FROM s JOIN r ON s.a = r.a AND s.b = r.b",
		"SELECT s.id, r.id, r.b FROM s LEFT JOIN r ON s.a = r.a AND r.b < s.b",
		"SELECT r.id, s.id FROM r LEFT JOIN s ON s.a = r.a",
		"SELECT r.id, s.id, s.b FROM r JOIN s ON s.a = r.a AND s.b > r.b WHERE r.id < 1400", // builds the left side (estimated smaller)
		"SELECT id FROM s WHERE a IN (SELECT a FROM r)",
		"SELECT id FROM s WHERE EXISTS (SELECT 1 FROM r WHERE r.a = s.a AND r.b <> s.b)",
		"SELECT id FROM s WHERE a NOT IN (SELECT a FROM r WHERE b <> 'aa')",
		"SELECT id, a IN (SELECT a FROM r WHERE b > 'b') FROM s",
		"SELECT id, a NOT IN (SELECT a FROM r) FROM s",
	}, []int64{4 << 10, 24 << 10}, false)
	// A semi join decided by its keys alone keeps one build row per key
	// (about 650 of r's 1500 rows): it spills under 4 KiB, and fits in
	// 24 KiB, where the same join with a condition between the rows
	// spills.
	keysOnly := []string{
		"SELECT id FROM s WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.a = s.a)",
		"SELECT id FROM s WHERE a NOT IN (SELECT a FROM r WHERE a IS NOT NULL)",
		"SELECT id, a NOT IN (SELECT a FROM r WHERE a IS NOT NULL) FROM s",
	}
	checkSpills(t, cat, begin, keysOnly, []int64{4 << 10}, false)
	for _, q := range keysOnly {
		want := queryQuota(t, cat, begin, q, 0)
		got := queryQuota(t, cat, begin, q, 24<<10)
		slices.Sort(want.rows)
		slices.Sort(got.rows)
		if got.err != nil || got.spilled != 0 || !slices.Equal(got.rows, want.rows) {
			t.Errorf("%s under 24 KiB: err %v, spilled %d, %d rows (want %d)", q, got.err, got.spilled, len(got.rows), len(want.rows))
		}
	}
	if res := queryQuota(t, cat, begin, "SELECT id FROM s WHERE NOT EXISTS (SELECT 1 FROM r WHERE r.a = s.a AND r.id <> s.id)", 24<<10); res.err != nil || res.spilled == 0 {
		t.Errorf("a semi join with a condition between the rows under 24 KiB: err %v, spilled %d", res.err, res.spilled)
	}
	// Without keys a join cannot partition: 8175.
	res := queryQuota(t, cat, begin, "SELECT COUNT(*) FROM s JOIN r ON s.a < r.a", 4<<10)
	if !isQuotaErr(res.err) {
		t.Fatalf("a join without keys over the quota: %v", res.err)
	}
}

// TestIndexJoinMatchesHashJoin: an index join reading its outer side in
// many chunks (batches of lookups) returns the hash join's rows.
func TestIndexJoinMatchesHashJoin(t *testing.T) {
	cat, begin := spillTable(t, 3000, 4)
	for _, q := range []string{
		"SELECT /*+ %s(s) */ r.id, s.id, s.b FROM r JOIN s ON s.id = r.a",
		"SELECT /*+ %s(s) */ r.id, s.id FROM r LEFT JOIN s ON s.id = r.a AND s.b > r.b",
		"SELECT /*+ %s(s) */ r.id FROM r WHERE EXISTS (SELECT 1 FROM s WHERE s.id = r.a AND s.c > 0)",
	} {
		idx := queryQuota(t, cat, begin, fmt.Sprintf(q, "INL_JOIN"), 0)
		hash := queryQuota(t, cat, begin, fmt.Sprintf(q, "HASH_JOIN"), 0)
		if idx.err != nil || hash.err != nil {
			t.Fatalf("%s: %v / %v", q, idx.err, hash.err)
		}
		if !strings.Contains(explain(t, cat, fmt.Sprintf(q, "INL_JOIN")), "IndexJoin") {
			t.Fatalf("%s: not an index join:\n%s", q, explain(t, cat, fmt.Sprintf(q, "INL_JOIN")))
		}
		slices.Sort(idx.rows)
		slices.Sort(hash.rows)
		if len(idx.rows) < 100 || !slices.Equal(idx.rows, hash.rows) {
			t.Errorf("%s: index join %d rows, hash join %d", q, len(idx.rows), len(hash.rows))
		}
	}
}
