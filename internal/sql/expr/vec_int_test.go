package expr

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// vecTestChunk returns a schema (a BIGINT, b INT, u BIGINT UNSIGNED) and
// n rows of values that hit NULLs, zero, -1 and the int64 extremes.
func vecTestChunk(rng *rand.Rand, n int) (*Columns, *chunk.Chunk) {
	u := types.NewFieldType(mysql.TypeLonglong)
	u.Flag |= mysql.UnsignedFlag
	cols := []SchemaColumn{
		{Table: "t", Name: "a", Ft: types.NewFieldType(mysql.TypeLonglong)},
		{Table: "t", Name: "b", Ft: types.NewFieldType(mysql.TypeLong)},
		{Table: "t", Name: "u", Ft: u},
	}
	fts := []*types.FieldType{cols[0].Ft, cols[1].Ft, cols[2].Ft}
	chk := chunk.New(fts, n)
	special := []int64{0, 1, -1, 2, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt64 / 2, math.MinInt32}
	val := func() int64 {
		if rng.Intn(3) == 0 {
			return special[rng.Intn(len(special))]
		}
		return rng.Int63n(201) - 100
	}
	for i := 0; i < n; i++ {
		for c := 0; c < 2; c++ {
			if rng.Intn(8) == 0 {
				chk.AppendNull(c)
			} else {
				chk.AppendInt64(c, val())
			}
		}
		chk.AppendUint64(2, uint64(rng.Int63n(50)))
	}
	return &Columns{Cols: cols}, chk
}

func buildVecExpr(t *testing.T, ctx *SimpleContext, schema Schema, s string) Expression {
	t.Helper()
	node, err := parseExpr(parser.New(), s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	e, err := Build(ctx, node, schema)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return e
}

// TestIntVecMatchesEval checks every row's value, NULL and slow mark
// against Eval: a row left fast gets Eval's value without an error or a
// warning, and a row marked slow is one where Eval raises one.
func TestIntVecMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	schema, chk := vecTestChunk(rng, 600)
	ctx := newTestContext()
	ctx.Params = []types.Datum{types.NewIntDatum(3), types.NewNullDatum()}
	for _, s := range []string{
		"a + b", "a - b", "a * b", "a % b", "a DIV b", "(a + 1) % 7", "b - a * 2",
		"a % ?", "a + ?", "-5 * a", "a % -1", "b % 0", "a + NULL",
	} {
		e := buildVecExpr(t, ctx, schema, s)
		v := CompileInt(e)
		if v == nil {
			t.Fatalf("%s: not compiled", s)
		}
		sel := make([]int, 0, chk.NumRows())
		for i := 0; i < chk.NumRows(); i += 1 + rng.Intn(2) {
			sel = append(sel, i)
		}
		vals, states, ok := v.Eval(ctx, chk, sel)
		if !ok {
			t.Fatalf("%s: chunk refused", s)
		}
		slow := 0
		for _, r := range sel {
			ctx.Warnings = nil
			d, err := e.Eval(ctx, chk.GetRow(r))
			switch {
			case states[r] == VecSlow:
				slow++
				if err == nil && len(ctx.Warnings) == 0 {
					t.Fatalf("%s row %d: marked slow, but Eval gives %v quietly", s, r, d)
				}
			case err != nil || len(ctx.Warnings) > 0:
				t.Fatalf("%s row %d: Eval raises %v %v on a fast row", s, r, err, ctx.Warnings)
			case (states[r] == VecNull) != d.IsNull():
				t.Fatalf("%s row %d: null %v, Eval %v", s, r, states[r] == VecNull, d)
			case !d.IsNull() && d.GetInt64() != vals[r]:
				t.Fatalf("%s row %d: %d, Eval %d", s, r, vals[r], d.GetInt64())
			}
		}
		t.Logf("%s: %d of %d rows slow", s, slow, len(sel))
	}
	for _, s := range []string{"a", "u + 1", "a + u", "a / 2", "a + 1.5", "a"} {
		if CompileInt(buildVecExpr(t, ctx, schema, s)) != nil {
			t.Errorf("%s: compiled, want nil", s)
		}
	}
}

// TestChunkFilterMatchesEval checks that a chunk filter keeps exactly
// the rows a row-by-row AND of its conditions keeps, and fails where it
// fails.
func TestChunkFilterMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	schema, chk := vecTestChunk(rng, 600)
	ctx := newTestContext()
	cases := [][]string{
		{"a % 2 = 0"},
		{"a + b > 10", "b <> 3"},
		{"a BETWEEN b AND 100"},
		{"a * b <= ?"},
		{"b >= ?", "a < 50"},
		{"u > 3", "a % 3 = 1"}, // the first is not vectorized
		{"b % 0 = 0"},          // every row warns
		{"a <> NULL"},
		{"a = 7 OR b = 7", "a > -50"},
	}
	for _, conds := range cases {
		// Built with an integer parameter, run (as a cached plan is) with
		// others too: a string one sends the chunk through Eval.
		ctx.Params = []types.Datum{types.NewIntDatum(1)}
		es := make([]Expression, len(conds))
		for i, s := range conds {
			es[i] = buildVecExpr(t, ctx, schema, s)
		}
		f := NewChunkFilter(es)
		if f == nil {
			t.Fatalf("%v: not vectorized", conds)
		}
		for _, param := range []types.Datum{types.NewIntDatum(40), types.NewNullDatum(), types.NewStringDatum("12")} {
			ctx.Params = []types.Datum{param}
			ctx.Warnings = nil
			var want []int
			var wantErr error
			for r := 0; r < chk.NumRows() && wantErr == nil; r++ {
				keep := true
				for _, e := range es {
					ok, err := evalTrue(ctx, e, chk.GetRow(r))
					if err != nil {
						wantErr = err
					}
					if !ok || err != nil {
						keep = false
						break
					}
				}
				if keep {
					want = append(want, r)
				}
			}
			wantWarn := len(ctx.Warnings)
			ctx.Warnings = nil
			sel := make([]int, chk.NumRows())
			for i := range sel {
				sel[i] = i
			}
			got, err := f.Keep(ctx, chk, sel)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("%v (param %v): error %v, want %v", conds, param, err, wantErr)
			}
			if err != nil {
				continue
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v (param %v): kept %v, want %v", conds, param, got, want)
			}
			if len(ctx.Warnings) != wantWarn {
				t.Fatalf("%v (param %v): %d warnings, want %d", conds, param, len(ctx.Warnings), wantWarn)
			}
		}
	}
	schema2, _ := vecTestChunk(rng, 1)
	if NewChunkFilter([]Expression{buildVecExpr(t, ctx, schema2, "u > 3")}) != nil {
		t.Error("a filter with no vectorized condition was built")
	}
}
