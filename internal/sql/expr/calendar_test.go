package expr

import (
	"slices"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/types"
)

// The expected values are MySQL 8's (and MariaDB's, which shares the
// code).

func TestCalcWeek(t *testing.T) {
	for _, c := range []struct {
		y, m, d, mode, week int
		yearweek            bool
		wyear               int
	}{
		{2008, 2, 20, 0, 7, false, 0}, {2008, 2, 20, 1, 8, false, 0}, {2008, 12, 31, 1, 53, false, 0},
		{2000, 1, 1, 0, 0, false, 0}, {2000, 1, 1, 1, 0, false, 0}, {2000, 1, 1, 2, 52, false, 0},
		{2000, 1, 1, 3, 52, false, 0}, {2000, 1, 1, 4, 0, false, 0}, {2000, 1, 1, 5, 0, false, 0},
		{2000, 1, 1, 6, 52, false, 0}, {2000, 1, 1, 7, 52, false, 0}, {2008, 12, 29, 3, 1, false, 0},
		{2020, 12, 31, 2, 52, false, 0}, {2021, 1, 3, 3, 53, false, 0}, {1999, 12, 31, 4, 52, false, 0},
		{1987, 1, 1, 0, 52, true, 1986}, {2000, 1, 1, 1, 52, true, 1999}, {2008, 12, 29, 3, 1, true, 2009},
		{2021, 1, 3, 0, 1, true, 2021},
	} {
		b := weekModeOf(c.mode)
		if c.yearweek {
			b |= weekYear
		}
		w, y := calcWeek(c.y, c.m, c.d, b)
		if w != c.week || (c.yearweek && y != c.wyear) {
			t.Errorf("week(%d-%d-%d, %d) yearweek=%v = %d/%d, want %d/%d", c.y, c.m, c.d, c.mode, c.yearweek, w, y, c.week, c.wyear)
		}
	}
}

func TestDaynr(t *testing.T) {
	if n := calcDaynr(2000, 2, 29); n != 730544 {
		t.Fatalf("to_days(2000-02-29) = %d", n)
	}
	if n := calcDaynr(1995, 5, 1); n != 728779 {
		t.Fatalf("to_days(1995-05-01) = %d", n)
	}
	for n := int64(366); n < maxDayNumber; n += 97 {
		y, m, d := dateFromDaynr(n)
		if back := calcDaynr(y, m, d); back != n {
			t.Fatalf("from_days(%d) = %d-%d-%d, to_days of it %d", n, y, m, d, back)
		}
	}
	if y, m, d := dateFromDaynr(365); y != 0 || m != 0 || d != 0 {
		t.Fatalf("from_days(365) = %d-%d-%d, want the zero date", y, m, d)
	}
}

func TestIntervalFields(t *testing.T) {
	for _, c := range []struct {
		s     string
		n     int
		micro bool
		want  []int64
		ok    bool
	}{
		{"1 1:1:1", 4, false, []int64{1, 1, 1, 1}, true},
		{"1:30", 4, false, []int64{0, 0, 1, 30}, true},
		{"1.5", 2, true, []int64{1, 500000}, true},
		{"1.0000005", 2, true, []int64{1, 0}, true},
		{"1 2 3", 2, false, nil, false},
		{"", 2, false, []int64{0, 0}, true},
	} {
		got, ok := intervalFields(c.s, c.n, c.micro)
		if ok != c.ok || (ok && !slices.Equal(got, c.want)) {
			t.Errorf("intervalFields(%q, %d) = %v %v, want %v %v", c.s, c.n, got, ok, c.want, c.ok)
		}
	}
}

func TestAddIntervalClampsMonths(t *testing.T) {
	ctx := newTestContext()
	base := types.Time{Year: 2020, Month: 1, Day: 31}
	r, ok := addInterval(ctx, base, interval{months: 1}, ast.TimeUnitMonth)
	if !ok || r.Month != 2 || r.Day != 29 {
		t.Fatalf("2020-01-31 + 1 month = %v %v", r, ok)
	}
	r, ok = addInterval(ctx, base, interval{neg: true, days: 1, hours: 10}, ast.TimeUnitDayHour)
	if !ok || r.Day != 29 || r.Hour != 14 {
		t.Fatalf("2020-01-31 - '1 10' DAY_HOUR = %v %v", r, ok)
	}
	if _, ok = addInterval(ctx, types.Time{Year: 9999, Month: 12, Day: 31}, interval{days: 1}, ast.TimeUnitDay); ok {
		t.Fatal("9999-12-31 + 1 day should overflow")
	}
}

func TestMySQLRand(t *testing.T) {
	r := newMySQLRand(3)
	for _, want := range []float64{0.9057697559760601, 0.37307905813034536, 0.14808605345719125} {
		if got := r.next(); got != want {
			t.Fatalf("rand(3) gave %v, want %v", got, want)
		}
	}
	r = newMySQLRand(1)
	if got := r.next(); got != 0.40540353712197724 {
		t.Fatalf("rand(1) = %v", got)
	}
}

func TestParseBase(t *testing.T) {
	for _, c := range []struct {
		s      string
		base   int
		signed bool
		want   uint64
	}{
		{"a", 16, false, 10}, {"6E", 18, false, 122}, {"-17", 10, true, uint64(1<<64 - 17)},
		{"-1", 10, false, 1<<64 - 1}, {"12z", 10, false, 12}, {"99999999999999999999", 10, false, 1<<64 - 1},
		{"99999999999999999999", 10, true, 1<<63 - 1},
	} {
		if got := parseBase(c.s, c.base, c.signed); got != c.want {
			t.Errorf("parseBase(%q, %d, %v) = %d, want %d", c.s, c.base, c.signed, got, c.want)
		}
	}
}
