package exec

import (
	"context"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// indexLookUp scans the index entries of each range in turn, and for
// every batch of entries reads the rows they point to with one BatchGet,
// returning rows in index order. A handle seen twice (overlapping ranges)
// is returned once.
type indexLookUp struct {
	base
	p     *planner.IndexLookUp
	dec   rowDecoder
	rng   int
	iter  kv.Iterator
	seen  map[int64]struct{}
	batch []int64
	keys  []kv.Key
	spans []keySpan
	// exact: the ranges alone check the plan's RangeConds.
	exact bool
	// index-only reads: table column → index column (-1 none), and the
	// decoded values of the current entry.
	fromIdx []int
	idxVals []types.Datum
}

func (e *indexLookUp) Open(context.Context) error {
	if e.dec.t == nil {
		e.dec = newRowDecoder(e.p.Table)
	}
	e.dec.loc = e.ectx.sessionZone()
	e.rng = 0
	e.seen = nil
	if len(e.p.Ranges) > 1 {
		e.seen = make(map[int64]struct{})
	}
	e.spans = e.spans[:0]
	e.exact = true
	for i := range e.p.Ranges {
		start, end, empty, exact, err := indexKeyRange(e.ectx, e.p, &e.p.Ranges[i])
		if err != nil {
			return err
		}
		if !empty {
			e.spans = append(e.spans, keySpan{start, end})
			e.exact = e.exact && exact
		}
	}
	return nil
}

// keySpan is a key range [start, end).
type keySpan struct{ start, end kv.Key }

func (e *indexLookUp) rangeExact() bool { return e.exact }

// nextIter opens the iterator of the next range; false when all ranges
// are done.
func (e *indexLookUp) nextIter(ctx context.Context) (bool, error) {
	if e.iter != nil {
		return true, nil
	}
	if e.rng >= len(e.spans) {
		return false, nil
	}
	sp := e.spans[e.rng]
	e.rng++
	var err error
	if e.p.Desc {
		e.iter, err = e.ectx.Txn.IterReverse(ctx, sp.start, sp.end)
	} else {
		e.iter, err = e.ectx.Txn.Iter(ctx, sp.start, sp.end)
	}
	return err == nil, err
}

func (e *indexLookUp) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	e.batch = e.batch[:0]
	for len(e.batch) < chk.Capacity() {
		ok, err := e.nextIter(ctx)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if !e.iter.Valid() {
			e.iter.Close()
			e.iter = nil
			continue
		}
		h, err := catalog.IndexEntryHandle(e.p.Index, e.iter.Key(), e.iter.Value())
		if err != nil {
			return err
		}
		if e.seen != nil {
			if _, dup := e.seen[h]; dup {
				if err := e.iter.Next(); err != nil {
					return err
				}
				continue
			}
			e.seen[h] = struct{}{}
		}
		if e.p.IndexOnly {
			if err := e.appendIndexRow(chk, e.iter.Key(), h); err != nil {
				return err
			}
		}
		if err := e.iter.Next(); err != nil {
			return err
		}
		e.batch = append(e.batch, h)
	}
	if len(e.batch) == 0 || e.p.IndexOnly {
		return nil
	}
	e.keys = e.keys[:0]
	for _, h := range e.batch {
		e.keys = append(e.keys, e.p.Table.RecordKey(h))
	}
	vals, err := e.ectx.Txn.BatchGet(ctx, e.keys)
	if err != nil {
		return err
	}
	for i, h := range e.batch {
		if v, ok := vals[string(e.keys[i])]; ok {
			if err := e.dec.appendRow(chk, h, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// appendIndexRow appends an index-only row: the index columns decoded
// from the entry key, the handle (and the int primary key, which is the
// handle), NULL for the other columns.
func (e *indexLookUp) appendIndexRow(chk *chunk.Chunk, key []byte, h int64) error {
	_, _, vals, err := codec.DecodeIndexKey(key)
	if err != nil {
		return err
	}
	t := e.p.Table
	if e.fromIdx == nil {
		e.fromIdx = make([]int, len(t.Columns))
		for i := range e.fromIdx {
			e.fromIdx[i] = -1
		}
		for j, ic := range e.p.Index.Columns {
			e.fromIdx[ic.Offset] = j
		}
		e.idxVals = make([]types.Datum, len(e.p.Index.Columns))
	}
	for j, ic := range e.p.Index.Columns {
		if vals, e.idxVals[j], err = codec.DecodeKeyValue(vals, &t.Columns[ic.Offset].FieldType); err != nil {
			return err
		}
	}
	pk := t.PKHandleColumn()
	for i, c := range t.Columns {
		switch {
		case e.fromIdx[i] >= 0:
			d := e.ectx.toShownTS(&c.FieldType, e.idxVals[e.fromIdx[i]])
			chk.AppendDatum(i, &d)
		case pk != nil && c == pk:
			chk.AppendInt64(i, h)
		default:
			chk.AppendNull(i)
		}
	}
	chk.AppendInt64(len(t.Columns), h)
	return nil
}

func (e *indexLookUp) Close() error {
	if e.iter != nil {
		e.iter.Close()
		e.iter = nil
	}
	return nil
}
