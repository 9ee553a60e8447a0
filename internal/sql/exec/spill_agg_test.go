package exec

import (
	"errors"
	"reflect"
	"testing"

	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

func TestSpillHashAgg(t *testing.T) {
	cat, begin := spillTable(t, 3000, 2)
	checkSpills(t, cat, begin, []string{
		"SELECT a, COUNT(*), SUM(c), AVG(c), MIN(d), MAX(b), SUM(e) FROM s GROUP BY a",
		"SELECT a, b, COUNT(DISTINCT c), GROUP_CONCAT(id ORDER BY d DESC, id SEPARATOR ':'), GROUP_CONCAT(DISTINCT b) FROM s GROUP BY a, b",
		"SELECT b, BIT_OR(a), BIT_AND(a), BIT_XOR(id), STDDEV_POP(e), VAR_SAMP(a), ANY_VALUE(id), COUNT(a) FROM s GROUP BY b, a % 7",
		"SELECT id, a FROM s GROUP BY id, a",
		"SELECT DISTINCT a, c FROM s",
		"SELECT d, GROUP_CONCAT(b), MIN(e) FROM s GROUP BY d",
		"SELECT a, JSON_ARRAYAGG(b), JSON_OBJECTAGG(id, b), JSON_ARRAYAGG(e), JSON_OBJECTAGG(id, c) FROM s GROUP BY a",
	}, []int64{4 << 10, 64 << 10}, false)
}

// TestAggStateFields fails when aggState or aggGroup gains a field:
// encodeAggState must then keep it too.
func TestAggStateFields(t *testing.T) {
	if n := reflect.TypeOf(aggState{}).NumField(); n != 13 {
		t.Fatalf("aggState has %d fields: update encodeAggState/decodeAggState and this test", n)
	}
	if n := reflect.TypeOf(aggGroup{}).NumField(); n != 3 {
		t.Fatalf("aggGroup has %d fields: update encodeAggGroup/decodeAggGroup and this test", n)
	}
}

// A group's state record round-trips, and every cut of it is an error.
func TestAggGroupCodec(t *testing.T) {
	dec, _ := types.ParseDecimal("12.50")
	j, _ := types.ParseJSON(`[1, "a"]`)
	g := &aggGroup{
		first: []types.Datum{types.NewIntDatum(7), types.NewStringDatum("x"), types.NewNullDatum()},
		states: []aggState{
			{count: 3, dec: dec, float: 2.5, val: types.NewStringDatum("m"), has: true,
				seen: map[string]struct{}{"k1": {}, "k2": {}}, bits: 5, vr: varianceAcc{n: 3, m: 1.5, s: 0.25},
				gc: []concatRow{{text: []byte("t"), keys: []types.Datum{types.NewIntDatum(1)}}}},
			{json: &jsonAgg{keys: []string{"a"}, elems: []types.JSON{j}}},
			{count: 2, isum: 40}, // integer SUM: kept as its decimal
		},
	}
	funcs := make([]*planner.AggFunc, 3)
	b := encodeAggGroup(nil, g)
	got, err := decodeAggGroup(b, funcs)
	if err != nil {
		t.Fatal(err)
	}
	if again := encodeAggGroup(nil, got); len(again) != len(b) || got.states[0].dec.String() != "12.50" ||
		len(got.states[0].seen) != 2 || string(got.states[0].gc[0].text) != "t" || got.states[1].json.keys[0] != "a" ||
		got.states[2].dec == nil || got.states[2].dec.String() != "40" || got.states[2].isum != 0 {
		t.Fatalf("group came back as %+v", got)
	}
	for n := 0; n < len(b); n++ {
		if _, err := decodeAggGroup(b[:n], funcs); !errors.Is(err, ErrSpillCorrupt) {
			t.Fatalf("cut at %d of %d: %v", n, len(b), err)
		}
	}
}
