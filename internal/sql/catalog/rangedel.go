package catalog

import (
	"context"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
)

// deleteRange deletes every key in [start, end) in transactions of at
// most BatchSize keys each. It runs after the metadata change that made
// the range unreachable, so no statement writes into it meanwhile.
func (c *Catalog) deleteRange(ctx context.Context, start, end kv.Key) error {
	for {
		var next kv.Key
		err := c.runTxn(ctx, func(txn kv.Transaction) error {
			next = nil
			it, err := txn.Iter(ctx, start, end)
			if err != nil {
				return err
			}
			defer it.Close()
			n := 0
			for ; it.Valid() && n < c.opts.BatchSize; n++ {
				k := it.Key().Clone()
				if err := txn.Delete(k); err != nil {
					return err
				}
				next = k.Next()
				if err := it.Next(); err != nil {
					return err
				}
			}
			if !it.Valid() {
				next = nil
			}
			return nil
		})
		if err != nil || next == nil {
			return err
		}
		start = next
	}
}

// deleteTableData deletes all rows and index entries of table tableID.
func (c *Catalog) deleteTableData(ctx context.Context, tableID int64) error {
	p := codec.TablePrefix(tableID)
	return c.deleteRange(ctx, p, codec.PrefixEnd(p))
}
