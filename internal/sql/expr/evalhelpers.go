package expr

import (
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// EvalBool evaluates e as a condition (WHERE, ON, HAVING): true only for a
// non-NULL, non-zero value.
func EvalBool(ctx EvalContext, e Expression, row chunk.Row) (bool, error) {
	d, err := e.Eval(ctx, row)
	if err != nil {
		return false, err
	}
	v, null := toBool(ctx, &d)
	return v && !null, nil
}

// EvalInt evaluates e as an integer (NULL reported by isNull); unsigned
// values come back as their bit pattern, per e.Type().IsUnsigned().
func EvalInt(ctx EvalContext, e Expression, row chunk.Row) (v int64, isNull bool, err error) {
	if c, ok := e.(*Column); ok && c.Ft.EvalType() == types.ETInt {
		if row.IsNull(c.Index) {
			return 0, true, nil
		}
		return row.GetInt64(c.Index), false, nil
	}
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return 0, true, err
	}
	return toInt(ctx, &d).v, false, nil
}

// EvalReal evaluates e as a double.
func EvalReal(ctx EvalContext, e Expression, row chunk.Row) (v float64, isNull bool, err error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return 0, true, err
	}
	return toFloat(ctx, &d), false, nil
}

// EvalDecimal evaluates e as a decimal (possibly aliasing the row).
func EvalDecimal(ctx EvalContext, e Expression, row chunk.Row) (v *types.Decimal, isNull bool, err error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return nil, true, err
	}
	return toDecimal(ctx, &d), false, nil
}

// EvalString evaluates e as text (possibly aliasing the row's chunk).
func EvalString(ctx EvalContext, e Expression, row chunk.Row) (v []byte, isNull bool, err error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return nil, true, err
	}
	return toBytes(&d), false, nil
}

// EvalTime evaluates e as a DATETIME (NULL with a warning when the value
// is not a date).
func EvalTime(ctx EvalContext, e Expression, row chunk.Row) (v types.Time, isNull bool, err error) {
	d, err := e.Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.Time{}, true, err
	}
	ft := e.Type()
	tp := ft.Tp
	if ft.EvalType() != types.ETDatetime {
		tp = mysql.TypeDatetime
	}
	t, ok := toTime(&d, tp, ft.Fsp())
	if !ok {
		_, _ = convertTo(ctx, d, types.NewFieldType(tp))
		return types.Time{}, true, nil
	}
	return t, false, nil
}

// evalArgs evaluates args in order into ds (as long as args); null
// reports a NULL argument, where evaluation stops: the preamble of the
// functions that are NULL when any argument is.
func evalArgs(ctx EvalContext, row chunk.Row, args []Expression, ds []types.Datum) (null bool, err error) {
	for i, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return true, err
		}
		ds[i] = d
	}
	return false, nil
}

// evalReals is evalArgs for functions of doubles: each argument is
// converted as it is evaluated, so that conversion warnings come in
// argument order.
func evalReals(ctx EvalContext, row chunk.Row, args []Expression, vs []float64) (null bool, err error) {
	for i, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return true, err
		}
		vs[i] = toFloat(ctx, &d)
	}
	return false, nil
}

// VecExpression is the optional vectorized form of an Expression: it
// appends its value for every row of chk to out (a column of its Type()).
// No expression implements it yet; VecEval falls back to Eval per row.
type VecExpression interface {
	Expression
	VecEval(ctx EvalContext, chk *chunk.Chunk, out *chunk.Column) error
}

// VecEval appends e's value for every row of chk to out, a column of
// e.Type().
func VecEval(ctx EvalContext, e Expression, chk *chunk.Chunk, out *chunk.Column) error {
	if v, ok := e.(VecExpression); ok {
		return v.VecEval(ctx, chk, out)
	}
	n := chk.NumRows()
	for i := 0; i < n; i++ {
		d, err := e.Eval(ctx, chk.GetRow(i))
		if err != nil {
			return err
		}
		out.AppendDatum(&d)
	}
	return nil
}

// Filter evaluates the conjunction of conds on every row of chk and
// returns sel (reused when it has the capacity) with sel[i] true for the
// rows that pass. Rows are skipped once a condition fails them.
func Filter(ctx EvalContext, conds []Expression, chk *chunk.Chunk, sel []bool) ([]bool, error) {
	n := chk.NumRows()
	if cap(sel) < n {
		sel = make([]bool, n)
	}
	sel = sel[:n]
	for i := range sel {
		sel[i] = true
	}
	for _, c := range conds {
		for i := 0; i < n; i++ {
			if !sel[i] {
				continue
			}
			ok, err := EvalBool(ctx, c, chk.GetRow(i))
			if err != nil {
				return sel, err
			}
			sel[i] = ok
		}
	}
	return sel, nil
}

// fastInt reads a signed integer argument without building a Datum when
// it is a column or a literal of a signed integer type; ok false sends
// the caller down the general path.
func fastInt(ctx EvalContext, e Expression, row chunk.Row) (v int64, null, ok bool) {
	switch x := e.(type) {
	case *Column:
		if x.Ft.EvalType() != types.ETInt || x.Ft.IsUnsigned() {
			return 0, false, false
		}
		if row.IsNull(x.Index) {
			return 0, true, true
		}
		return row.GetInt64(x.Index), false, true
	case *Constant:
		d := x.Value
		if x.ParamIndex >= 0 {
			d = ctx.Param(x.ParamIndex)
		}
		switch d.Kind() {
		case types.KindInt64:
			return d.GetInt64(), false, true
		case types.KindNull:
			return 0, true, true
		}
	}
	return 0, false, false
}
