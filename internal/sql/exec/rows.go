package exec

import (
	"time"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/catalog"
)

// rowDecoder appends stored rows of one table to chunks of the table
// source layout: all columns in offset order, then the handle.
type rowDecoder struct {
	t    *catalog.TableInfo
	cols []codec.ColInfo
	// loc: TIMESTAMP columns are shown in this zone (nil: as stored).
	loc *time.Location
}

func newRowDecoder(t *catalog.TableInfo) rowDecoder {
	return rowDecoder{t: t, cols: t.ColInfos()}
}

// newPrunedDecoder decodes only the columns needed marks (nil: all); the
// others are NULL.
func newPrunedDecoder(t *catalog.TableInfo, needed []bool) rowDecoder {
	d := newRowDecoder(t)
	if needed == nil {
		return d
	}
	cols := append([]codec.ColInfo(nil), d.cols...)
	for i := range cols {
		cols[i].Skip = i < len(needed) && !needed[i]
	}
	d.cols = cols
	return d
}

// appendRow decodes value (the row stored under handle) into chk.
func (d *rowDecoder) appendRow(chk *chunk.Chunk, handle int64, value []byte) error {
	if err := codec.DecodeRowToChunk(value, d.cols, handle, chk); err != nil {
		return err
	}
	chk.AppendInt64(len(d.cols), handle)
	showRowTS(chk, chk.NumRows()-1, d.t, d.loc)
	return nil
}
