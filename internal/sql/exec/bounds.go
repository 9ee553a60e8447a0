package exec

import (
	"bytes"
	"math"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// exactHandle converts a value compared for equality with the int handle:
// ok false when no handle can equal it (NULL, a fraction, out of range).
// For an UNSIGNED primary key the handle is the value's bits.
func exactHandle(d types.Datum, unsigned bool) (int64, bool) {
	switch d.Kind() {
	case types.KindNull:
		return 0, false
	case types.KindInt64:
		return d.GetInt64(), !unsigned || d.GetInt64() >= 0
	case types.KindUint64:
		return d.GetInt64(), unsigned || d.GetUint64() <= math.MaxInt64
	}
	// Numbers compare with strings as doubles, a string by its numeric
	// prefix ('abc' is 0): use the value even when the string had to be
	// truncated.
	f, err := d.ToFloat64()
	isString := d.Kind() == types.KindString || d.Kind() == types.KindBytes
	if (err != nil && !isString) || f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	if unsigned {
		if f < 0 || f >= math.MaxUint64 {
			return 0, false
		}
		return int64(uint64(f)), true
	}
	if f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

// handleRange evaluates a handle range to inclusive bounds; empty when no
// handle is in it.
// exact is false when a bound could not be used (the range is wider than
// its conditions).
func handleRange(ectx *Context, r *planner.HandleRange) (lo, hi int64, empty, exact bool, err error) {
	lo, hi, exact = math.MinInt64, math.MaxInt64, true
	for _, b := range r.Lows {
		d, err := b.Value.Eval(ectx.Eval, chunk.Row{})
		if err != nil {
			return 0, 0, false, false, err
		}
		v, ok, none := lowBound(d, b.Excl)
		if none {
			return 0, 0, true, true, nil
		}
		exact = exact && ok
		if ok && v > lo {
			lo = v
		}
	}
	for _, b := range r.Highs {
		d, err := b.Value.Eval(ectx.Eval, chunk.Row{})
		if err != nil {
			return 0, 0, false, false, err
		}
		v, ok, none := highBound(d, b.Excl)
		if none {
			return 0, 0, true, true, nil
		}
		exact = exact && ok
		if ok && v < hi {
			hi = v
		}
	}
	return lo, hi, lo > hi, exact, nil
}

// lowBound: the smallest handle h with h > d (excl) or h >= d; ok false
// leaves the side unbounded (the residual filter decides), none: no handle.
func lowBound(d types.Datum, excl bool) (v int64, ok, none bool) {
	switch d.Kind() {
	case types.KindNull:
		return 0, false, true
	case types.KindInt64:
		v = d.GetInt64()
		if excl {
			if v == math.MaxInt64 {
				return 0, false, true
			}
			v++
		}
		return v, true, false
	case types.KindUint64:
		if d.GetUint64() > math.MaxInt64 {
			return 0, false, true
		}
		return lowBound(types.NewIntDatum(d.GetInt64()), excl)
	}
	f, err := d.ToFloat64()
	if err != nil {
		return 0, false, false
	}
	c := math.Ceil(f)
	if excl && c == f {
		c++
	}
	if c >= math.MaxInt64 {
		return 0, false, true
	}
	if c <= math.MinInt64 {
		return 0, false, false
	}
	return int64(c), true, false
}

// highBound mirrors lowBound.
func highBound(d types.Datum, excl bool) (v int64, ok, none bool) {
	switch d.Kind() {
	case types.KindNull:
		return 0, false, true
	case types.KindInt64:
		v = d.GetInt64()
		if excl {
			if v == math.MinInt64 {
				return 0, false, true
			}
			v--
		}
		return v, true, false
	case types.KindUint64:
		if d.GetUint64() > math.MaxInt64 {
			return 0, false, false
		}
		return highBound(types.NewIntDatum(d.GetInt64()), excl)
	}
	f, err := d.ToFloat64()
	if err != nil {
		return 0, false, false
	}
	c := math.Floor(f)
	if excl && c == f {
		c--
	}
	if c <= math.MinInt64 {
		return 0, false, true
	}
	if c >= math.MaxInt64 {
		return 0, false, false
	}
	return int64(c), true, false
}

// recordKeyRange is the key range of handles lo..hi.
func recordKeyRange(tableID, lo, hi int64) (start, end kv.Key) {
	start = codec.TableRecordKey(tableID, lo)
	if hi == math.MaxInt64 {
		return start, codec.PrefixEnd(codec.TableRecordPrefix(tableID))
	}
	return start, codec.TableRecordKey(tableID, hi+1)
}

// indexKeyRange evaluates one index range to keys [start, end): a superset
// of the entries the range's conditions select (values that cannot be
// converted exactly to the column type widen the range, and exact is then
// false); empty when it selects nothing.
func indexKeyRange(ectx *Context, p *planner.IndexLookUp, r *planner.IndexRange) (start, end kv.Key, empty, exact bool, err error) {
	t, idx := p.Table, p.Index
	prefix := codec.IndexPrefix(t.ID, idx.ID)
	key := append([]byte(nil), prefix...)
	// keyed: a _ci column's range holds its collation's equals; the
	// condition (maybe under another COLLATE) is re-checked on the rows.
	keyed := false
	for i, e := range r.Eq {
		d, err := e.Eval(ectx.Eval, chunk.Row{})
		if err != nil {
			return nil, nil, false, false, err
		}
		if d.IsNull() && !(r.NullLast && i == len(r.Eq)-1) {
			return nil, nil, true, true, nil
		}
		ft := &t.Columns[idx.Columns[i].Offset].FieldType
		cd, ok := exactConvert(d, ft)
		if !ok {
			return key, codec.PrefixEnd(key), false, false, nil
		}
		cd = ectx.toStoredTS(ft, cd)
		if padSpace(ft) && !cd.IsNull() {
			// Stored keys keep trailing spaces, which the collation
			// ignores: read every value that equals v up to them.
			lo, hi := padRange(cd)
			return codec.EncodeKey(append([]byte(nil), key...), lo), codec.EncodeKey(key, hi), false, false, nil
		}
		key = codec.EncodeKey(key, catalog.IndexKeyValue(ft, cd))
		keyed = keyed || expr.IsCollationKeyed(ft)
	}
	if len(r.Eq) >= len(idx.Columns) || len(r.Lows)+len(r.Highs) == 0 {
		return key, codec.PrefixEnd(key), false, !keyed, nil
	}
	ft := &t.Columns[idx.Columns[len(r.Eq)].Offset].FieldType
	keyed = keyed || expr.IsCollationKeyed(ft)
	lo, loExcl, none, loExact, err := pickBound(ectx, r.Lows, ft, 1)
	if err != nil || none {
		return nil, nil, none, true, err
	}
	hi, hiExcl, none, hiExact, err := pickBound(ectx, r.Highs, ft, -1)
	if err != nil || none {
		return nil, nil, none, true, err
	}
	if padSpace(ft) {
		loExact, hiExact = false, false
		if lo != nil {
			l, _ := padRange(*lo)
			lo, loExcl = &l, false
		}
		if hi != nil {
			_, h := padRange(*hi)
			end = codec.EncodeKey(append([]byte(nil), key...), h)
			hi = nil
		}
	}
	start = key
	if end == nil {
		end = codec.PrefixEnd(key)
	}
	if lo != nil {
		start = codec.EncodeKey(append([]byte(nil), key...), *lo)
		if loExcl {
			start = codec.PrefixEnd(start)
		}
	} else if len(r.Lows) == 0 {
		// No lower bound: start after the NULLs, which sort first and
		// satisfy no comparison.
		start = codec.PrefixEnd(codec.EncodeKey(append([]byte(nil), key...), types.NewNullDatum()))
	}
	if hi != nil {
		end = codec.EncodeKey(append([]byte(nil), key...), *hi)
		if !hiExcl {
			end = codec.PrefixEnd(end)
		}
	}
	if bytes.Compare(start, end) >= 0 {
		return nil, nil, true, true, nil // low above high: nothing
	}
	return start, end, false, loExact && hiExact && !keyed, nil
}

// pickBound evaluates bounds and keeps the tightest (dir 1: largest low,
// -1: smallest high); nil when unbounded; exact false when a bound could
// not be converted exactly (and was dropped).
func pickBound(ectx *Context, bs []planner.Bound, ft *types.FieldType, dir int) (best *types.Datum, excl, none, exact bool, err error) {
	exact = true
	for _, b := range bs {
		d, err := b.Value.Eval(ectx.Eval, chunk.Row{})
		if err != nil {
			return nil, false, false, false, err
		}
		if d.IsNull() {
			return nil, false, true, true, nil
		}
		cd, ok := exactConvert(d, ft)
		cd = ectx.toStoredTS(ft, cd)
		if !ok {
			exact = false
			continue
		}
		cd = catalog.IndexKeyValue(ft, cd) // a _ci column's keys are sort keys
		if best == nil {
			best, excl = &cd, b.Excl
			continue
		}
		c := cd.Compare(best) * dir
		if c > 0 || (c == 0 && b.Excl) {
			best, excl = &cd, b.Excl
		}
	}
	return best, excl, false, exact, nil
}

// pointValue converts a value compared for equality with a column of type
// ft to the key value to look up; ok false when no stored value can equal
// it. Strings compared with integer columns compare as doubles (by their
// numeric prefix).
func pointValue(d types.Datum, ft *types.FieldType) (types.Datum, bool) {
	if cd, ok := exactConvert(d, ft); ok {
		return cd, true
	}
	if ft.EvalType() == types.ETInt && (d.Kind() == types.KindString || d.Kind() == types.KindBytes) {
		if h, ok := exactHandle(d, ft.IsUnsigned()); ok {
			if ft.IsUnsigned() {
				return exactConvert(types.NewUintDatum(uint64(h)), ft)
			}
			return exactConvert(types.NewIntDatum(h), ft)
		}
	}
	return d, false
}

// exactConvert converts d to the column type when that loses nothing.
func exactConvert(d types.Datum, ft *types.FieldType) (types.Datum, bool) {
	cd, err := types.ConvertDatum(d, ft)
	if err != nil {
		return d, false
	}
	if ft.EvalType() == types.ETString || d.Kind() == cd.Kind() {
		return cd, true
	}
	back := cd
	return cd, back.Compare(&d) == 0
}

var _ = expr.FnEQ

// padSpace: string comparisons under the column's collation ignore
// trailing spaces (the *_bin collations), while its index keys hold the
// bytes as stored.
func padSpace(ft *types.FieldType) bool {
	if ft.Tp == mysql.TypeEnum || ft.Tp == mysql.TypeSet || expr.IsCollationKeyed(ft) {
		return false // keyed by index or bitmask, or by a sort key without the spaces
	}
	return ft.EvalType() == types.ETString && ft.Collate != "binary"
}

// padRange is [lo, hi): the stored strings that equal v up to trailing
// spaces lie in it (v without its trailing spaces, up to that followed
// by '!', the byte after the space).
func padRange(v types.Datum) (lo, hi types.Datum) {
	b := bytes.TrimRight(v.GetBytes(), " ")
	return types.NewStringDatumBytes(b), types.NewStringDatumBytes(append(append([]byte(nil), b...), '!'))
}
