package exec

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// builtRow is a row ready to insert.
type builtRow struct {
	row    []types.Datum
	handle int64
}

// insertBatch inserts rows of a plain INSERT (or INSERT IGNORE): the keys
// that decide duplicates (record keys of an int primary key, distinct
// unique-index keys) are read with one BatchGet for the whole statement
// instead of a Get per row; keys written by earlier rows of the statement
// are tracked locally.
func (e *insert) insertBatch(ctx context.Context, t *catalog.TableInfo, rows []builtRow) error {
	var keys []kv.Key
	for _, r := range rows {
		if t.PKIsHandle {
			keys = append(keys, t.RecordKey(r.handle))
		}
		for _, ix := range t.WritableIndices() {
			if ix.Unique {
				if k, distinct := t.IndexKey(ix, r.row, r.handle); distinct {
					keys = append(keys, k)
				}
			}
		}
	}
	_, canPresume := e.ectx.Txn.(presumer)
	presume := e.ectx.PresumeNotExists && !e.p.Ignore && canPresume
	if presume {
		if e.ectx.Presumed == nil {
			e.ectx.Presumed = make(map[string]PresumedKey)
		}
		keys = nil // nothing to read: the prewrite checks them
	}
	var present map[string][]byte
	if len(keys) > 0 {
		var err error
		if present, err = e.ectx.Txn.BatchGet(ctx, keys); err != nil {
			return err
		}
	}
	written := make(map[string]struct{}, len(keys))
	taken := func(k kv.Key) bool {
		if _, ok := written[string(k)]; ok {
			return true
		}
		_, ok := present[string(k)]
		return ok
	}
	for i, r := range rows {
		e.rowNum = i + 1
		var dupIdx *catalog.IndexInfo
		dup := t.PKIsHandle && taken(t.RecordKey(r.handle))
		for _, ix := range t.WritableIndices() {
			if dup || !ix.Unique {
				continue
			}
			if k, distinct := t.IndexKey(ix, r.row, r.handle); distinct && taken(k) {
				dup, dupIdx = true, ix
			}
		}
		if dup {
			if err := e.ignorable(dupError(t, dupIdx, r.row)); err != nil {
				return err
			}
			continue
		}
		if err := e.fk.checkChild(ctx, t, nil, r.row); err != nil {
			if err := e.ignorable(err); err != nil {
				return err
			}
			continue
		}
		if err := writeRow(e.ectx.Txn, t, r.handle, r.row); err != nil {
			return err
		}
		e.ectx.AffectedRows++
		if t.PKIsHandle {
			k := t.RecordKey(r.handle)
			written[string(k)] = struct{}{}
			if presume {
				e.presume(k, PresumedKey{Table: t, Row: r.row})
			}
		}
		for _, ix := range t.WritableIndices() {
			if ix.Unique {
				if k, distinct := t.IndexKey(ix, r.row, r.handle); distinct {
					written[string(k)] = struct{}{}
					if presume {
						e.presume(k, PresumedKey{Table: t, Index: ix, Row: r.row})
					}
				}
			}
		}
	}
	return nil
}

// presumer is implemented by transactions that check a key's absence at
// prewrite (txnclient.Txn).
type presumer interface{ PresumeNotExists(k kv.Key) }

// presume marks k, just written, as presumed absent, and records the
// error to report if it is not.
func (e *insert) presume(k kv.Key, p PresumedKey) {
	e.ectx.Txn.(presumer).PresumeNotExists(k)
	e.ectx.Presumed[string(k)] = p
}
