package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/strata-db/strata/internal/types"
)

// Row value format (after TiDB's row format v2):
//
//	version(1)=128  flags(1)  numNotNull(2 LE)  numNull(2 LE)
//	column IDs: not-null IDs ascending, then null IDs ascending
//	            (1 byte each, or 4 bytes LE when flags&rowLarge)
//	end offsets of the not-null values in data
//	            (2 bytes LE each, or 4 bytes LE when flags&rowLarge)
//	data:       the not-null values, in ID order
//
// Values: integers and durations (ns) in the fewest of 1/2/4/8 bytes
// (ENUM indexes and SET bitmasks too, as unsigned; BIT values are
// unsigned integers; JSON values are their binary form, types.EncodeJSON)
// (little endian, sign-extended for signed), times as packed uints the
// same way, floats as 8 bytes of float64 bits, strings raw, decimals as
// a scale byte then the coefficient as a compact int (1/2/4/8 bytes) or,
// when it does not fit an int64, its decimal digits in ASCII ('-' first
// when negative). The value's type comes from the column on decoding.
// Columns absent from a row (added by ALTER TABLE ADD COLUMN later) take
// their default.
const (
	rowVersion = 128
	rowLarge   = 1
	rowHeader  = 6
)

// RowEncoder encodes rows reusing its scratch memory; it is not safe for
// concurrent use.
type RowEncoder struct {
	order   []int
	nulls   []int
	values  []byte
	offsets []int
}

// EncodeRow encodes the datums of the columns colIDs (same length, IDs
// distinct and positive) into a row value. It panics on a length mismatch
// or on a MinNotNull/MaxValue datum (a caller's bug).
func EncodeRow(colIDs []int64, datums []types.Datum) []byte {
	var e RowEncoder
	return e.Encode(nil, colIDs, datums)
}

// Encode appends the row value to dst (see EncodeRow).
func (e *RowEncoder) Encode(dst []byte, colIDs []int64, datums []types.Datum) []byte {
	if len(colIDs) != len(datums) {
		panic(fmt.Sprintf("codec: %d column IDs for %d datums", len(colIDs), len(datums)))
	}
	e.order, e.nulls = e.order[:0], e.nulls[:0]
	for i := range datums {
		if datums[i].IsNull() {
			e.nulls = insertSorted(e.nulls, i, colIDs)
		} else {
			e.order = insertSorted(e.order, i, colIDs)
		}
	}
	e.values, e.offsets = e.values[:0], e.offsets[:0]
	large := false
	for _, i := range e.order {
		e.values = appendRowValue(e.values, &datums[i])
		e.offsets = append(e.offsets, len(e.values))
	}
	for _, id := range colIDs {
		if id > 255 || id < 0 {
			large = true
		}
	}
	if len(e.values) > math.MaxUint16 {
		large = true
	}
	flags := byte(0)
	if large {
		flags = rowLarge
	}
	dst = append(dst, rowVersion, flags)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(e.order)))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(e.nulls)))
	for _, list := range [2][]int{e.order, e.nulls} {
		for _, i := range list {
			if large {
				dst = binary.LittleEndian.AppendUint32(dst, uint32(colIDs[i]))
			} else {
				dst = append(dst, byte(colIDs[i]))
			}
		}
	}
	for _, off := range e.offsets {
		if large {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(off))
		} else {
			dst = binary.LittleEndian.AppendUint16(dst, uint16(off))
		}
	}
	return append(dst, e.values...)
}

// insertSorted inserts index i into list keeping colIDs[list[k]] ascending;
// rows have few columns, so insertion sort is the fastest here.
func insertSorted(list []int, i int, colIDs []int64) []int {
	list = append(list, i)
	j := len(list) - 1
	for j > 0 && colIDs[list[j-1]] > colIDs[i] {
		list[j] = list[j-1]
		j--
	}
	if j > 0 && colIDs[list[j-1]] == colIDs[i] {
		panic(fmt.Sprintf("codec: duplicate column ID %d", colIDs[i]))
	}
	list[j] = i
	return list
}

func appendCompactInt(b []byte, v int64) []byte {
	switch {
	case v >= math.MinInt8 && v <= math.MaxInt8:
		return append(b, byte(int8(v)))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		return binary.LittleEndian.AppendUint16(b, uint16(int16(v)))
	case v >= math.MinInt32 && v <= math.MaxInt32:
		return binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	return binary.LittleEndian.AppendUint64(b, uint64(v))
}

func appendCompactUint(b []byte, v uint64) []byte {
	switch {
	case v <= math.MaxUint8:
		return append(b, byte(v))
	case v <= math.MaxUint16:
		return binary.LittleEndian.AppendUint16(b, uint16(v))
	case v <= math.MaxUint32:
		return binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(b, v)
}

func decodeCompactInt(b []byte) (int64, error) {
	switch len(b) {
	case 1:
		return int64(int8(b[0])), nil
	case 2:
		return int64(int16(binary.LittleEndian.Uint16(b))), nil
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	case 8:
		return int64(binary.LittleEndian.Uint64(b)), nil
	}
	return 0, ErrCorrupt
}

func decodeCompactUint(b []byte) (uint64, error) {
	switch len(b) {
	case 1:
		return uint64(b[0]), nil
	case 2:
		return uint64(binary.LittleEndian.Uint16(b)), nil
	case 4:
		return uint64(binary.LittleEndian.Uint32(b)), nil
	case 8:
		return binary.LittleEndian.Uint64(b), nil
	}
	return 0, ErrCorrupt
}

func appendRowValue(b []byte, d *types.Datum) []byte {
	switch d.Kind() {
	case types.KindInt64:
		return appendCompactInt(b, d.GetInt64())
	case types.KindUint64:
		return appendCompactUint(b, d.GetUint64())
	case types.KindFloat32, types.KindFloat64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(d.GetFloat64()))
	case types.KindString, types.KindBytes, types.KindJSON:
		return append(b, d.GetBytes()...)
	case types.KindEnum, types.KindSet:
		return appendCompactUint(b, d.GetEnumValue())
	case types.KindDecimal:
		return appendRowDecimal(b, d.GetDecimal())
	case types.KindTime:
		return appendCompactUint(b, d.GetPackedTime())
	case types.KindDuration:
		return appendCompactInt(b, int64(d.GetDuration().D))
	}
	panic(fmt.Sprintf("codec: cannot store a %s datum in a row", d.Kind()))
}

func appendRowDecimal(b []byte, d *types.Decimal) []byte {
	if d.Exponent > 0 {
		var r types.Decimal
		_ = r.Round(d, 0)
		d = &r
	}
	b = append(b, byte(d.Scale()))
	if d.Coeff.IsInt64() {
		v := d.Coeff.Int64()
		if d.Negative {
			v = -v
		}
		return appendCompactInt(b, v)
	}
	if d.Negative {
		b = append(b, '-')
	}
	return d.Coeff.Append(b, 10)
}

func decodeRowDecimal(b []byte, d *types.Decimal) error {
	if len(b) < 2 {
		return ErrCorrupt
	}
	scale := int32(b[0])
	b = b[1:]
	switch len(b) {
	case 1, 2, 4, 8:
		v, _ := decodeCompactInt(b)
		d.SetFinite(v, -scale)
		return nil
	}
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if _, ok := d.Coeff.SetString(string(b), 10); !ok {
		return fmt.Errorf("%w: decimal digits %s", ErrCorrupt, strconv.Quote(string(b)))
	}
	d.Exponent, d.Negative = -scale, neg
	return nil
}
