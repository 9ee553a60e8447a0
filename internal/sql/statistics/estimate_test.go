package statistics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// testTable is t(a <type of a>, b VARCHAR(32)) with index ia(a) and
// iab(a, b).
func testTable(aType byte) *catalog.TableInfo {
	ft := func(tp byte) types.FieldType {
		f := types.NewFieldType(tp)
		if tp == mysql.TypeVarchar {
			f.Flen = 32
		}
		return *f
	}
	return &catalog.TableInfo{ID: 42, Name: "t",
		Columns: []*catalog.ColumnInfo{
			{ID: 1, Name: "a", Offset: 0, FieldType: ft(aType)},
			{ID: 2, Name: "b", Offset: 1, FieldType: ft(mysql.TypeVarchar)},
		},
		Indices: []*catalog.IndexInfo{
			{ID: 1, Name: "ia", Columns: []*catalog.IndexColumn{{Name: "a", Offset: 0, Length: -1}}},
			{ID: 2, Name: "iab", Columns: []*catalog.IndexColumn{{Name: "a", Offset: 0, Length: -1}, {Name: "b", Offset: 1, Length: -1}}},
		},
	}
}

// build collects rows made by gen and returns the table's statistics
// as analyzed, with the exact answers to check against.
func build(t *testing.T, tbl *catalog.TableInfo, n int, opts Options, gen func(i int) []types.Datum) (*Table, [][]types.Datum) {
	t.Helper()
	c := NewCollector(tbl, opts)
	rows := make([][]types.Datum, n)
	for i := range rows {
		rows[i] = gen(i)
		c.Add(rows[i])
	}
	st := c.Finish()
	st.Meta.Version = 1
	return st, rows
}

// within fails unless got is within rel (relative) or abs of want.
func within(t *testing.T, what string, got, want, rel, abs float64) {
	t.Helper()
	if d := math.Abs(got - want); d > abs && d > rel*want {
		t.Errorf("%s = %.1f, want %.1f (±%.0f%% or ±%.1f)", what, got, want, rel*100, abs)
	}
}

func count(rows [][]types.Datum, pred func(r []types.Datum) bool) float64 {
	n := 0
	for _, r := range rows {
		if pred(r) {
			n++
		}
	}
	return float64(n)
}

func ints(v int64) types.Datum { return types.NewIntDatum(v) }

func TestUniform(t *testing.T) {
	const n = 100000
	st, rows := build(t, testTable(mysql.TypeLonglong), n, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(int64(i % 1000)), types.NewStringDatum(fmt.Sprintf("v%d", i%7))}
	})
	a := st.Column(1)
	if a.Pseudo() || st.Pseudo() {
		t.Fatal("analyzed stats are pseudo")
	}
	within(t, "RowCount", st.RowCount(), n, 0, 0)
	within(t, "NDV(a)", a.NDV(), 1000, 0.02, 0)
	within(t, "NDV(b)", st.Column(2).NDV(), 7, 0, 0)
	for _, v := range []int64{0, 1, 500, 998, 999} {
		within(t, fmt.Sprintf("EqualRows(a=%d)", v), a.EqualRows(ints(v)), 100, 0.35, 0)
	}
	within(t, "EqualRows(a=5000)", a.EqualRows(ints(5000)), 0, 0, 100)
	for _, r := range [][2]int64{{100, 200}, {0, 10}, {0, 999}, {990, 2000}, {-50, 20}} {
		lo, hi := r[0], r[1]
		want := count(rows, func(x []types.Datum) bool { return x[0].GetInt64() >= lo && x[0].GetInt64() < hi })
		got := a.RangeRows(Inclusive(ints(lo)), Exclusive(ints(hi)))
		within(t, fmt.Sprintf("RangeRows(%d <= a < %d)", lo, hi), got, want, 0.1, 300)
	}
	within(t, "RangeRows(a > 900)", a.RangeRows(Exclusive(ints(900)), Unbounded()), 9900, 0.1, 0)
	within(t, "RangeRows(a <= 99)", a.RangeRows(Unbounded(), Inclusive(ints(99))), 10000, 0.1, 0)
	// A value of another type converts to the column's.
	within(t, "EqualRows(a='500')", a.EqualRows(types.NewStringDatum("500")), 100, 0.35, 0)
	within(t, "RangeRows(a < 99.5)", a.RangeRows(Unbounded(), Exclusive(types.NewFloat64Datum(99.5))), 10000, 0.1, 0)
}

func TestSkewed(t *testing.T) {
	const n = 50000
	rng := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(rand.New(rand.NewPCG(3, 4)), 1.2, 1, 9999)
	st, rows := build(t, testTable(mysql.TypeLonglong), n, DefaultOptions(), func(i int) []types.Datum {
		v := int64(zipf.Uint64())
		if rng.IntN(2) == 0 {
			v = 7 // half of the rows
		}
		return []types.Datum{ints(v), types.NewStringDatum("x")}
	})
	a := st.Column(1)
	for _, v := range []int64{7, 0, 1, 2, 3} {
		want := count(rows, func(x []types.Datum) bool { return x[0].GetInt64() == v })
		within(t, fmt.Sprintf("EqualRows(a=%d)", v), a.EqualRows(ints(v)), want, 0.15, 0)
	}
	// The long tail: rare values are estimated small.
	for _, v := range []int64{500, 3000, 9000} {
		want := count(rows, func(x []types.Datum) bool { return x[0].GetInt64() == v })
		within(t, fmt.Sprintf("EqualRows(a=%d)", v), a.EqualRows(ints(v)), want, 0, 10)
	}
	want := count(rows, func(x []types.Datum) bool { return x[0].GetInt64() >= 100 })
	within(t, "RangeRows(a >= 100)", a.RangeRows(Inclusive(ints(100)), Unbounded()), want, 0.15, 200)
}

func TestDuplicatesAndNulls(t *testing.T) {
	// Fewer rows than the sample: exact answers.
	st, rows := build(t, testTable(mysql.TypeLonglong), 3000, DefaultOptions(), func(i int) []types.Datum {
		a := types.NewNullDatum()
		if i%10 >= 3 { // 30% NULL
			a = ints(int64(i % 3))
		}
		return []types.Datum{a, types.NewStringDatum("s")}
	})
	a := st.Column(1)
	nulls := count(rows, func(x []types.Datum) bool { return x[0].IsNull() })
	within(t, "NullRows", a.NullRows(), nulls, 0, 0)
	within(t, "EqualRows(NULL)", a.EqualRows(types.NewNullDatum()), nulls, 0, 0)
	within(t, "NDV", a.NDV(), 3, 0, 0)
	for v := int64(0); v < 3; v++ {
		want := count(rows, func(x []types.Datum) bool { return !x[0].IsNull() && x[0].GetInt64() == v })
		within(t, fmt.Sprintf("EqualRows(a=%d)", v), a.EqualRows(ints(v)), want, 0, 0)
	}
	within(t, "EqualRows(a=3)", a.EqualRows(ints(3)), 0, 0, 0)
	// Ranges never count NULLs.
	within(t, "RangeRows(all)", a.RangeRows(Unbounded(), Unbounded()), 3000-nulls, 0, 0)
	within(t, "RangeRows(a < 1)", a.RangeRows(Unbounded(), Exclusive(ints(1))), 700, 0, 0)
	// The index counts NULL entries; its NDV includes NULL.
	ia := st.Index(1)
	within(t, "index NullRows", ia.NullRows(), nulls, 0, 0)
	within(t, "index NDV", ia.NDV(), 4, 0, 0)
	within(t, "index EqualRows(NULL)", ia.EqualRows(types.NewNullDatum()), nulls, 0, 0)
	within(t, "index RangeRows(all)", ia.RangeRows(Unbounded(), Unbounded()), 3000-nulls, 0, 0)
}

func TestStrings(t *testing.T) {
	const n = 40000
	tbl := testTable(mysql.TypeLonglong)
	st, rows := build(t, tbl, n, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(int64(i % 40)), types.NewStringDatum(fmt.Sprintf("user%05d", i))}
	})
	b := st.Column(2)
	within(t, "NDV(b)", b.NDV(), n, 0.02, 0)
	within(t, "EqualRows(b='user00123')", b.EqualRows(types.NewStringDatum("user00123")), 1, 0, 2)
	str := types.NewStringDatum
	for _, r := range [][2]string{{"user00100", "user00200"}, {"user1", "user2"}, {"user0", "user3"}, {"a", "user005"}} {
		lo, hi := r[0], r[1]
		want := count(rows, func(x []types.Datum) bool { s := x[1].GetString(); return s >= lo && s < hi })
		within(t, fmt.Sprintf("RangeRows(%q <= b < %q)", lo, hi), b.RangeRows(Inclusive(str(lo)), Exclusive(str(hi))), want, 0.15, 300)
	}
	// Index (a, b): equality on a prefix, on all columns, and a range on b
	// under an equality on a.
	iab := st.Index(2)
	within(t, "iab EqualRows(a=3)", iab.EqualRows(ints(3)), n/40, 0.15, 0)
	within(t, "iab EqualRows(a=3, b=user00003)", iab.EqualRows(ints(3), str("user00003")), 1, 0, 2)
	want := count(rows, func(x []types.Datum) bool { return x[0].GetInt64() == 3 && x[1].GetString() < "user10000" })
	within(t, "iab RangeRows(a=3, b<user10000)", iab.RangeRows(Inclusive(ints(3)), Exclusive(ints(3), str("user10000"))), want, 0.3, 100)
	within(t, "iab RangeRows(a in [3,5])", iab.RangeRows(Inclusive(ints(3)), Inclusive(ints(5))), 3*n/40, 0.15, 0)
}

func TestLongStrings(t *testing.T) {
	long := func(i int) string {
		b := make([]byte, 1000)
		for j := range b {
			b[j] = 'x'
		}
		return string(b) + fmt.Sprint(i%3)
	}
	st, _ := build(t, testTable(mysql.TypeLonglong), 300, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(1), types.NewStringDatum(long(i))}
	})
	b := st.Column(2)
	// Distinct counts see whole values; the kept values are cut, so
	// values that differ past MaxValueLen share their statistics.
	within(t, "NDV", b.NDV(), 3, 0, 0)
	within(t, "EqualRows(long)", b.EqualRows(types.NewStringDatum(long(0))), 300, 0, 0)
	for _, x := range st.Columns[2].TopN {
		if len(x.Value) > MaxValueLen*9/8+10 { // 8-byte groups of 9, a flag
			t.Fatalf("TopN value of %d bytes kept", len(x.Value))
		}
	}
}

func TestUniqueAndScale(t *testing.T) {
	tbl := testTable(mysql.TypeLonglong)
	tbl.Indices[0].Unique = true
	st, _ := build(t, tbl, 1000, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(int64(i)), types.NewStringDatum("b")}
	})
	within(t, "unique EqualRows", st.Index(1).EqualRows(ints(10)), 1, 0, 0)
	// The table doubled since: estimates scale with it.
	st.Meta.Delta, st.Meta.ModifyCount = 1000, 1000
	within(t, "RowCount", st.RowCount(), 2000, 0, 0)
	within(t, "RangeRows(a < 100)", st.Column(1).RangeRows(Unbounded(), Exclusive(ints(100))), 200, 0, 0)
	within(t, "unique EqualRows after growth", st.Index(1).EqualRows(ints(10)), 1, 0, 0)
	// Values the ANALYZE never saw may exist after writes.
	if got := st.Column(1).EqualRows(ints(5000)); got <= 0 {
		t.Errorf("EqualRows of a new value after writes = %v, want > 0", got)
	}
}

func TestPseudo(t *testing.T) {
	var nilTable *Table
	if !nilTable.Pseudo() || nilTable.RowCount() != PseudoRowCount {
		t.Fatalf("nil table: pseudo %v rows %v", nilTable.Pseudo(), nilTable.RowCount())
	}
	c := nilTable.Column(1)
	if !c.Pseudo() {
		t.Fatal("column of a nil table not pseudo")
	}
	within(t, "EqualRows", c.EqualRows(ints(1)), 10, 0, 0)
	within(t, "RangeRows(<)", c.RangeRows(Unbounded(), Exclusive(ints(1))), 10000.0/3, 0, 0.01)
	within(t, "RangeRows(between)", c.RangeRows(Inclusive(ints(1)), Inclusive(ints(5))), 250, 0, 0)
	within(t, "NullRows", c.NullRows(), 10, 0, 0)
	// Never analyzed but written: the counted rows, pseudo rates.
	st := &Table{ID: 1, Meta: Meta{Delta: 300, ModifyCount: 300}}
	if !st.Pseudo() || st.RowCount() != 300 {
		t.Fatalf("written table: pseudo %v rows %v", st.Pseudo(), st.RowCount())
	}
	within(t, "EqualRows", st.Index(9).EqualRows(ints(1)), 0.3, 0, 0)
	// A column added after the ANALYZE has no statistics.
	an, _ := build(t, testTable(mysql.TypeLonglong), 10, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(int64(i)), types.NewStringDatum("b")}
	})
	if !an.Column(3).Pseudo() || an.Column(1).Pseudo() {
		t.Fatal("pseudo flags of analyzed / unknown columns")
	}
}

func TestSketch(t *testing.T) {
	for _, n := range []int{0, 1, 100, exactLimit, exactLimit + 1, 50000, 1000000} {
		s := newSketch()
		for i := 0; i < n; i++ {
			s.add(hashBytes([]byte(fmt.Sprint(i))))
			s.add(hashBytes([]byte(fmt.Sprint(i)))) // duplicates do not count
		}
		within(t, fmt.Sprintf("sketch of %d", n), float64(s.count()), float64(n), 0.02, 0)
	}
}

func TestBucketsBounded(t *testing.T) {
	opts := DefaultOptions()
	opts.Buckets = 16
	st, _ := build(t, testTable(mysql.TypeLonglong), 20000, opts, func(i int) []types.Datum {
		return []types.Datum{ints(int64(i)), types.NewStringDatum("b")}
	})
	h := st.Columns[1]
	if len(h.Buckets) > 16 || len(h.Buckets) < 15 {
		t.Fatalf("%d buckets, want 15..16", len(h.Buckets))
	}
	var total int64
	for i, b := range h.Buckets {
		total += b.Count
		if i > 0 && string(h.Buckets[i-1].Upper) >= string(b.Lower) {
			t.Fatalf("bucket %d overlaps the previous one", i)
		}
	}
	within(t, "bucket rows", float64(total), 20000, 0.001, 0)
}

func TestCaseInsensitiveCollation(t *testing.T) {
	tbl := testTable(mysql.TypeLonglong)
	tbl.Columns[1].FieldType.Charset, tbl.Columns[1].FieldType.Collate = "utf8mb4", "utf8mb4_general_ci"
	words := []string{"abc", "ABC", "Abc", "xyz"}
	st, _ := build(t, tbl, 400, DefaultOptions(), func(i int) []types.Datum {
		return []types.Datum{ints(int64(i)), types.NewStringDatum(words[i%4])}
	})
	b := st.Column(2)
	// 'abc' = 'ABC' under utf8mb4_general_ci: one value of 300 rows.
	within(t, "NDV", b.NDV(), 2, 0, 0)
	within(t, "EqualRows('aBC')", b.EqualRows(types.NewStringDatum("aBC")), 300, 0, 0)
	within(t, "iab EqualRows(1, 'ABC')", st.Index(2).EqualRows(ints(1), types.NewStringDatum("ABC")), 1, 0, 0)
}
