package chunk

import "github.com/strata-db/strata/internal/types"

// DefaultCapacity is the number of rows executors put in a chunk by default
// (TiDB's tidb_max_chunk_size default).
const DefaultCapacity = 1024

// Chunk is a columnar batch of rows: one Column per field, all of the same
// length. A chunk with no columns (SELECT COUNT(*) feeding nothing) counts
// its rows in a virtual row count.
type Chunk struct {
	cols        []*Column
	fts         []*types.FieldType
	capacity    int
	virtualRows int
}

// New returns an empty chunk for fields of types fts with room for capacity
// rows (it grows past capacity; IsFull tells executors when to stop).
func New(fts []*types.FieldType, capacity int) *Chunk {
	c := &Chunk{cols: make([]*Column, len(fts)), fts: fts, capacity: capacity}
	for i, ft := range fts {
		c.cols[i] = NewColumn(ft, capacity)
	}
	return c
}

// FieldTypes returns the types the chunk was made with.
func (c *Chunk) FieldTypes() []*types.FieldType { return c.fts }

// NumCols returns the number of columns.
func (c *Chunk) NumCols() int { return len(c.cols) }

// NumRows returns the number of rows.
func (c *Chunk) NumRows() int {
	if len(c.cols) == 0 {
		return c.virtualRows
	}
	return c.cols[0].length
}

// SetNumVirtualRows sets the row count of a chunk without columns.
func (c *Chunk) SetNumVirtualRows(n int) { c.virtualRows = n }

// Capacity returns the row capacity the chunk was made with.
func (c *Chunk) Capacity() int { return c.capacity }

// IsFull reports whether the chunk holds Capacity rows or more.
func (c *Chunk) IsFull() bool { return c.NumRows() >= c.capacity }

// Reset empties the chunk, keeping its memory; rows, slices and decimals
// handed out before are invalid afterwards.
func (c *Chunk) Reset() {
	for _, col := range c.cols {
		col.Reset()
	}
	c.virtualRows = 0
}

// Column returns column i.
func (c *Chunk) Column(i int) *Column { return c.cols[i] }

// GetRow returns row i.
func (c *Chunk) GetRow(i int) Row { return Row{c: c, idx: i} }

// AppendNull appends NULL to column col.
func (c *Chunk) AppendNull(col int) { c.cols[col].AppendNull() }

// AppendInt64 appends v to column col.
func (c *Chunk) AppendInt64(col int, v int64) { c.cols[col].AppendInt64(v) }

// AppendUint64 appends v to column col.
func (c *Chunk) AppendUint64(col int, v uint64) { c.cols[col].AppendUint64(v) }

// AppendFloat32 appends v to column col.
func (c *Chunk) AppendFloat32(col int, v float32) { c.cols[col].AppendFloat32(v) }

// AppendFloat64 appends v to column col.
func (c *Chunk) AppendFloat64(col int, v float64) { c.cols[col].AppendFloat64(v) }

// AppendBytes appends a copy of b to column col.
func (c *Chunk) AppendBytes(col int, b []byte) { c.cols[col].AppendBytes(b) }

// AppendString appends s to column col.
func (c *Chunk) AppendString(col int, s string) { c.cols[col].AppendString(s) }

// AppendDecimal appends a copy of d to column col.
func (c *Chunk) AppendDecimal(col int, d *types.Decimal) { c.cols[col].AppendDecimal(d) }

// AppendTime appends t to column col.
func (c *Chunk) AppendTime(col int, t types.Time) { c.cols[col].AppendTime(t) }

// AppendDuration appends d to column col.
func (c *Chunk) AppendDuration(col int, d types.Duration) { c.cols[col].AppendDuration(d) }

// AppendDatum appends d to column col (see Column.AppendDatum).
func (c *Chunk) AppendDatum(col int, d *types.Datum) { c.cols[col].AppendDatum(d) }

// AppendRow appends a copy of r, a row of a chunk with the same field
// types.
func (c *Chunk) AppendRow(r Row) {
	for i, col := range c.cols {
		col.appendFrom(r.c.cols[i], r.idx)
	}
	if len(c.cols) == 0 {
		c.virtualRows++
	}
}

// AppendPartialRow appends r's columns to columns colOff, colOff+1, ... of
// c (a join writes its two sides side by side this way).
func (c *Chunk) AppendPartialRow(colOff int, r Row) {
	for i, src := range r.c.cols {
		c.cols[colOff+i].appendFrom(src, r.idx)
	}
}
