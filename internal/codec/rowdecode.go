package codec

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// ColInfo describes a column to decode: its ID in the row, its type, the
// value a row without the column gets (ALTER TABLE ADD COLUMN's default,
// already of type Ft; NULL for none), and whether it is the integer
// primary key whose value is the row's handle (not stored in the row).
type ColInfo struct {
	ID         int64
	Ft         *types.FieldType
	Default    types.Datum
	IsPKHandle bool
	// Skip: the reader does not need the column; it is decoded as NULL.
	Skip bool
}

// rowView is a parsed row header.
type rowView struct {
	large      bool
	numNotNull int
	numNull    int
	ids        []byte
	offs       []byte
	data       []byte
}

func parseRow(row []byte) (rowView, error) {
	var v rowView
	if len(row) < rowHeader || row[0] != rowVersion {
		return v, fmt.Errorf("%w: bad row header", ErrCorrupt)
	}
	v.large = row[1]&rowLarge != 0
	v.numNotNull = int(binary.LittleEndian.Uint16(row[2:]))
	v.numNull = int(binary.LittleEndian.Uint16(row[4:]))
	idSize, offSize := 1, 2
	if v.large {
		idSize, offSize = 4, 4
	}
	n := v.numNotNull + v.numNull
	need := rowHeader + n*idSize + v.numNotNull*offSize
	if len(row) < need {
		return v, fmt.Errorf("%w: short row", ErrCorrupt)
	}
	v.ids = row[rowHeader : rowHeader+n*idSize]
	v.offs = row[rowHeader+n*idSize : need]
	v.data = row[need:]
	if v.numNotNull > 0 && v.offset(v.numNotNull-1) != len(v.data) {
		return v, fmt.Errorf("%w: row data length", ErrCorrupt)
	}
	return v, nil
}

func (v *rowView) id(i int) int64 {
	if v.large {
		return int64(binary.LittleEndian.Uint32(v.ids[i*4:]))
	}
	return int64(v.ids[i])
}

func (v *rowView) offset(i int) int {
	if v.large {
		return int(binary.LittleEndian.Uint32(v.offs[i*4:]))
	}
	return int(binary.LittleEndian.Uint16(v.offs[i*2:]))
}

// find returns the value bytes of column id, whether it is NULL, and
// whether the row has it at all.
func (v *rowView) find(id int64) (val []byte, isNull, found bool) {
	if i, ok := v.search(0, v.numNotNull, id); ok {
		start := 0
		if i > 0 {
			start = v.offset(i - 1)
		}
		end := v.offset(i)
		if start > end || end > len(v.data) {
			return nil, false, false
		}
		return v.data[start:end], false, true
	}
	if _, ok := v.search(v.numNotNull, v.numNotNull+v.numNull, id); ok {
		return nil, true, true
	}
	return nil, false, false
}

func (v *rowView) search(lo, hi int, id int64) (int, bool) {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		mid := v.id(m)
		switch {
		case mid == id:
			return m, true
		case mid < id:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// DecodeRowToChunk decodes the columns cols of row into one new row of chk
// (cols[i] goes to chk's column i): stored values are decoded straight into
// the columns, NULLs appended as NULL, missing columns take their Default,
// and the primary-key handle column gets handle.
func DecodeRowToChunk(row []byte, cols []ColInfo, handle int64, chk *chunk.Chunk) error {
	v, err := parseRow(row)
	if err != nil {
		return err
	}
	for i := range cols {
		c := &cols[i]
		col := chk.Column(i)
		if c.Skip {
			col.AppendNull()
			continue
		}
		if c.IsPKHandle {
			if c.Ft.IsUnsigned() {
				col.AppendUint64(uint64(handle))
			} else {
				col.AppendInt64(handle)
			}
			continue
		}
		val, isNull, found := v.find(c.ID)
		switch {
		case !found:
			col.AppendDatum(&c.Default)
		case isNull:
			col.AppendNull()
		default:
			if err := appendRowValueToColumn(col, val, c.Ft); err != nil {
				return fmt.Errorf("column %d: %w", c.ID, err)
			}
		}
	}
	return nil
}

func appendRowValueToColumn(col *chunk.Column, val []byte, ft *types.FieldType) error {
	switch ft.Tp {
	case mysql.TypeEnum, mysql.TypeSet:
		d, err := decodeEnumSet(val, ft)
		col.AppendBytes(d.GetBytes())
		return err
	}
	switch ft.EvalType() {
	case types.ETInt:
		if ft.IsUnsigned() {
			u, err := decodeCompactUint(val)
			col.AppendUint64(u)
			return err
		}
		i, err := decodeCompactInt(val)
		col.AppendInt64(i)
		return err
	case types.ETReal:
		if len(val) != 8 {
			col.AppendNull()
			return ErrCorrupt
		}
		col.AppendFloat64(math.Float64frombits(binary.LittleEndian.Uint64(val)))
	case types.ETDecimal:
		var d types.Decimal
		err := decodeRowDecimal(val, &d)
		col.AppendDecimal(&d)
		return err
	case types.ETDatetime:
		u, err := decodeCompactUint(val)
		col.AppendPackedTime(u)
		return err
	case types.ETDuration:
		i, err := decodeCompactInt(val)
		col.AppendInt64(i)
		return err
	default:
		col.AppendBytes(val)
	}
	return nil
}

// DecodeRowToDatums decodes the columns cols of row into datums (typed by
// each column's Ft; strings alias row), with the same rules as
// DecodeRowToChunk.
func DecodeRowToDatums(row []byte, cols []ColInfo, handle int64) ([]types.Datum, error) {
	v, err := parseRow(row)
	if err != nil {
		return nil, err
	}
	out := make([]types.Datum, len(cols))
	for i := range cols {
		c := &cols[i]
		if c.IsPKHandle {
			if c.Ft.IsUnsigned() {
				out[i] = types.NewUintDatum(uint64(handle))
			} else {
				out[i] = types.NewIntDatum(handle)
			}
			continue
		}
		val, isNull, found := v.find(c.ID)
		switch {
		case !found:
			out[i] = c.Default
		case isNull:
		default:
			if out[i], err = decodeRowValue(val, c.Ft); err != nil {
				return nil, fmt.Errorf("column %d: %w", c.ID, err)
			}
		}
	}
	return out, nil
}

// decodeEnumSet decodes a stored ENUM index or SET bitmask.
func decodeEnumSet(val []byte, ft *types.FieldType) (types.Datum, error) {
	u, err := decodeCompactUint(val)
	if ft.Tp == mysql.TypeEnum {
		return ft.EnumDatum(u), err
	}
	return ft.SetDatum(u), err
}

func decodeRowValue(val []byte, ft *types.FieldType) (types.Datum, error) {
	switch ft.Tp {
	case mysql.TypeEnum, mysql.TypeSet:
		return decodeEnumSet(val, ft)
	case mysql.TypeJSON:
		return types.NewJSONDatumBinary(val), nil
	}
	switch ft.EvalType() {
	case types.ETInt:
		if ft.IsUnsigned() {
			u, err := decodeCompactUint(val)
			return types.NewUintDatum(u), err
		}
		i, err := decodeCompactInt(val)
		return types.NewIntDatum(i), err
	case types.ETReal:
		if len(val) != 8 {
			return types.Datum{}, ErrCorrupt
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(val))
		if ft.Tp == mysql.TypeFloat {
			return types.NewFloat32Datum(float32(f)), nil
		}
		return types.NewFloat64Datum(f), nil
	case types.ETDecimal:
		d := new(types.Decimal)
		err := decodeRowDecimal(val, d)
		return types.NewDecimalDatum(d), err
	case types.ETDatetime:
		u, err := decodeCompactUint(val)
		return types.NewTimeDatum(types.TimeFromPacked(u, ft.Tp, ft.Fsp())), err
	case types.ETDuration:
		i, err := decodeCompactInt(val)
		return types.NewDurationDatum(types.Duration{D: time.Duration(i), Fsp: ft.Fsp()}), err
	}
	if ft.IsBinaryString() {
		return types.NewBytesDatum(val), nil
	}
	return types.NewStringDatumBytes(val), nil
}
