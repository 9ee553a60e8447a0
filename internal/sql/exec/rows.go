package exec

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/catalog"
)

// rowDecoder appends stored rows of one table to chunks of the table
// source layout: all columns in offset order, then the handle.
type rowDecoder struct {
	t    *catalog.TableInfo
	cols []codec.ColInfo
}

func newRowDecoder(t *catalog.TableInfo) rowDecoder {
	return rowDecoder{t: t, cols: t.ColInfos()}
}

// appendRow decodes value (the row stored under handle) into chk.
func (d *rowDecoder) appendRow(chk *chunk.Chunk, handle int64, value []byte) error {
	if err := codec.DecodeRowToChunk(value, d.cols, handle, chk); err != nil {
		return err
	}
	chk.AppendInt64(len(d.cols), handle)
	return nil
}
