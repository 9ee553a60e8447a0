package exec

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSortIntKeys checks ORDER BY over int keys (the inline-key path)
// against a reference sort: NULLs first ascending and last descending,
// ties in arrival order (the primary key, as the scan reads it), for one
// and two keys and for a mix that leaves the int path (a string key);
// and a TopN's window of the same order.
func TestSortIntKeys(t *testing.T) {
	cat, begin := newTestCatalogBegin(t)
	ddl(t, cat, "CREATE TABLE s (id INT PRIMARY KEY, a INT, b BIGINT, c VARCHAR(5))")
	type row struct {
		id   int
		a, b *int
		c    string
	}
	rng := rand.New(rand.NewSource(1))
	var rows []row
	var vals []string
	opt := func() (*int, string) {
		if rng.Intn(5) == 0 {
			return nil, "NULL"
		}
		v := rng.Intn(7) - 3
		return &v, fmt.Sprint(v)
	}
	for i := 1; i <= 300; i++ {
		a, as := opt()
		b, bs := opt()
		c := fmt.Sprint(rng.Intn(3))
		rows = append(rows, row{i, a, b, c})
		vals = append(vals, fmt.Sprintf("(%d, %s, %s, '%s')", i, as, bs, c))
	}
	runLine(t, cat, begin, "INSERT INTO s VALUES "+strings.Join(vals, ","), true)
	cmpOpt := func(x, y *int) int {
		switch {
		case x == nil && y == nil:
			return 0
		case x == nil:
			return -1
		case y == nil:
			return 1
		}
		return cmp.Compare(*x, *y)
	}
	show := func(p *int) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	for _, tc := range []struct {
		order string
		less  func(x, y row) int
	}{
		{"a", func(x, y row) int { return cmpOpt(x.a, y.a) }},
		{"a DESC", func(x, y row) int { return -cmpOpt(x.a, y.a) }},
		{"a, b DESC", func(x, y row) int { return cmp.Or(cmpOpt(x.a, y.a), -cmpOpt(x.b, y.b)) }},
		{"b DESC, a", func(x, y row) int { return cmp.Or(-cmpOpt(x.b, y.b), cmpOpt(x.a, y.a)) }},
		{"c, a", func(x, y row) int { return cmp.Or(strings.Compare(x.c, y.c), cmpOpt(x.a, y.a)) }},
	} {
		want := slices.Clone(rows)
		slices.SortStableFunc(want, tc.less)
		var sb, top strings.Builder
		for i, r := range want {
			line := fmt.Sprintf("%d %s %s %s\n", r.id, show(r.a), show(r.b), r.c)
			sb.WriteString(line)
			if i >= 5 && i < 25 {
				top.WriteString(line)
			}
		}
		if got := runLine(t, cat, begin, "SELECT id, a, b, c FROM s ORDER BY "+tc.order, true); got != sb.String() {
			t.Errorf("ORDER BY %s:\n%s\nwant\n%s", tc.order, got, sb.String())
		}
		// A small TopN (a heap) keeps the ties in arrival order too.
		if got := runLine(t, cat, begin, "SELECT id, a, b, c FROM s ORDER BY "+tc.order+" LIMIT 20 OFFSET 5", true); got != top.String() {
			t.Errorf("ORDER BY %s LIMIT 20 OFFSET 5:\n%s\nwant\n%s", tc.order, got, top.String())
		}
	}
}
