package expr

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// JoinKey encodes the values an equality compares so that two values are
// equal by the equality's comparison (class, collation, signedness) if and
// only if their encodings are equal bytes: the key of a hash join or of a
// hashed IN. Encodings of different pairs are not comparable.
type JoinKey struct {
	c comparator
}

// EqualityKey returns the key encoder of an equality (= or <=>) between
// a and b, and whether f is one. NullEQ reports <=> (NULLs match).
func EqualityKey(e Expression) (key JoinKey, a, b Expression, nullEQ, ok bool) {
	f, isFn := e.(*ScalarFunction)
	if !isFn || (f.Name != FnEQ && f.Name != FnNullEQ) || len(f.Args) != 2 {
		return JoinKey{}, nil, nil, false, false
	}
	cf, isCmp := f.fn.(*compareFunc)
	if !isCmp {
		return JoinKey{}, nil, nil, false, false
	}
	return JoinKey{c: cf.c}, f.Args[0], f.Args[1], f.Name == FnNullEQ, true
}

// NewJoinKey returns the key of an equality between a and b, as a = b
// would compare them.
func NewJoinKey(a, b Expression) JoinKey { return JoinKey{c: newComparator(a, b)} }

// Append appends the key form of the non-NULL datum d. Key forms are
// self-delimiting, so the keys of several equalities may be concatenated.
func (k JoinKey) Append(ctx EvalContext, dst []byte, d *types.Datum) []byte {
	switch k.c.cls {
	case cmpInt:
		v := toInt(ctx, d)
		if !v.unsigned && v.v < 0 {
			return binary.BigEndian.AppendUint64(append(dst, 0), uint64(v.v))
		}
		return binary.BigEndian.AppendUint64(append(dst, 1), uint64(v.v))
	case cmpString:
		return k.appendString(dst, toBytes(d))
	case cmpJSON:
		j := d.ToJSON()
		return appendJSONKey(dst, &j)
	case cmpDecimal:
		enc := codec.EncodeDecimal(dst, toDecimal(ctx, d))
		return enc[:len(enc)-1] // drop the scale byte: 1.5 = 1.50
	case cmpTime:
		if t, ok := toTime(d, k.c.tp, types.MaxFsp); ok {
			return binary.BigEndian.AppendUint64(append(dst, 1), t.Pack())
		}
		return codec.EncodeBytes(append(dst, 0), toBytes(d))
	case cmpDuration:
		du, err := types.ConvertDatum(*d, &types.FieldType{Tp: mysql.TypeDuration, Decimal: types.MaxFsp})
		if err == nil {
			return binary.BigEndian.AppendUint64(append(dst, 1), uint64(du.GetDuration().D))
		}
		return codec.EncodeBytes(append(dst, 0), toBytes(d))
	}
	f := toFloat(ctx, d)
	if f == 0 {
		f = 0 // -0 = 0
	}
	return binary.BigEndian.AppendUint64(dst, math.Float64bits(f))
}

// appendString appends the collation's sort key of s (collator.appendKey:
// equal exactly when the strings are), escaped to be self-delimiting.
func (k JoinKey) appendString(dst, s []byte) []byte {
	c := k.c.coll
	switch {
	case c.ci:
		s = c.appendKey(nil, s)
	case !c.binary && c.padSpace:
		s = bytes.TrimRight(s, " ") // appendKey without its copy
	}
	return codec.EncodeBytes(dst, s)
}

// Class returns the class and collation the key compares in ("binary"
// for byte strings).
func (k JoinKey) Class() (types.EvalType, string) {
	cls, coll, _ := k.c.info()
	return cls, coll
}
