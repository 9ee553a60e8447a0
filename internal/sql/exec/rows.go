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
	// ts are the offsets of the TIMESTAMP columns decoded, shown in loc
	// (nil: as stored).
	ts  []int
	loc *time.Location
}

func newRowDecoder(t *catalog.TableInfo) rowDecoder { return newPrunedDecoder(t, nil) }

// newPrunedDecoder decodes only the columns needed marks (nil: all); the
// others are NULL.
func newPrunedDecoder(t *catalog.TableInfo, needed []bool) rowDecoder {
	d := rowDecoder{t: t, cols: t.ColInfos()}
	if needed != nil {
		d.cols = append([]codec.ColInfo(nil), d.cols...)
		for i := range d.cols {
			d.cols[i].Skip = i < len(needed) && !needed[i]
		}
	}
	for i, c := range d.cols {
		if !c.Skip && isTimestamp(c.Ft) {
			d.ts = append(d.ts, i)
		}
	}
	return d
}

// appendRow decodes value (the row stored under handle) into chk.
func (d *rowDecoder) appendRow(chk *chunk.Chunk, handle int64, value []byte) error {
	if err := codec.DecodeRowToChunk(value, d.cols, handle, chk); err != nil {
		return err
	}
	chk.AppendInt64(len(d.cols), handle)
	if d.loc != nil {
		showRowTS(chk, chk.NumRows()-1, d.ts, d.loc)
	}
	return nil
}
