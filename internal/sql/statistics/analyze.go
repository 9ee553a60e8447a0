package statistics

import (
	"context"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
)

// Collect reads every row of tbl in snap and builds its statistics
// (Collector over the table's record range).
func Collect(ctx context.Context, snap kv.Snapshot, tbl *catalog.TableInfo, opts Options) (*Table, error) {
	start, end := tbl.RecordRange()
	it, err := snap.Iter(ctx, start, end)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	c := NewCollector(tbl, opts)
	for it.Valid() {
		if c.Rows()%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		_, handle, err := codec.DecodeRecordKey(it.Key())
		if err != nil {
			return nil, err
		}
		row, err := tbl.DecodeRecord(handle, it.Value())
		if err != nil {
			return nil, err
		}
		c.Add(row)
		if err := it.Next(); err != nil {
			return nil, err
		}
	}
	return c.Finish(), nil
}
