package exec

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/planner"
)

// pointGet reads rows by handle (one Get, or one BatchGet for an IN list)
// or by the full key of a unique index (a Get of the entry, then the row).
type pointGet struct {
	base
	p    *planner.PointGet
	dec  rowDecoder
	done bool
}

func (e *pointGet) maxRows() int { return max(len(e.p.Handles), len(e.p.IndexValues)) }

func (e *pointGet) Open(context.Context) error {
	if e.dec.t == nil {
		e.dec = newRowDecoder(e.p.Table)
	}
	e.dec.loc = e.ectx.sessionZone()
	e.done = false
	return nil
}

func (e *pointGet) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if e.done {
		return nil
	}
	e.done = true
	handles, err := e.handles(ctx)
	if err != nil {
		return err
	}
	if e.ectx.LockPointReads {
		for _, h := range handles {
			e.ectx.LockKeys = append(e.ectx.LockKeys, e.p.Table.RecordKey(h))
		}
	}
	switch len(handles) {
	case 0:
		return nil
	case 1:
		v, err := e.ectx.Txn.Get(ctx, e.p.Table.RecordKey(handles[0]))
		if errors.Is(err, kv.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		return e.dec.appendRow(chk, handles[0], v)
	}
	keys := make([]kv.Key, len(handles))
	for i, h := range handles {
		keys[i] = e.p.Table.RecordKey(h)
	}
	vals, err := e.ectx.Txn.BatchGet(ctx, keys)
	if err != nil {
		return err
	}
	for i, h := range handles {
		if v, ok := vals[string(keys[i])]; ok {
			if err := e.dec.appendRow(chk, h, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// handles evaluates the handles asked for (deduplicated, in order).
func (e *pointGet) handles(ctx context.Context) ([]int64, error) {
	if e.p.Index != nil {
		return e.indexHandles(ctx)
	}
	out := make([]int64, 0, len(e.p.Handles))
	pk := e.p.Table.PKHandleColumn()
	unsigned := pk != nil && pk.FieldType.IsUnsigned()
	for _, x := range e.p.Handles {
		d, err := x.Eval(e.ectx.Eval, chunk.Row{})
		if err != nil {
			return nil, err
		}
		if h, ok := exactHandle(d, unsigned); ok && !containsHandle(out, h) {
			out = append(out, h)
		}
	}
	return out, nil
}

func containsHandle(hs []int64, h int64) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// indexHandles reads the unique index entries of the key tuples.
func (e *pointGet) indexHandles(ctx context.Context) ([]int64, error) {
	t, idx := e.p.Table, e.p.Index
	var out []int64
tuples:
	for _, vals := range e.p.IndexValues {
		key := codec.IndexPrefix(t.ID, idx.ID)
		for i, x := range vals {
			d, err := x.Eval(e.ectx.Eval, chunk.Row{})
			if err != nil {
				return nil, err
			}
			ft := &t.Columns[idx.Columns[i].Offset].FieldType
			cd, ok := pointValue(d, ft)
			if d.IsNull() || !ok {
				continue tuples
			}
			key = codec.EncodeKey(key, catalog.IndexKeyValue(ft, e.ectx.toStoredTS(ft, cd)))
		}
		if e.ectx.LockPointReads {
			e.ectx.LockKeys = append(e.ectx.LockKeys, key)
		}
		v, err := e.ectx.Txn.Get(ctx, key)
		if errors.Is(err, kv.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		h, err := catalog.IndexEntryHandle(idx, key, v)
		if err != nil {
			return nil, err
		}
		if !containsHandle(out, h) {
			out = append(out, h)
		}
	}
	return out, nil
}
