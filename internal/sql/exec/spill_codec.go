package exec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// ErrSpillCorrupt is returned when bytes read back from a spill file do
// not decode (a truncated or damaged file).
var ErrSpillCorrupt = errors.New("exec: corrupt spill data")

// The spill row format stores a chunk row of known field types column by
// column, each a tag byte (0 NULL, 1 value) and the value as the chunk
// holds it: 8 bytes little endian for integers, DOUBLE bits, packed
// times and duration nanoseconds (so the column's type and fsp come
// back from the field type, as in the chunk); 4 bytes for FLOAT; a
// uvarint length and the bytes for strings, JSON, ENUM, SET and BIT as
// stored; a DECIMAL in its key form, which keeps its scale.

// spillLayout mirrors the chunk's column layouts.
type spillLayout byte

const (
	spillFixed8 spillLayout = iota
	spillFixed4
	spillVar
	spillDecimal
)

func spillLayoutOf(ft *types.FieldType) spillLayout {
	switch ft.EvalType() {
	case types.ETReal:
		if ft.Tp == mysql.TypeFloat {
			return spillFixed4
		}
	case types.ETDecimal:
		return spillDecimal
	case types.ETString:
		return spillVar
	}
	return spillFixed8
}

// rowCodec encodes rows of fixed field types for spill files.
type rowCodec struct {
	fts  []*types.FieldType
	lays []spillLayout
}

func newRowCodec(fts []*types.FieldType) *rowCodec {
	c := &rowCodec{fts: fts, lays: make([]spillLayout, len(fts))}
	for i, ft := range fts {
		c.lays[i] = spillLayoutOf(ft)
	}
	return c
}

// encode appends row r's encoding to b.
func (c *rowCodec) encode(b []byte, r chunk.Row) []byte {
	for i, lay := range c.lays {
		if r.IsNull(i) {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		switch lay {
		case spillFixed8:
			b = binary.LittleEndian.AppendUint64(b, r.GetUint64(i))
		case spillFixed4:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(r.GetFloat32(i)))
		case spillVar:
			v := r.GetBytes(i)
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		case spillDecimal:
			b = codec.EncodeDecimal(b, r.GetDecimal(i))
		}
	}
	return b
}

// decode appends the row encoded in b to chk (whose columns have the
// codec's types). On an error chk may hold part of the row: callers
// drop the chunk.
func (c *rowCodec) decode(b []byte, chk *chunk.Chunk) error {
	for i, lay := range c.lays {
		if len(b) == 0 {
			return fmt.Errorf("%w: row ends at column %d", ErrSpillCorrupt, i)
		}
		tag := b[0]
		b = b[1:]
		col := chk.Column(i)
		if tag == 0 {
			col.AppendNull()
			continue
		}
		if tag != 1 {
			return fmt.Errorf("%w: tag %d at column %d", ErrSpillCorrupt, tag, i)
		}
		switch lay {
		case spillFixed8:
			if len(b) < 8 {
				return fmt.Errorf("%w: short value at column %d", ErrSpillCorrupt, i)
			}
			col.AppendUint64(binary.LittleEndian.Uint64(b))
			b = b[8:]
		case spillFixed4:
			if len(b) < 4 {
				return fmt.Errorf("%w: short value at column %d", ErrSpillCorrupt, i)
			}
			col.AppendFloat32(math.Float32frombits(binary.LittleEndian.Uint32(b)))
			b = b[4:]
		case spillVar:
			v, rest, err := spillBytes(b)
			if err != nil {
				return err
			}
			col.AppendBytes(v)
			b = rest
		case spillDecimal:
			rest, d, err := codec.DecodeDecimal(b)
			if err != nil {
				return fmt.Errorf("%w: decimal at column %d: %v", ErrSpillCorrupt, i, err)
			}
			col.AppendDecimal(d)
			b = rest
		}
	}
	if len(b) != 0 {
		return fmt.Errorf("%w: %d bytes after the row", ErrSpillCorrupt, len(b))
	}
	if len(c.lays) == 0 {
		chk.SetNumVirtualRows(chk.NumRows() + 1)
	}
	return nil
}

// spillBytes cuts a uvarint-length-prefixed value off b.
func spillBytes(b []byte) (v, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, fmt.Errorf("%w: bad length", ErrSpillCorrupt)
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}

// spillUvarint cuts a uvarint off b.
func spillUvarint(b []byte) (uint64, []byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, nil, fmt.Errorf("%w: bad varint", ErrSpillCorrupt)
	}
	return n, b[k:], nil
}

// spillU64 cuts 8 little-endian bytes off b.
func spillU64(b []byte) (uint64, []byte, error) {
	if len(b) < 8 {
		return 0, nil, fmt.Errorf("%w: short value", ErrSpillCorrupt)
	}
	return binary.LittleEndian.Uint64(b), b[8:], nil
}

// encodeSpillDatum appends d with its kind (the aggregation states'
// values, whose types the codec is not told): a kind byte and the value.
func encodeSpillDatum(b []byte, d *types.Datum) []byte {
	b = append(b, byte(d.Kind()))
	switch d.Kind() {
	case types.KindNull, types.KindMinNotNull, types.KindMaxValue:
	case types.KindInt64, types.KindUint64, types.KindFloat32, types.KindFloat64:
		b = binary.LittleEndian.AppendUint64(b, d.GetUint64())
	case types.KindString, types.KindBytes, types.KindJSON:
		b = binary.AppendUvarint(b, uint64(len(d.GetBytes())))
		b = append(b, d.GetBytes()...)
	case types.KindEnum, types.KindSet:
		b = binary.LittleEndian.AppendUint64(b, d.GetEnumValue())
		b = binary.AppendUvarint(b, uint64(len(d.GetBytes())))
		b = append(b, d.GetBytes()...)
	case types.KindDecimal:
		b = codec.EncodeDecimal(b, d.GetDecimal())
	case types.KindTime:
		t := d.GetTime()
		b = binary.LittleEndian.AppendUint64(b, d.GetPackedTime())
		b = append(b, t.Type, byte(t.Fsp))
	case types.KindDuration:
		du := d.GetDuration()
		b = binary.LittleEndian.AppendUint64(b, uint64(du.D))
		b = append(b, byte(du.Fsp))
	}
	return b
}

// decodeSpillDatum cuts a datum of encodeSpillDatum off b; string values
// are copied.
func decodeSpillDatum(b []byte) (types.Datum, []byte, error) {
	if len(b) == 0 {
		return types.Datum{}, nil, fmt.Errorf("%w: missing datum", ErrSpillCorrupt)
	}
	k := types.Kind(b[0])
	b = b[1:]
	var (
		u   uint64
		v   []byte
		err error
	)
	switch k {
	case types.KindNull:
		return types.NewNullDatum(), b, nil
	case types.KindMinNotNull:
		return types.MinNotNullDatum(), b, nil
	case types.KindMaxValue:
		return types.MaxValueDatum(), b, nil
	case types.KindInt64, types.KindUint64, types.KindFloat32, types.KindFloat64:
		if u, b, err = spillU64(b); err != nil {
			return types.Datum{}, nil, err
		}
		switch k {
		case types.KindInt64:
			return types.NewIntDatum(int64(u)), b, nil
		case types.KindUint64:
			return types.NewUintDatum(u), b, nil
		case types.KindFloat32:
			return types.NewFloat32Datum(float32(math.Float64frombits(u))), b, nil
		}
		return types.NewFloat64Datum(math.Float64frombits(u)), b, nil
	case types.KindString, types.KindBytes, types.KindJSON:
		if v, b, err = spillBytes(b); err != nil {
			return types.Datum{}, nil, err
		}
		v = append([]byte{}, v...)
		switch k {
		case types.KindString:
			return types.NewStringDatumBytes(v), b, nil
		case types.KindBytes:
			return types.NewBytesDatum(v), b, nil
		}
		return types.NewJSONDatumBinary(v), b, nil
	case types.KindEnum, types.KindSet:
		if u, b, err = spillU64(b); err != nil {
			return types.Datum{}, nil, err
		}
		if v, b, err = spillBytes(b); err != nil {
			return types.Datum{}, nil, err
		}
		v = append([]byte{}, v...)
		if k == types.KindEnum {
			return types.NewEnumDatumBytes(v, u), b, nil
		}
		return types.NewSetDatumBytes(v, u), b, nil
	case types.KindDecimal:
		rest, d, err := codec.DecodeDecimal(b)
		if err != nil {
			return types.Datum{}, nil, fmt.Errorf("%w: decimal: %v", ErrSpillCorrupt, err)
		}
		return types.NewDecimalDatum(d), rest, nil
	case types.KindTime:
		if u, b, err = spillU64(b); err != nil {
			return types.Datum{}, nil, err
		}
		if len(b) < 2 {
			return types.Datum{}, nil, fmt.Errorf("%w: short time", ErrSpillCorrupt)
		}
		return types.NewTimeDatum(types.TimeFromPacked(u, b[0], int8(b[1]))), b[2:], nil
	case types.KindDuration:
		if u, b, err = spillU64(b); err != nil {
			return types.Datum{}, nil, err
		}
		if len(b) < 1 {
			return types.Datum{}, nil, fmt.Errorf("%w: short duration", ErrSpillCorrupt)
		}
		return types.NewDurationDatum(types.Duration{D: time.Duration(int64(u)), Fsp: int8(b[0])}), b[1:], nil
	}
	return types.Datum{}, nil, fmt.Errorf("%w: datum kind %d", ErrSpillCorrupt, k)
}
