package session

import (
	"context"
	"errors"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/codec"
)

// splitTableTimeout bounds the background split of a new table's region.
const splitTableTimeout = 30 * time.Second

// splitTable gives table id its own region: a split at the table's key
// prefix, in the background, so the DDL does not wait for it. A failure
// only leaves the table sharing a region; it is logged.
func (d *Domain) splitTable(id int64) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), splitTableTimeout)
		defer cancel()
		err := d.client.SplitRegions(ctx, [][]byte{codec.TablePrefix(id)})
		switch {
		case err == nil:
			d.log.Debug("table region split", "table_id", id)
		case errors.Is(err, txnclient.ErrSplitNotSupported):
			d.log.Debug("table region not split", "table_id", id, "err", err)
		default:
			d.log.Warn("table region not split", "table_id", id, "err", err)
		}
	}()
}
