package server

import (
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// appendBinaryRow appends a binary-protocol row (ProtocolBinary::ResultsetRow):
// 0x00, a NULL bitmap with an offset of 2 bits, then the non-NULL values.
func appendBinaryRow(b []byte, row Row, cols []*Column) []byte {
	b = append(b, 0)
	nullStart := len(b)
	for range (len(cols) + 7 + 2) / 8 {
		b = append(b, 0)
	}
	var scratch [64]byte
	for i, col := range cols {
		if row.IsNull(i) || col.Type == mysql.TypeNull {
			pos := i + 2
			b[nullStart+pos/8] |= 1 << (pos % 8)
			continue
		}
		unsigned := col.Flags&unsignedFlag != 0
		switch col.Type {
		case mysql.TypeTiny:
			b = append(b, byte(intBits(row, i, unsigned)))
		case mysql.TypeShort, mysql.TypeYear:
			b = appendU16(b, uint16(intBits(row, i, unsigned)))
		case mysql.TypeInt24, mysql.TypeLong:
			b = appendU32(b, uint32(intBits(row, i, unsigned)))
		case mysql.TypeLonglong:
			b = appendU64(b, intBits(row, i, unsigned))
		case mysql.TypeFloat:
			b = appendU32(b, math.Float32bits(row.GetFloat32(i)))
		case mysql.TypeDouble:
			b = appendU64(b, math.Float64bits(row.GetFloat64(i)))
		case mysql.TypeNewDecimal, typeOldDecimal:
			b = appendLenencBytes(b, appendDecimal(scratch[:0], row.GetDecimal(i), col.Decimals))
		case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp:
			t := row.GetTime(i)
			t.Microsecond = truncMicro(t.Microsecond, col)
			b = appendBinaryTime(b, t, col.Type)
		case mysql.TypeDuration:
			d := row.GetDuration(i)
			if col.Decimals <= 6 {
				d.D = d.D.Truncate(time.Duration(pow10[6-col.Decimals]) * time.Microsecond)
			}
			b = appendBinaryDuration(b, d)
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

// pow10[i] is 10^i.
var pow10 = [...]uint32{1, 10, 100, 1000, 10000, 100000, 1000000}

// truncMicro truncates microseconds to the column's fsp, so binary rows
// carry what text rows print.
func truncMicro(micro uint32, col *Column) uint32 {
	if col.Decimals > 6 {
		return micro
	}
	p := pow10[6-col.Decimals]
	return micro - micro%p
}

func intBits(row Row, i int, unsigned bool) uint64 {
	if unsigned {
		return row.GetUint64(i)
	}
	return uint64(row.GetInt64(i))
}

// appendBinaryTime appends a binary DATE/DATETIME/TIMESTAMP: a length (0, 4,
// 7 or 11) then year, month, day, hour, minute, second, microseconds.
func appendBinaryTime(b []byte, t types.Time, typ byte) []byte {
	switch {
	case typ == mysql.TypeDate:
		if t.Year == 0 && t.Month == 0 && t.Day == 0 {
			return append(b, 0)
		}
		b = append(b, 4)
		b = appendU16(b, t.Year)
		return append(b, t.Month, t.Day)
	case t.Microsecond != 0:
		b = append(b, 11)
		b = appendU16(b, t.Year)
		b = append(b, t.Month, t.Day, t.Hour, t.Minute, t.Second)
		return appendU32(b, t.Microsecond)
	case t.Hour != 0 || t.Minute != 0 || t.Second != 0:
		b = append(b, 7)
		b = appendU16(b, t.Year)
		return append(b, t.Month, t.Day, t.Hour, t.Minute, t.Second)
	case t.Year != 0 || t.Month != 0 || t.Day != 0:
		b = append(b, 4)
		b = appendU16(b, t.Year)
		return append(b, t.Month, t.Day)
	}
	return append(b, 0)
}

// appendBinaryDuration appends a binary TIME: a length (0, 8 or 12), the
// sign, days, hours, minutes, seconds, microseconds.
func appendBinaryDuration(b []byte, d types.Duration) []byte {
	v := d.D
	if v == 0 {
		return append(b, 0)
	}
	neg := byte(0)
	if v < 0 {
		neg = 1
		v = -v
	}
	days := uint32(v / (24 * time.Hour))
	v -= time.Duration(days) * 24 * time.Hour
	h := byte(v / time.Hour)
	v -= time.Duration(h) * time.Hour
	m := byte(v / time.Minute)
	v -= time.Duration(m) * time.Minute
	s := byte(v / time.Second)
	v -= time.Duration(s) * time.Second
	micro := uint32(v / time.Microsecond)
	if micro != 0 {
		b = append(b, 12, neg)
	} else {
		b = append(b, 8, neg)
	}
	b = appendU32(b, days)
	b = append(b, h, m, s)
	if micro != 0 {
		b = appendU32(b, micro)
	}
	return b
}
