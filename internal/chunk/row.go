package chunk

import (
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// Row is one row of a chunk: the chunk and the row's index. It is valid
// until the chunk is Reset. Its getters are the method set the MySQL
// protocol layer writes result rows from.
type Row struct {
	c   *Chunk
	idx int
}

// Chunk returns the row's chunk.
func (r Row) Chunk() *Chunk { return r.c }

// Idx returns the row's index in its chunk.
func (r Row) Idx() int { return r.idx }

// Len returns the number of columns.
func (r Row) Len() int { return len(r.c.cols) }

// IsNull reports whether column col is NULL.
func (r Row) IsNull(col int) bool { return r.c.cols[col].IsNull(r.idx) }

// GetInt64 returns column col as a signed integer.
func (r Row) GetInt64(col int) int64 { return r.c.cols[col].GetInt64(r.idx) }

// GetUint64 returns column col as an unsigned integer.
func (r Row) GetUint64(col int) uint64 { return r.c.cols[col].GetUint64(r.idx) }

// GetFloat32 returns column col as a float.
func (r Row) GetFloat32(col int) float32 { return r.c.cols[col].GetFloat32(r.idx) }

// GetFloat64 returns column col as a double.
func (r Row) GetFloat64(col int) float64 { return r.c.cols[col].GetFloat64(r.idx) }

// GetBytes returns column col's bytes (aliasing the chunk).
func (r Row) GetBytes(col int) []byte { return r.c.cols[col].GetBytes(r.idx) }

// GetString returns column col as a string (a copy).
func (r Row) GetString(col int) string { return r.c.cols[col].GetString(r.idx) }

// GetDecimal returns column col's decimal (aliasing the chunk).
func (r Row) GetDecimal(col int) *types.Decimal { return r.c.cols[col].GetDecimal(r.idx) }

// GetTime returns column col as a time (type and fsp from the column).
func (r Row) GetTime(col int) types.Time { return r.c.cols[col].GetTime(r.idx) }

// GetDuration returns column col as a TIME value.
func (r Row) GetDuration(col int) types.Duration { return r.c.cols[col].GetDuration(r.idx) }

// GetDatum returns column col as a datum of type ft. String and decimal
// datums alias the chunk; Clone them to keep them past a Reset.
func (r Row) GetDatum(col int, ft *types.FieldType) types.Datum {
	c := r.c.cols[col]
	if c.IsNull(r.idx) {
		return types.NewNullDatum()
	}
	switch ft.EvalType() {
	case types.ETInt:
		if ft.IsUnsigned() {
			return types.NewUintDatum(c.GetUint64(r.idx))
		}
		return types.NewIntDatum(c.GetInt64(r.idx))
	case types.ETReal:
		if ft.Tp == mysql.TypeFloat {
			return types.NewFloat32Datum(c.GetFloat32(r.idx))
		}
		return types.NewFloat64Datum(c.GetFloat64(r.idx))
	case types.ETDecimal:
		return types.NewDecimalDatum(c.GetDecimal(r.idx))
	case types.ETDatetime:
		return types.NewTimeDatum(types.TimeFromPacked(c.GetPackedTime(r.idx), ft.Tp, ft.Fsp()))
	case types.ETDuration:
		return types.NewDurationDatum(types.Duration{D: c.GetDuration(r.idx).D, Fsp: ft.Fsp()})
	}
	switch ft.Tp {
	case mysql.TypeEnum:
		b := c.GetBytes(r.idx)
		return types.NewEnumDatumBytes(b, ft.EnumIndexBytes(b))
	case mysql.TypeSet:
		b := c.GetBytes(r.idx)
		return types.NewSetDatumBytes(b, ft.SetMask(b))
	case mysql.TypeJSON:
		return types.NewJSONDatumBinary(c.GetBytes(r.idx))
	}
	if ft.IsBinaryString() {
		return types.NewBytesDatum(c.GetBytes(r.idx))
	}
	return types.NewStringDatumBytes(c.GetBytes(r.idx))
}

// GetDatums returns all columns as datums of types fts.
func (r Row) GetDatums(fts []*types.FieldType) []types.Datum {
	out := make([]types.Datum, len(fts))
	for i, ft := range fts {
		out[i] = r.GetDatum(i, ft)
	}
	return out
}
