package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/planner"
)

// tableScan reads the rows of a handle range (or the whole table) in
// handle order, forward or reverse.
type tableScan struct {
	base
	p    *planner.TableScan
	dec  rowDecoder
	iter kv.Iterator
	// exact: the range alone checks the plan's RangeConds.
	exact bool
}

func (e *tableScan) rangeExact() bool { return e.exact }

func (e *tableScan) Open(ctx context.Context) error {
	if e.dec.t == nil {
		e.dec = newPrunedDecoder(e.p.Table, e.p.Needed)
	}
	e.dec.loc = e.ectx.sessionZone()
	e.exact = true
	var start, end kv.Key
	if e.p.Full {
		start, end = e.p.Table.RecordRange()
	} else {
		lo, hi, empty, exact, err := handleRange(e.ectx, &e.p.Range)
		if err != nil || empty {
			e.exact = true
			return err
		}
		e.exact = exact
		start, end = recordKeyRange(e.p.Table.ID, lo, hi)
	}
	var err error
	if e.p.Desc {
		e.iter, err = e.ectx.Txn.IterReverse(ctx, start, end)
	} else {
		e.iter, err = e.ectx.Txn.Iter(ctx, start, end)
	}
	return err
}

func (e *tableScan) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.iter == nil {
		return nil
	}
	for e.iter.Valid() && !chk.IsFull() {
		_, h, err := codec.DecodeRecordKey(e.iter.Key())
		if err != nil {
			return err
		}
		if err := e.dec.appendRow(chk, h, e.iter.Value()); err != nil {
			return err
		}
		if err := e.iter.Next(); err != nil {
			return err
		}
	}
	return nil
}

func (e *tableScan) Close() error {
	if e.iter != nil {
		e.iter.Close()
		e.iter = nil
	}
	return nil
}
