package chunk

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// layout is how a column stores its values.
type layout byte

const (
	fixed8  layout = iota // int64, uint64, float64, packed time, duration nanoseconds
	fixed4                // float32
	varLen                // bytes: data + offsets
	decimal               // []types.Decimal
)

// Column holds one field's values for the rows of a chunk: a null bitmap
// (bit set = NULL) and either fixed-width little-endian values in data,
// variable-length values in data delimited by offsets, or decimals.
type Column struct {
	lay     layout
	tp      byte // mysql type code (time columns give it to Time values)
	fsp     int8
	length  int
	nulls   []byte
	nullCnt int
	data    []byte
	offsets []int64 // varLen: offsets[i]..offsets[i+1] is row i; len = length+1
	decs    []types.Decimal
}

func layoutOf(ft *types.FieldType) layout {
	switch ft.EvalType() {
	case types.ETReal:
		if ft.Tp == mysql.TypeFloat {
			return fixed4
		}
		return fixed8
	case types.ETDecimal:
		return decimal
	case types.ETString:
		return varLen
	}
	return fixed8
}

// NewColumn returns an empty column for values of type ft with room for
// capacity rows.
func NewColumn(ft *types.FieldType, capacity int) *Column {
	c := &Column{lay: layoutOf(ft), tp: ft.Tp, fsp: ft.Fsp()}
	c.nulls = make([]byte, 0, (capacity+7)/8)
	switch c.lay {
	case fixed8:
		c.data = make([]byte, 0, 8*capacity)
	case fixed4:
		c.data = make([]byte, 0, 4*capacity)
	case varLen:
		c.data = make([]byte, 0, 16*capacity)
		c.offsets = make([]int64, 1, capacity+1)
	case decimal:
		c.decs = make([]types.Decimal, 0, capacity)
	}
	return c
}

// Len returns the number of values.
func (c *Column) Len() int { return c.length }

// NullCount returns the number of NULLs.
func (c *Column) NullCount() int { return c.nullCnt }

// Reset empties the column, keeping its memory. Slices and decimals handed
// out before are overwritten by later appends.
func (c *Column) Reset() {
	c.length, c.nullCnt = 0, 0
	c.nulls = c.nulls[:0]
	c.data = c.data[:0]
	if c.lay == varLen {
		c.offsets = c.offsets[:1]
	}
	c.decs = c.decs[:0]
}

func (c *Column) appendNullBit(isNull bool) {
	if c.length&7 == 0 {
		c.nulls = append(c.nulls, 0)
	}
	if isNull {
		c.nulls[c.length>>3] |= 1 << (c.length & 7)
		c.nullCnt++
	}
	c.length++
}

// IsNull reports whether row i is NULL.
func (c *Column) IsNull(i int) bool {
	return c.nullCnt > 0 && c.nulls[i>>3]&(1<<(i&7)) != 0
}

// AppendNull appends a NULL.
func (c *Column) AppendNull() {
	switch c.lay {
	case fixed8:
		c.data = binary.LittleEndian.AppendUint64(c.data, 0)
	case fixed4:
		c.data = binary.LittleEndian.AppendUint32(c.data, 0)
	case varLen:
		c.offsets = append(c.offsets, int64(len(c.data)))
	case decimal:
		c.decs = append(c.decs, types.Decimal{})
	}
	c.appendNullBit(true)
}

func (c *Column) appendUint64(v uint64) {
	c.data = binary.LittleEndian.AppendUint64(c.data, v)
	c.appendNullBit(false)
}

// AppendInt64 appends a signed integer (integer columns).
func (c *Column) AppendInt64(v int64) { c.appendUint64(uint64(v)) }

// AppendUint64 appends an unsigned integer (unsigned integer columns).
func (c *Column) AppendUint64(v uint64) { c.appendUint64(v) }

// AppendFloat64 appends a double (DOUBLE columns; FLOAT columns store it
// as a float32).
func (c *Column) AppendFloat64(v float64) {
	if c.lay == fixed4 {
		c.AppendFloat32(float32(v))
		return
	}
	c.appendUint64(math.Float64bits(v))
}

// AppendFloat32 appends a float (FLOAT columns; DOUBLE columns widen it).
func (c *Column) AppendFloat32(v float32) {
	if c.lay == fixed8 {
		c.appendUint64(math.Float64bits(float64(v)))
		return
	}
	c.data = binary.LittleEndian.AppendUint32(c.data, math.Float32bits(v))
	c.appendNullBit(false)
}

// AppendBytes appends a string or byte string (copied).
func (c *Column) AppendBytes(b []byte) {
	c.data = append(c.data, b...)
	c.offsets = append(c.offsets, int64(len(c.data)))
	c.appendNullBit(false)
}

// AppendString appends a string (copied).
func (c *Column) AppendString(s string) {
	c.data = append(c.data, s...)
	c.offsets = append(c.offsets, int64(len(c.data)))
	c.appendNullBit(false)
}

// AppendDecimal appends a decimal (copied).
func (c *Column) AppendDecimal(d *types.Decimal) {
	c.decs = append(c.decs, types.Decimal{})
	c.decs[len(c.decs)-1].Set(&d.Decimal)
	c.appendNullBit(false)
}

// AppendTime appends a date/datetime/timestamp in packed form (the
// column's type and fsp are given back by GetTime).
func (c *Column) AppendTime(t types.Time) { c.appendUint64(t.Pack()) }

// AppendPackedTime appends a packed time (types.Time.Pack).
func (c *Column) AppendPackedTime(p uint64) { c.appendUint64(p) }

// AppendDuration appends a TIME value.
func (c *Column) AppendDuration(d types.Duration) { c.appendUint64(uint64(d.D)) }

func (c *Column) u64(i int) uint64 { return binary.LittleEndian.Uint64(c.data[i*8:]) }

// GetInt64 returns row i of an integer column.
func (c *Column) GetInt64(i int) int64 { return int64(c.u64(i)) }

// GetUint64 returns row i of an unsigned integer column.
func (c *Column) GetUint64(i int) uint64 { return c.u64(i) }

// GetFloat64 returns row i of a FLOAT or DOUBLE column.
func (c *Column) GetFloat64(i int) float64 {
	if c.lay == fixed4 {
		return float64(c.GetFloat32(i))
	}
	return math.Float64frombits(c.u64(i))
}

// GetFloat32 returns row i of a FLOAT or DOUBLE column as a float32.
func (c *Column) GetFloat32(i int) float32 {
	if c.lay == fixed8 {
		return float32(math.Float64frombits(c.u64(i)))
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(c.data[i*4:]))
}

// GetBytes returns row i of a string column; the slice aliases the column
// (valid until Reset; do not modify).
func (c *Column) GetBytes(i int) []byte { return c.data[c.offsets[i]:c.offsets[i+1]:c.offsets[i+1]] }

// GetString returns row i of a string column as a string (a copy).
func (c *Column) GetString(i int) string { return string(c.GetBytes(i)) }

// GetDecimal returns row i of a decimal column; the pointer aliases the
// column (valid until Reset; do not modify).
func (c *Column) GetDecimal(i int) *types.Decimal { return &c.decs[i] }

// GetPackedTime returns row i of a time column in packed form.
func (c *Column) GetPackedTime(i int) uint64 { return c.u64(i) }

// SetPackedTime overwrites the time of row i (a decoder converting a
// TIMESTAMP to the session time zone in place).
func (c *Column) SetPackedTime(i int, p uint64) {
	binary.LittleEndian.PutUint64(c.data[i*8:], p)
}

// GetTime returns row i of a time column.
func (c *Column) GetTime(i int) types.Time { return types.TimeFromPacked(c.u64(i), c.tp, c.fsp) }

// GetDuration returns row i of a TIME column.
func (c *Column) GetDuration(i int) types.Duration {
	return types.Duration{D: time.Duration(c.u64(i)), Fsp: c.fsp}
}

// AppendDatum appends d, which must already have the column's type
// (types.ConvertDatum): integer, unsigned, float, string/bytes, decimal,
// time or duration kinds, or NULL. It panics on MinNotNull/MaxValue and on
// a string into a fixed-width column or the like (a caller's bug).
func (c *Column) AppendDatum(d *types.Datum) {
	switch d.Kind() {
	case types.KindNull:
		c.AppendNull()
		return
	case types.KindInt64:
		c.mustFixed(d)
		c.AppendInt64(d.GetInt64())
		return
	case types.KindUint64:
		c.mustFixed(d)
		c.AppendUint64(d.GetUint64())
		return
	case types.KindFloat32, types.KindFloat64:
		if c.lay != fixed4 {
			c.mustFixed(d)
		}
		c.AppendFloat64(d.GetFloat64())
		return
	case types.KindTime:
		c.mustFixed(d)
		c.AppendPackedTime(d.GetPackedTime())
		return
	case types.KindDuration:
		c.mustFixed(d)
		c.AppendDuration(d.GetDuration())
		return
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		if c.lay == varLen {
			if c.tp == mysql.TypeJSON {
				j := d.ToJSON()
				c.AppendBytes(types.EncodeJSON(nil, &j))
				return
			}
			c.AppendBytes(d.GetBytes())
			return
		}
	case types.KindJSON:
		if c.lay == varLen {
			if c.tp == mysql.TypeJSON {
				c.AppendBytes(d.GetBytes())
			} else {
				c.AppendString(d.String())
			}
			return
		}
	case types.KindDecimal:
		if c.lay == decimal {
			c.AppendDecimal(d.GetDecimal())
			return
		}
	}
	panic("chunk: cannot append a " + d.Kind().String() + " datum to this column")
}

func (c *Column) mustFixed(d *types.Datum) {
	if c.lay != fixed8 {
		panic("chunk: cannot append a " + d.Kind().String() + " datum to this column")
	}
}

// appendFrom appends row i of src, a column of the same type.
func (c *Column) appendFrom(src *Column, i int) {
	if src.IsNull(i) {
		c.AppendNull()
		return
	}
	switch c.lay {
	case fixed8:
		c.appendUint64(src.u64(i))
	case fixed4:
		c.AppendFloat32(src.GetFloat32(i))
	case varLen:
		c.AppendBytes(src.GetBytes(i))
	case decimal:
		c.AppendDecimal(src.GetDecimal(i))
	}
}

// AppendColumn appends rows [begin, end) of src and reports true, or
// appends nothing and reports false when src is laid out differently
// (another kind of field type).
func (c *Column) AppendColumn(src *Column, begin, end int) bool {
	if c.lay != src.lay || c.tp != src.tp || c.fsp != src.fsp {
		return false
	}
	w := 0
	switch c.lay {
	case fixed8:
		w = 8
	case fixed4:
		w = 4
	}
	if w == 0 || src.nullCnt > 0 {
		for i := begin; i < end; i++ {
			c.appendFrom(src, i)
		}
		return true
	}
	c.data = append(c.data, src.data[begin*w:end*w]...)
	for i := begin; i < end; i++ {
		c.appendNullBit(false)
	}
	return true
}
