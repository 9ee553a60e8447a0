package server

import (
	"bytes"
	"math"
	"strconv"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// appendTextRow appends a text-protocol row: each value a length-encoded
// string, NULL as 0xfb.
func appendTextRow(b []byte, row Row, cols []*Column) []byte {
	var scratch [64]byte
	for i, col := range cols {
		if row.IsNull(i) || col.Type == mysql.TypeNull {
			b = append(b, 0xfb)
			continue
		}
		switch col.Type {
		case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong, mysql.TypeLonglong, mysql.TypeYear:
			var v []byte
			if col.Flags&unsignedFlag != 0 {
				v = strconv.AppendUint(scratch[:0], row.GetUint64(i), 10)
			} else {
				v = strconv.AppendInt(scratch[:0], row.GetInt64(i), 10)
			}
			b = appendLenencBytes(b, v)
		case mysql.TypeFloat:
			b = appendLenencBytes(b, appendFormatFloat(scratch[:0], float64(row.GetFloat32(i)), floatPrec(col), 32))
		case mysql.TypeDouble:
			b = appendLenencBytes(b, appendFormatFloat(scratch[:0], row.GetFloat64(i), floatPrec(col), 64))
		case mysql.TypeNewDecimal, typeOldDecimal:
			b = appendLenencBytes(b, appendDecimal(scratch[:0], row.GetDecimal(i), col.Decimals))
		case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp:
			b = appendLenencBytes(b, appendTime(scratch[:0], row.GetTime(i), col))
		case mysql.TypeDuration:
			b = appendLenencBytes(b, appendDuration(scratch[:0], row.GetDuration(i), col))
		case mysql.TypeBit:
			b = appendLenencBytes(b, appendBit(scratch[:0], row.GetUint64(i), col))
		case mysql.TypeJSON:
			b = appendLenencBytes(b, appendJSONText(row.GetBytes(i)))
		default:
			b = appendLenencBytes(b, row.GetBytes(i))
		}
	}
	return b
}

// appendBit appends a BIT(n) value as MySQL sends it: the value's
// (n+7)/8 bytes, big endian.
func appendBit(b []byte, v uint64, col *Column) []byte {
	n := min(max((int(col.Length)+7)/8, 1), 8)
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// appendJSONText returns the text of a JSON value held in its binary
// form (the bytes as they are if they are not one).
func appendJSONText(bin []byte) []byte {
	j, err := types.DecodeJSON(bin)
	if err != nil {
		return bin
	}
	return j.AppendText(nil)
}

// floatPrec is the number of digits after the point for a float column:
// its Decimals when fixed, -1 (shortest representation) otherwise.
func floatPrec(col *Column) int {
	if col.Decimals >= notFixedDec || col.Decimals > 30 {
		return -1
	}
	return int(col.Decimals)
}

// Floats of magnitude outside [expFormatSmall, expFormatBig) print in
// exponent form, as MySQL does.
const (
	expFormatBig   = 1e15
	expFormatSmall = 1e-15
)

// appendFormatFloat formats a float as MySQL's text protocol does: the
// shortest representation that reads back to the same value ('f' form), or
// the exponent form without '+' and trailing zeros for very large or small
// magnitudes (1e20, 1.5e-16).
func appendFormatFloat(b []byte, f float64, prec, bitSize int) []byte {
	abs := math.Abs(f)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	var small, big bool
	if bitSize == 32 {
		big = float32(abs) >= expFormatBig
		small = float32(abs) != 0 && float32(abs) < expFormatSmall
	} else {
		big = abs >= expFormatBig
		small = abs != 0 && abs < expFormatSmall
	}
	if !big && !small {
		return strconv.AppendFloat(b, f, 'f', prec, bitSize)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, bitSize)
	s := b[start:]
	e := bytes.IndexByte(s, 'e')
	mant, exp := append([]byte(nil), s[:e]...), append([]byte(nil), s[e+1:]...)
	if bytes.IndexByte(mant, '.') >= 0 {
		mant = bytes.TrimRight(mant, "0")
		mant = bytes.TrimSuffix(mant, []byte("."))
	}
	if len(exp) > 0 && exp[0] == '+' {
		exp = exp[1:]
	}
	b = append(b[:start], mant...)
	b = append(b, 'e')
	return append(b, exp...)
}

// decimalCtx rounds decimals to a column's scale (half up, as MySQL).
var decimalCtx = apd.Context{Precision: 100, Rounding: apd.RoundHalfUp,
	MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent, Traps: 0}

// appendDecimal formats d in plain notation with exactly scale digits after
// the point (scale 31 or more: d's own scale).
func appendDecimal(b []byte, d *types.Decimal, scale uint8) []byte {
	if d == nil {
		return append(b, '0')
	}
	v := &d.Decimal
	if scale <= 30 && v.Exponent != -int32(scale) {
		var q apd.Decimal
		if _, err := decimalCtx.Quantize(&q, v, -int32(scale)); err == nil {
			v = &q
		}
	}
	if v.IsZero() && v.Negative {
		c := *v
		c.Negative = false
		v = &c
	}
	return append(b, v.Text('f')...)
}

// timeFsp is the fractional-second digits to print: the column's when set,
// else the value's.
func timeFsp(col *Column, fsp int8) int {
	if col != nil && col.Decimals <= 6 {
		return int(col.Decimals)
	}
	if fsp < 0 {
		return 0
	}
	if fsp > 6 {
		return 6
	}
	return int(fsp)
}

// appendTime formats a DATE ("2006-01-02") or DATETIME/TIMESTAMP
// ("2006-01-02 15:04:05[.ffffff]").
func appendTime(b []byte, t types.Time, col *Column) []byte {
	b = appendPadded(b, uint64(t.Year), 4)
	b = append(b, '-')
	b = appendPadded(b, uint64(t.Month), 2)
	b = append(b, '-')
	b = appendPadded(b, uint64(t.Day), 2)
	typ := col.Type
	if typ == mysql.TypeDate {
		return b
	}
	b = append(b, ' ')
	b = appendPadded(b, uint64(t.Hour), 2)
	b = append(b, ':')
	b = appendPadded(b, uint64(t.Minute), 2)
	b = append(b, ':')
	b = appendPadded(b, uint64(t.Second), 2)
	return appendFrac(b, t.Microsecond, timeFsp(col, t.Fsp))
}

// appendDuration formats a TIME ("-838:59:59[.ffffff]").
func appendDuration(b []byte, d types.Duration, col *Column) []byte {
	v := d.D
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	h := uint64(v / time.Hour)
	v -= time.Duration(h) * time.Hour
	m := uint64(v / time.Minute)
	v -= time.Duration(m) * time.Minute
	s := uint64(v / time.Second)
	v -= time.Duration(s) * time.Second
	b = appendPadded(b, h, 2)
	b = append(b, ':')
	b = appendPadded(b, m, 2)
	b = append(b, ':')
	b = appendPadded(b, s, 2)
	return appendFrac(b, uint32(v/time.Microsecond), timeFsp(col, d.Fsp))
}

// appendFrac appends ".ffffff" truncated to fsp digits (nothing for 0).
func appendFrac(b []byte, micro uint32, fsp int) []byte {
	if fsp <= 0 {
		return b
	}
	var digits [6]byte
	for i := 5; i >= 0; i-- {
		digits[i] = byte('0' + micro%10)
		micro /= 10
	}
	b = append(b, '.')
	return append(b, digits[:fsp]...)
}

// appendPadded appends v in decimal, zero-padded to width.
func appendPadded(b []byte, v uint64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendUint(tmp[:0], v, 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
