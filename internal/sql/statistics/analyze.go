package statistics

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// Collect reads every row of tbl in snap and builds its statistics
// (a Collector over catalog.ScanTable).
func Collect(ctx context.Context, snap kv.Snapshot, tbl *catalog.TableInfo, opts Options) (*Table, error) {
	c := NewCollector(tbl, opts)
	err := catalog.ScanTable(ctx, snap, tbl, func(_ int64, row []types.Datum) error {
		if c.Rows()%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c.Add(row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c.Finish(), nil
}
