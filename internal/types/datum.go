package types

import (
	"math"
	"strconv"
	"time"
	"unsafe"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Kind tags the value a Datum holds.
type Kind byte

// Datum kinds. The order of KindNull < KindMinNotNull < values <
// KindMaxValue is the order of range bounds.
const (
	KindNull Kind = iota
	KindInt64
	KindUint64
	KindFloat32
	KindFloat64
	KindString
	KindBytes
	KindDecimal
	KindTime
	KindDuration
	// KindJSON holds a JSON value in its binary form (EncodeJSON).
	KindJSON
	// KindEnum holds an ENUM value: its 1-based index (0 for the ''
	// of an invalid value) and its name.
	KindEnum
	// KindSet holds a SET value: its bitmask and its text ("a,c").
	KindSet
	// KindMinNotNull sorts after NULL and before every value: the lower
	// bound of "col IS NOT NULL" ranges.
	KindMinNotNull
	// KindMaxValue sorts after every value: an open upper bound.
	KindMaxValue
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindInt64:
		return "int64"
	case KindUint64:
		return "uint64"
	case KindFloat32:
		return "float32"
	case KindFloat64:
		return "float64"
	case KindString:
		return "string"
	case KindBytes:
		return "bytes"
	case KindDecimal:
		return "decimal"
	case KindTime:
		return "time"
	case KindDuration:
		return "duration"
	case KindJSON:
		return "json"
	case KindEnum:
		return "enum"
	case KindSet:
		return "set"
	case KindMinNotNull:
		return "min-not-null"
	case KindMaxValue:
		return "max-value"
	}
	return "unknown"
}

// Datum is one SQL value, a compact tagged union: integers, float bits,
// packed times and durations live in i; strings and bytes in b; decimals
// behind dec. The zero Datum is NULL. A Datum does not own b: String and
// Bytes datums made from a caller's slice alias it.
type Datum struct {
	k   Kind
	fsp int8 // Time and Duration
	tp  byte // Time: mysql type code
	i   int64
	b   []byte
	dec *Decimal
}

// NewNullDatum returns NULL.
func NewNullDatum() Datum { return Datum{} }

// NewIntDatum returns a signed integer.
func NewIntDatum(v int64) Datum { return Datum{k: KindInt64, i: v} }

// NewUintDatum returns an unsigned integer.
func NewUintDatum(v uint64) Datum { return Datum{k: KindUint64, i: int64(v)} }

// NewFloat32Datum returns a FLOAT.
func NewFloat32Datum(v float32) Datum {
	return Datum{k: KindFloat32, i: int64(math.Float64bits(float64(v)))}
}

// NewFloat64Datum returns a DOUBLE.
func NewFloat64Datum(v float64) Datum { return Datum{k: KindFloat64, i: int64(math.Float64bits(v))} }

// NewStringDatum returns a character string (copied from s without
// allocation only when s is; the datum aliases s's bytes).
func NewStringDatum(s string) Datum {
	return Datum{k: KindString, b: unsafe.Slice(unsafe.StringData(s), len(s))}
}

// NewStringDatumBytes returns a character string aliasing b.
func NewStringDatumBytes(b []byte) Datum { return Datum{k: KindString, b: b} }

// NewBytesDatum returns a byte string aliasing b.
func NewBytesDatum(b []byte) Datum { return Datum{k: KindBytes, b: b} }

// NewDecimalDatum returns a DECIMAL (aliasing d).
func NewDecimalDatum(d *Decimal) Datum { return Datum{k: KindDecimal, dec: d} }

// NewTimeDatum returns a DATE, DATETIME or TIMESTAMP.
func NewTimeDatum(t Time) Datum {
	return Datum{k: KindTime, i: int64(t.Pack()), tp: t.Type, fsp: t.Fsp}
}

// NewDurationDatum returns a TIME.
func NewDurationDatum(d Duration) Datum {
	return Datum{k: KindDuration, i: int64(d.D), fsp: d.Fsp}
}

// NewJSONDatum returns a JSON value (encoded).
func NewJSONDatum(j JSON) Datum { return Datum{k: KindJSON, b: EncodeJSON(nil, &j)} }

// NewJSONDatumBinary returns a JSON value from its binary form (aliasing
// b; not checked: values read from storage are checked by their decoder).
func NewJSONDatumBinary(b []byte) Datum { return Datum{k: KindJSON, b: b} }

// NewEnumDatum returns an ENUM value: its name and 1-based index.
func NewEnumDatum(name string, index uint64) Datum {
	return Datum{k: KindEnum, i: int64(index), b: unsafe.Slice(unsafe.StringData(name), len(name))}
}

// NewEnumDatumBytes is NewEnumDatum aliasing name's bytes.
func NewEnumDatumBytes(name []byte, index uint64) Datum {
	return Datum{k: KindEnum, i: int64(index), b: name}
}

// NewSetDatumBytes is NewSetDatum aliasing text's bytes.
func NewSetDatumBytes(text []byte, mask uint64) Datum {
	return Datum{k: KindSet, i: int64(mask), b: text}
}

// NewSetDatum returns a SET value: its text and bitmask.
func NewSetDatum(text string, mask uint64) Datum {
	return Datum{k: KindSet, i: int64(mask), b: unsafe.Slice(unsafe.StringData(text), len(text))}
}

// MinNotNullDatum returns the bound below every non-NULL value.
func MinNotNullDatum() Datum { return Datum{k: KindMinNotNull} }

// MaxValueDatum returns the bound above every value.
func MaxValueDatum() Datum { return Datum{k: KindMaxValue} }

// Kind returns the datum's kind.
func (d *Datum) Kind() Kind { return d.k }

// IsNull reports whether the datum is NULL.
func (d *Datum) IsNull() bool { return d.k == KindNull }

// GetInt64 returns an Int64 datum's value.
func (d *Datum) GetInt64() int64 { return d.i }

// GetUint64 returns a Uint64 datum's value.
func (d *Datum) GetUint64() uint64 { return uint64(d.i) }

// GetFloat64 returns a Float32 or Float64 datum's value.
func (d *Datum) GetFloat64() float64 { return math.Float64frombits(uint64(d.i)) }

// GetFloat32 returns a Float32 datum's value.
func (d *Datum) GetFloat32() float32 { return float32(d.GetFloat64()) }

// GetString returns a String or Bytes datum's value as a string (a copy).
func (d *Datum) GetString() string { return string(d.b) }

// GetBytes returns a String or Bytes datum's value (not a copy; never
// modify it: it may alias an immutable Go string).
func (d *Datum) GetBytes() []byte { return d.b }

// GetDecimal returns a Decimal datum's value (not a copy).
func (d *Datum) GetDecimal() *Decimal { return d.dec }

// GetTime returns a Time datum's value.
func (d *Datum) GetTime() Time { return TimeFromPacked(uint64(d.i), d.tp, d.fsp) }

// GetPackedTime returns a Time datum's packed value (Time.Pack).
func (d *Datum) GetPackedTime() uint64 { return uint64(d.i) }

// GetJSON decodes a JSON datum's value (ErrCorruptJSON for bytes that
// are not a binary JSON value).
func (d *Datum) GetJSON() (JSON, error) { return DecodeJSON(d.b) }

// GetEnumValue returns an ENUM datum's index or a SET datum's bitmask.
func (d *Datum) GetEnumValue() uint64 { return uint64(d.i) }

// GetDuration returns a Duration datum's value.
func (d *Datum) GetDuration() Duration { return Duration{D: time.Duration(d.i), Fsp: d.fsp} }

// Clone returns a datum that owns its bytes and decimal.
func (d Datum) Clone() Datum {
	if d.b != nil {
		d.b = append([]byte(nil), d.b...)
	}
	if d.dec != nil {
		c := new(Decimal)
		c.Set(&d.dec.Decimal)
		d.dec = c
	}
	return d
}

// String renders the value as MySQL's text protocol would ("NULL" for
// NULL).
func (d Datum) String() string {
	switch d.k {
	case KindNull:
		return "NULL"
	case KindInt64:
		return strconv.FormatInt(d.i, 10)
	case KindUint64:
		return strconv.FormatUint(uint64(d.i), 10)
	case KindFloat32:
		return FormatFloat(d.GetFloat64(), 32, -1)
	case KindFloat64:
		return FormatFloat(d.GetFloat64(), 64, -1)
	case KindString, KindBytes:
		return string(d.b)
	case KindDecimal:
		return d.dec.String()
	case KindTime:
		return d.GetTime().String()
	case KindDuration:
		return d.GetDuration().String()
	case KindJSON:
		j, err := d.GetJSON()
		if err != nil {
			return "?"
		}
		return j.String()
	case KindEnum, KindSet:
		return string(d.b)
	case KindMinNotNull:
		return "-inf"
	case KindMaxValue:
		return "+inf"
	}
	return "?"
}

// FieldTypeOfDatum returns a field type that holds d (for literals).
func FieldTypeOfDatum(d *Datum) *FieldType {
	switch d.k {
	case KindInt64:
		return NewFieldType(mysql.TypeLonglong)
	case KindUint64:
		ft := NewFieldType(mysql.TypeLonglong)
		ft.Flag |= mysql.UnsignedFlag
		return ft
	case KindFloat32:
		return NewFieldType(mysql.TypeFloat)
	case KindFloat64:
		return NewFieldType(mysql.TypeDouble)
	case KindString:
		ft := NewFieldType(mysql.TypeVarString)
		ft.Flen = len(d.b)
		return ft
	case KindBytes:
		ft := NewFieldType(mysql.TypeVarString)
		ft.Charset, ft.Collate = "binary", "binary"
		ft.Flag |= mysql.BinaryFlag
		ft.Flen = len(d.b)
		return ft
	case KindDecimal:
		ft := NewFieldType(mysql.TypeNewDecimal)
		ft.Decimal = d.dec.Scale()
		ft.Flen = max(d.dec.IntDigits(), 1) + ft.Decimal
		return ft
	case KindTime:
		ft := NewFieldType(d.tp)
		ft.Decimal = int(d.fsp)
		return ft
	case KindDuration:
		ft := NewFieldType(mysql.TypeDuration)
		ft.Decimal = int(d.fsp)
		return ft
	case KindJSON:
		return NewFieldType(mysql.TypeJSON)
	case KindEnum, KindSet:
		ft := NewFieldType(mysql.TypeVarString)
		ft.Flen = len(d.b)
		return ft
	}
	return NewFieldType(mysql.TypeNull)
}
