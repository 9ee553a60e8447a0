package expr

import (
	"bytes"
	"cmp"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// cmpClass is the class two values are compared in, chosen once by the
// builder from the argument types (MySQL's rules):
//
//   - two strings: as strings, by the derived collation;
//   - two integers: as integers (signedness-aware);
//   - a date/datetime against a date/datetime or a string: as datetimes
//     (so '2020-9-1' = DATE'2020-09-01'); TIME likewise as durations;
//   - integers and decimals: as decimals;
//   - anything else (a number against a string, a double): as doubles,
//     so 1 = '1abc' holds (with a warning) and 'abc' = 0.
type cmpClass byte

const (
	cmpInt cmpClass = iota
	cmpReal
	cmpDecimal
	cmpString
	cmpTime
	cmpDuration
	// cmpJSON: a JSON value against anything, the other side taken as
	// a JSON value (a string as a JSON string, not parsed).
	cmpJSON
)

// comparator compares two datums in a class; nil results are the
// caller's (NULLs never reach it).
type comparator struct {
	cls  cmpClass
	coll collator
	tp   byte // cmpTime: DATE or DATETIME
}

// newComparator picks the comparison class of a and b.
func newComparator(a, b Expression) comparator {
	fa, fb := a.Type(), b.Type()
	ea, eb := fa.EvalType(), fb.EvalType()
	if isNullType(fa) {
		ea = eb
	}
	if isNullType(fb) {
		eb = ea
	}
	isStr := func(et types.EvalType, e Expression) bool {
		if c, ok := e.(*Constant); ok && c.binLit {
			return false
		}
		return et == types.ETString
	}
	sa, sb := isStr(ea, a), isStr(eb, b)
	switch {
	case fa.Tp == mysql.TypeJSON || fb.Tp == mysql.TypeJSON:
		return comparator{cls: cmpJSON}
	case sa && sb:
		coll, _ := deriveCollation([]Expression{a, b})
		return comparator{cls: cmpString, coll: getCollator(coll)}
	case ea == types.ETInt && eb == types.ETInt:
		return comparator{cls: cmpInt}
	case ea == types.ETDatetime && (eb == types.ETDatetime || sb),
		eb == types.ETDatetime && sa:
		// Two DATEs compare as dates; anything else (a DATE against a
		// string or a DATETIME) as datetimes, the date at midnight.
		tp := byte(mysql.TypeDatetime)
		if ea == types.ETDatetime && eb == types.ETDatetime && fa.Tp == mysql.TypeDate && fb.Tp == mysql.TypeDate {
			tp = mysql.TypeDate
		}
		return comparator{cls: cmpTime, tp: tp}
	case ea == types.ETDuration && (eb == types.ETDuration || sb),
		eb == types.ETDuration && sa:
		return comparator{cls: cmpDuration}
	case (ea == types.ETInt || ea == types.ETDecimal) && (eb == types.ETInt || eb == types.ETDecimal):
		return comparator{cls: cmpDecimal}
	}
	return comparator{cls: cmpReal}
}

func compareInts(x, y intVal) int {
	switch {
	case x.unsigned == y.unsigned && !x.unsigned:
		return cmp.Compare(x.v, y.v)
	case x.unsigned && y.unsigned:
		return cmp.Compare(uint64(x.v), uint64(y.v))
	case x.unsigned: // y signed
		if y.v < 0 || uint64(x.v) > 1<<63-1 {
			return 1
		}
		return cmp.Compare(x.v, y.v)
	}
	if x.v < 0 || uint64(y.v) > 1<<63-1 {
		return -1
	}
	return cmp.Compare(x.v, y.v)
}

// compare orders two non-NULL datums.
func (c *comparator) compare(ctx EvalContext, a, b *types.Datum) int {
	switch c.cls {
	case cmpInt:
		if a.Kind() == types.KindInt64 && b.Kind() == types.KindInt64 {
			return cmp.Compare(a.GetInt64(), b.GetInt64())
		}
		return compareInts(toInt(ctx, a), toInt(ctx, b))
	case cmpString:
		return c.coll.compare(toBytes(a), toBytes(b))
	case cmpDecimal:
		if a.Kind() == types.KindInt64 && b.Kind() == types.KindInt64 {
			return cmp.Compare(a.GetInt64(), b.GetInt64())
		}
		return toDecimal(ctx, a).Compare(toDecimal(ctx, b))
	case cmpTime:
		ta, oka := toTime(a, c.tp, types.MaxFsp)
		tb, okb := toTime(b, c.tp, types.MaxFsp)
		if oka && okb {
			return ta.Compare(tb)
		}
		return bytes.Compare(toBytes(a), toBytes(b))
	case cmpJSON:
		ja, jb := a.ToJSON(), b.ToJSON()
		return types.CompareJSON(&ja, &jb)
	case cmpDuration:
		da, erra := types.ConvertDatum(*a, &types.FieldType{Tp: mysql.TypeDuration, Decimal: types.MaxFsp})
		db, errb := types.ConvertDatum(*b, &types.FieldType{Tp: mysql.TypeDuration, Decimal: types.MaxFsp})
		if erra == nil && errb == nil {
			return da.GetDuration().Compare(db.GetDuration())
		}
		return bytes.Compare(toBytes(a), toBytes(b))
	}
	return cmp.Compare(toFloat(ctx, a), toFloat(ctx, b))
}

// compareFunc is = <> < <= > >= <=>.
type compareFunc struct {
	op   string
	code opCode
	c    comparator
}

func (f *compareFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if f.c.cls == cmpInt && f.op != FnNullEQ {
		if x, xn, ok := fastInt(ctx, args[0], row); ok {
			if y, yn, ok := fastInt(ctx, args[1], row); ok {
				if xn || yn {
					return types.NewNullDatum(), nil
				}
				return boolDatum(cmpResult(f.code, cmp.Compare(x, y))), nil
			}
		}
	}
	a, err := args[0].Eval(ctx, row)
	if err != nil {
		return a, err
	}
	b, err := args[1].Eval(ctx, row)
	if err != nil {
		return b, err
	}
	if a.IsNull() || b.IsNull() {
		if f.op == FnNullEQ {
			return boolDatum(a.IsNull() && b.IsNull()), nil
		}
		return types.NewNullDatum(), nil
	}
	return boolDatum(cmpResult(f.code, f.c.compare(ctx, &a, &b))), nil
}

// cmpResult applies a comparison operator to a three-way result.
func cmpResult(op opCode, r int) bool {
	switch op {
	case opEQ, opNullEQ:
		return r == 0
	case opNE:
		return r != 0
	case opLT:
		return r < 0
	case opLE:
		return r <= 0
	case opGT:
		return r > 0
	case opGE:
		return r >= 0
	}
	return false
}

// inFunc is a IN (b, c, ...): 1 if a equals one of them, else NULL if a or
// any of them is NULL, else 0. Each pair has its own comparison class.
type inFunc struct {
	cmps []comparator
}

func (f *inFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	sawNull := false
	for i, e := range args[1:] {
		b, err := e.Eval(ctx, row)
		if err != nil {
			return b, err
		}
		if b.IsNull() {
			sawNull = true
			continue
		}
		if f.cmps[i].compare(ctx, &a, &b) == 0 {
			return boolDatum(true), nil
		}
	}
	if sawNull {
		return types.NewNullDatum(), nil
	}
	return boolDatum(false), nil
}

// betweenFunc is a BETWEEN lo AND hi: (a >= lo) AND (a <= hi) with
// three-valued logic.
type betweenFunc struct {
	lo, hi comparator
}

func (f *betweenFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	if f.lo.cls == cmpInt && f.hi.cls == cmpInt {
		x, xn, ok1 := fastInt(ctx, args[0], row)
		lo, ln, ok2 := fastInt(ctx, args[1], row)
		hi, hn, ok3 := fastInt(ctx, args[2], row)
		if ok1 && ok2 && ok3 && !xn && !ln && !hn {
			return boolDatum(x >= lo && x <= hi), nil
		}
	}
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	lo, err := args[1].Eval(ctx, row)
	if err != nil {
		return lo, err
	}
	hi, err := args[2].Eval(ctx, row)
	if err != nil {
		return hi, err
	}
	geNull, leNull := lo.IsNull(), hi.IsNull()
	ge := geNull || f.lo.compare(ctx, &a, &lo) >= 0
	le := leNull || f.hi.compare(ctx, &a, &hi) <= 0
	switch {
	case (!geNull && !ge) || (!leNull && !le):
		return boolDatum(false), nil
	case geNull || leNull:
		return types.NewNullDatum(), nil
	}
	return boolDatum(true), nil
}
