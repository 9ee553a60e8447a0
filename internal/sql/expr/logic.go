package expr

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// logicFunc is AND, OR, XOR with SQL's three-valued logic: FALSE AND NULL
// is FALSE, TRUE OR NULL is TRUE, anything XOR NULL is NULL. AND and OR
// stop at the first argument that decides.
type logicFunc struct{ op string }

func (f *logicFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil {
		return a, err
	}
	av, an := toBool(ctx, &a)
	switch f.op {
	case FnAnd:
		if !an && !av {
			return boolDatum(false), nil
		}
	case FnOr:
		if !an && av {
			return boolDatum(true), nil
		}
	case FnXor:
		if an {
			return types.NewNullDatum(), nil
		}
	}
	b, err := args[1].Eval(ctx, row)
	if err != nil {
		return b, err
	}
	bv, bn := toBool(ctx, &b)
	switch f.op {
	case FnAnd:
		if !bn && !bv {
			return boolDatum(false), nil
		}
		if an || bn {
			return types.NewNullDatum(), nil
		}
		return boolDatum(true), nil
	case FnOr:
		if !bn && bv {
			return boolDatum(true), nil
		}
		if an || bn {
			return types.NewNullDatum(), nil
		}
		return boolDatum(false), nil
	}
	if bn {
		return types.NewNullDatum(), nil
	}
	return boolDatum(av != bv), nil
}

// notFunc is NOT x (and !x): NULL stays NULL.
type notFunc struct{}

func (notFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil {
		return a, err
	}
	v, null := toBool(ctx, &a)
	if null {
		return types.NewNullDatum(), nil
	}
	return boolDatum(!v), nil
}

// isFunc is IS NULL, IS TRUE, IS FALSE: never NULL (IS NOT ... is NOT over
// these).
type isFunc struct{ op string }

func (f *isFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil {
		return a, err
	}
	if f.op == FnIsNull {
		return boolDatum(a.IsNull()), nil
	}
	v, null := toBool(ctx, &a)
	if null {
		return boolDatum(false), nil
	}
	return boolDatum(v == (f.op == FnIsTrue)), nil
}

// bitFunc is & | ^ << >> ~ over BIGINT UNSIGNED.
type bitFunc struct{ op string }

func (f *bitFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v [2]uint64
	for i, e := range args {
		d, err := e.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		v[i] = uint64(toInt(ctx, &d).v)
	}
	var r uint64
	switch f.op {
	case FnBitAnd:
		r = v[0] & v[1]
	case FnBitOr:
		r = v[0] | v[1]
	case FnBitXor:
		r = v[0] ^ v[1]
	case FnLeftShift:
		if v[1] < 64 {
			r = v[0] << v[1]
		}
	case FnRightShift:
		if v[1] < 64 {
			r = v[0] >> v[1]
		}
	case FnBitNeg:
		r = ^v[0]
	}
	return types.NewUintDatum(r), nil
}
