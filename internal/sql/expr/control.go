package expr

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// caseFunc is CASE [value] WHEN w THEN t ... [ELSE e] END. Args are
// [value,] w1, t1, w2, t2, ... [, e]; the result is converted to the
// merged type of the THEN/ELSE branches.
type caseFunc struct {
	hasValue, hasElse bool
	cmps              []comparator // simple CASE: value vs each WHEN
	ft                *types.FieldType
}

func (f *caseFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v types.Datum
	if f.hasValue {
		var err error
		if v, err = args[0].Eval(ctx, row); err != nil {
			return v, err
		}
		args = args[1:]
	}
	n := len(args) / 2
	for i := 0; i < n; i++ {
		w, err := args[2*i].Eval(ctx, row)
		if err != nil {
			return w, err
		}
		var hit bool
		if f.hasValue {
			hit = !v.IsNull() && !w.IsNull() && f.cmps[i].compare(ctx, &v, &w) == 0
		} else {
			b, null := toBool(ctx, &w)
			hit = b && !null
		}
		if hit {
			return evalAs(ctx, row, args[2*i+1], f.ft)
		}
	}
	if f.hasElse {
		return evalAs(ctx, row, args[len(args)-1], f.ft)
	}
	return types.NewNullDatum(), nil
}

// evalAs evaluates e and converts its value to ft's class.
func evalAs(ctx EvalContext, row chunk.Row, e Expression, ft *types.FieldType) (types.Datum, error) {
	d, err := e.Eval(ctx, row)
	if err != nil {
		return d, err
	}
	return convertTo(ctx, d, ft)
}

// ifFunc is IF(c, a, b).
type ifFunc struct{ ft *types.FieldType }

func (f *ifFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	c, err := args[0].Eval(ctx, row)
	if err != nil {
		return c, err
	}
	if b, null := toBool(ctx, &c); b && !null {
		return evalAs(ctx, row, args[1], f.ft)
	}
	return evalAs(ctx, row, args[2], f.ft)
}

// coalesceFunc is COALESCE(a, b, ...) and IFNULL(a, b): the first non-NULL
// argument.
type coalesceFunc struct{ ft *types.FieldType }

func (f *coalesceFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	for _, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil {
			return d, err
		}
		if !d.IsNull() {
			return convertTo(ctx, d, f.ft)
		}
	}
	return types.NewNullDatum(), nil
}

// nullIfFunc is NULLIF(a, b): NULL if a = b, else a.
type nullIfFunc struct {
	c  comparator
	ft *types.FieldType
}

func (f *nullIfFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	b, err := args[1].Eval(ctx, row)
	if err != nil {
		return b, err
	}
	if !b.IsNull() && f.c.compare(ctx, &a, &b) == 0 {
		return types.NewNullDatum(), nil
	}
	return convertTo(ctx, a, f.ft)
}
