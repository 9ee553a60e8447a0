package codec

import (
	"fmt"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// Kind flags: the first byte of each encoded datum in a key (TiDB's
// values). Flags order kinds; within a kind, the encoding orders values.
const (
	NilFlag      byte = 0
	bytesFlag    byte = 1
	intFlag      byte = 3
	uintFlag     byte = 4
	floatFlag    byte = 5
	decimalFlag  byte = 6
	durationFlag byte = 7
	maxFlag      byte = 250
)

// EncodeKey appends the memcomparable form of each datum: a kind flag,
// then the value (NULL is the flag alone; MinNotNull is a lone bytes flag,
// below every value; MaxValue is maxFlag, above every value). Times encode
// as their packed uint, float32 as float64, strings and bytes alike, ENUM
// and SET values as their index or bitmask (an ENUM index orders by
// member position, as MySQL's), JSON values as the bytes of their binary
// form (for grouping: MySQL indexes no JSON column).
// Byte order of two encodings equals Datum.Compare order for datums of the
// same kind (a column's values always are), NULL first.
func EncodeKey(b []byte, datums ...types.Datum) []byte {
	for i := range datums {
		b = encodeDatum(b, &datums[i])
	}
	return b
}

func encodeDatum(b []byte, d *types.Datum) []byte {
	switch d.Kind() {
	case types.KindNull:
		return append(b, NilFlag)
	case types.KindInt64:
		return EncodeInt(append(b, intFlag), d.GetInt64())
	case types.KindUint64:
		return EncodeUint(append(b, uintFlag), d.GetUint64())
	case types.KindFloat32, types.KindFloat64:
		return EncodeFloat(append(b, floatFlag), d.GetFloat64())
	case types.KindString, types.KindBytes, types.KindJSON:
		return EncodeBytes(append(b, bytesFlag), d.GetBytes())
	case types.KindEnum, types.KindSet:
		return EncodeUint(append(b, uintFlag), d.GetEnumValue())
	case types.KindDecimal:
		return EncodeDecimal(append(b, decimalFlag), d.GetDecimal())
	case types.KindTime:
		return EncodeUint(append(b, uintFlag), d.GetPackedTime())
	case types.KindDuration:
		return EncodeInt(append(b, durationFlag), int64(d.GetDuration().D))
	case types.KindMinNotNull:
		return append(b, bytesFlag)
	case types.KindMaxValue:
		return append(b, maxFlag)
	}
	panic(fmt.Sprintf("codec: cannot encode a %s datum", d.Kind()))
}

// DecodeOne decodes one datum at the front of b. Without a field type,
// times come back as Uint64 datums, strings as Bytes and durations with
// fsp 0; DecodeKeyValue restores the column's type.
func DecodeOne(b []byte) (rest []byte, d types.Datum, err error) {
	if len(b) == 0 {
		return nil, d, ErrCorrupt
	}
	flag, b := b[0], b[1:]
	switch flag {
	case NilFlag:
		return b, types.NewNullDatum(), nil
	case intFlag:
		var v int64
		b, v, err = DecodeInt(b)
		d = types.NewIntDatum(v)
	case uintFlag:
		var v uint64
		b, v, err = DecodeUint(b)
		d = types.NewUintDatum(v)
	case floatFlag:
		var v float64
		b, v, err = DecodeFloat(b)
		d = types.NewFloat64Datum(v)
	case bytesFlag:
		var v []byte
		b, v, err = DecodeBytes(b)
		d = types.NewBytesDatum(v)
	case decimalFlag:
		var v *types.Decimal
		b, v, err = DecodeDecimal(b)
		d = types.NewDecimalDatum(v)
	case durationFlag:
		var v int64
		b, v, err = DecodeInt(b)
		d = types.NewDurationDatum(types.Duration{D: time.Duration(v)})
	case maxFlag:
		return b, types.MaxValueDatum(), nil
	default:
		return nil, d, ErrCorrupt
	}
	if err != nil {
		return nil, types.Datum{}, err
	}
	return b, d, nil
}

// Decode decodes every datum in b.
func Decode(b []byte) ([]types.Datum, error) {
	var out []types.Datum
	for len(b) > 0 {
		var d types.Datum
		var err error
		if b, d, err = DecodeOne(b); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// DecodeKeyValue decodes one datum at the front of b as a value of column
// type ft: packed times become Time datums with ft's type and fsp,
// durations get ft's fsp, strings in a non-binary charset String datums,
// FLOAT columns Float32 datums.
func DecodeKeyValue(b []byte, ft *types.FieldType) (rest []byte, d types.Datum, err error) {
	rest, d, err = DecodeOne(b)
	if err != nil || d.IsNull() {
		return rest, d, err
	}
	switch ft.Tp {
	case mysql.TypeEnum, mysql.TypeSet:
		if d.Kind() == types.KindUint64 {
			if ft.Tp == mysql.TypeEnum {
				return rest, ft.EnumDatum(d.GetUint64()), nil
			}
			return rest, ft.SetDatum(d.GetUint64()), nil
		}
	case mysql.TypeJSON:
		if d.Kind() == types.KindBytes {
			return rest, types.NewJSONDatumBinary(d.GetBytes()), nil
		}
	}
	switch ft.EvalType() {
	case types.ETDatetime:
		if d.Kind() == types.KindUint64 {
			d = types.NewTimeDatum(types.TimeFromPacked(d.GetUint64(), ft.Tp, ft.Fsp()))
		}
	case types.ETDuration:
		if d.Kind() == types.KindDuration {
			d = types.NewDurationDatum(types.Duration{D: d.GetDuration().D, Fsp: ft.Fsp()})
		}
	case types.ETString:
		if d.Kind() == types.KindBytes && !ft.IsBinaryString() {
			d = types.NewStringDatumBytes(d.GetBytes())
		}
	case types.ETReal:
		if ft.Tp == mysql.TypeFloat && d.Kind() == types.KindFloat64 {
			d = types.NewFloat32Datum(float32(d.GetFloat64()))
		}
	}
	return rest, d, nil
}

// PeekLength returns the length of the encoded datum at the front of b
// without decoding it.
func PeekLength(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, ErrCorrupt
	}
	var n int
	switch b[0] {
	case NilFlag, maxFlag:
		return 1, nil
	case intFlag, uintFlag, floatFlag, durationFlag:
		n = 8
	case bytesFlag:
		l, err := EncodedBytesPrefixLen(b[1:])
		if err != nil {
			return 0, err
		}
		n = l
	case decimalFlag:
		rest, _, err := DecodeDecimal(b[1:])
		if err != nil {
			return 0, err
		}
		n = len(b) - 1 - len(rest)
	default:
		return 0, ErrCorrupt
	}
	if len(b) < 1+n {
		return 0, ErrCorrupt
	}
	return 1 + n, nil
}

// CutDatums splits b after its first n encoded datums (an index key's
// column values from the handle that follows them).
func CutDatums(b []byte, n int) (head, rest []byte, err error) {
	off := 0
	for i := 0; i < n; i++ {
		l, err := PeekLength(b[off:])
		if err != nil {
			return nil, nil, err
		}
		off += l
	}
	return b[:off], b[off:], nil
}
