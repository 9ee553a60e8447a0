package difftest

import (
	"errors"
	"testing"
)

// TestCompare pins the comparison rules: multisets unless ordered, DOUBLE
// columns with a tolerance, strings without case or trailing spaces, both
// failing as agreement.
func TestCompare(t *testing.T) {
	res := func(types []string, rows ...[]string) result { return result{types: types, rows: rows} }
	fail := result{err: errors.New("boom")}
	two := []string{"INT", "VARCHAR"}
	for _, tc := range []struct {
		name          string
		strata, maria result
		ordered       bool
		want          outcome
	}{
		{"same multiset", res(two, []string{"1", "a"}, []string{"2", "b"}), res(two, []string{"2", "b"}, []string{"1", "a"}), false, same},
		{"order counts when ordered", res(two, []string{"1", "a"}, []string{"2", "b"}), res(two, []string{"2", "b"}, []string{"1", "a"}), true, differ},
		{"duplicates count", res(two, []string{"1", "a"}), res(two, []string{"1", "a"}, []string{"1", "a"}), false, differ},
		{"case and pad of strings", res(two, []string{"1", "A "}), res(two, []string{"1", "a"}), false, same},
		{"NULL is not the string NULL", res(two, []string{"1", nullCell}), res(two, []string{"1", "NULL"}), false, differ},
		{"double tolerance", res([]string{"DOUBLE"}, []string{"0.30000000000000004"}), res([]string{"DOUBLE"}, []string{"0.3"}), false, same},
		{"double format", res([]string{"DOUBLE"}, []string{"10000000000"}), res([]string{"DOUBLE"}, []string{"1e+10"}), false, same},
		{"decimal scale is exact", res([]string{"DECIMAL"}, []string{"1.5"}), res([]string{"DECIMAL"}, []string{"1.50"}), false, differ},
		{"double values differ", res([]string{"DOUBLE"}, []string{"1.5"}), res([]string{"DOUBLE"}, []string{"1.25"}), false, differ},
		{"column count", res(two, []string{"1", "a"}), res([]string{"INT"}, []string{"1"}), false, differ},
		{"both fail", fail, fail, false, same},
		{"strata fails", fail, res(two), false, strataErr},
		{"maria fails", res(two), fail, false, mariaErr},
	} {
		if got := compare(tc.strata, tc.maria, tc.ordered); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestOrdered: only an ORDER BY naming every select column fixes the order.
func TestOrdered(t *testing.T) {
	q := &query{cores: []selectCore{{items: make([]selItem, 2)}}, limit: -1}
	if q.ordered() {
		t.Error("no ORDER BY: ordered")
	}
	q.orderBy = []orderItem{{pos: 2}}
	if q.ordered() {
		t.Error("ORDER BY 2 of 2 columns: ordered")
	}
	q.orderBy = append(q.orderBy, orderItem{pos: 1, desc: true})
	if !q.ordered() {
		t.Error("ORDER BY 2, 1 DESC: not ordered")
	}
}
