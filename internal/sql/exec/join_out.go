package exec

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// joinOut is a join's output buffer: one input row may produce many
// output rows, so the joins fill rows past the caller's chunk and hand
// them out a chunk at a time.
type joinOut struct {
	rows *chunk.Chunk
	pos  int
}

// reset empties the buffer, allocating it the first time.
func (o *joinOut) reset(fts []*types.FieldType, size int) {
	if o.rows == nil {
		o.rows = chunk.New(fts, size)
	}
	o.rows.Reset()
	o.pos = 0
}

// next resets chk and fills it from the buffer, calling fill to join
// more rows into o.rows while chk has room and done reports input left.
func (o *joinOut) next(chk *chunk.Chunk, done func() bool, fill func() error) error {
	chk.Reset()
	for {
		for o.pos < o.rows.NumRows() && !chk.IsFull() {
			chk.AppendRow(o.rows.GetRow(o.pos))
			o.pos++
		}
		if chk.IsFull() || done() && o.pos >= o.rows.NumRows() {
			return nil
		}
		o.rows.Reset()
		o.pos = 0
		if err := fill(); err != nil {
			return err
		}
	}
}
