package statistics

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
)

// Storage layout, in the metadata key space beside the catalog's:
//
//	MetaHash("StatsMeta")["{tableID}"]          Meta JSON (counts, version)
//	MetaHash("Stats:{tableID}")["C:{colID}"]    Hist JSON of a column
//	MetaHash("Stats:{tableID}")["I:{indexID}"]  Hist JSON of an index
//
// An ANALYZE replaces a table's Hists and resets its Meta in one
// transaction with a new Version; modification counts are added to the
// Meta by each server's periodic flush. Readers load every Meta (small)
// and reload the Hists of a table only when its Version moved.
var metaHash = []byte("StatsMeta")

func histHash(tableID int64) []byte { return []byte("Stats:" + strconv.FormatInt(tableID, 10)) }

func metaKey(tableID int64) kv.Key {
	return codec.MetaHashKey(metaHash, []byte(strconv.FormatInt(tableID, 10)))
}

func histField(h *Hist) []byte {
	if h.IsIndex {
		return []byte("I:" + strconv.FormatInt(h.ID, 10))
	}
	return []byte("C:" + strconv.FormatInt(h.ID, 10))
}

// readMeta reads a table's Meta (zero when absent).
func readMeta(ctx context.Context, s kv.Snapshot, tableID int64) (Meta, error) {
	var m Meta
	v, err := s.Get(ctx, metaKey(tableID))
	if errors.Is(err, kv.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(v, &m); err != nil {
		return m, fmt.Errorf("statistics: meta of table %d: %w", tableID, err)
	}
	return m, nil
}

func writeMeta(txn kv.Transaction, tableID int64, m Meta) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return txn.Set(metaKey(tableID), b)
}

// save writes t (built by ANALYZE) in txn, replacing the table's former
// statistics, with a new version: txn's start timestamp. The counts of
// modifications since are reset.
func save(ctx context.Context, txn kv.Transaction, t *Table, analyzeTime int64) (Meta, error) {
	prefix := codec.MetaHashPrefix(histHash(t.ID))
	it, err := txn.Iter(ctx, prefix, codec.PrefixEnd(prefix))
	if err != nil {
		return Meta{}, err
	}
	var old []kv.Key
	for it.Valid() {
		old = append(old, append(kv.Key(nil), it.Key()...))
		if err := it.Next(); err != nil {
			it.Close()
			return Meta{}, err
		}
	}
	it.Close()
	for _, k := range old {
		if err := txn.Delete(k); err != nil {
			return Meta{}, err
		}
	}
	for _, hs := range []map[int64]*Hist{t.Columns, t.Indices} {
		for _, h := range hs {
			b, err := json.Marshal(h)
			if err != nil {
				return Meta{}, err
			}
			if err := txn.Set(codec.MetaHashKey(histHash(t.ID), histField(h)), b); err != nil {
				return Meta{}, err
			}
		}
	}
	m := Meta{Version: txn.StartTS(), Count: t.Meta.Count, AnalyzeTime: analyzeTime}
	return m, writeMeta(txn, t.ID, m)
}

// loadMetas reads every table's Meta.
func loadMetas(ctx context.Context, s kv.Snapshot) (map[int64]Meta, error) {
	prefix := codec.MetaHashPrefix(metaHash)
	it, err := s.Iter(ctx, prefix, codec.PrefixEnd(prefix))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	out := map[int64]Meta{}
	for it.Valid() {
		_, field, err := codec.DecodeMetaHashKey(it.Key())
		if err != nil {
			return nil, err
		}
		id, err := strconv.ParseInt(string(field), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("statistics: bad meta field %q", field)
		}
		var m Meta
		if err := json.Unmarshal(it.Value(), &m); err != nil {
			return nil, fmt.Errorf("statistics: meta of table %d: %w", id, err)
		}
		out[id] = m
		if err := it.Next(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// loadHists reads the Hists of table id.
func loadHists(ctx context.Context, s kv.Snapshot, id int64) (cols, idxs map[int64]*Hist, err error) {
	prefix := codec.MetaHashPrefix(histHash(id))
	it, err := s.Iter(ctx, prefix, codec.PrefixEnd(prefix))
	if err != nil {
		return nil, nil, err
	}
	defer it.Close()
	cols, idxs = map[int64]*Hist{}, map[int64]*Hist{}
	for it.Valid() {
		_, field, err := codec.DecodeMetaHashKey(it.Key())
		if err != nil {
			return nil, nil, err
		}
		h := &Hist{}
		if err := json.Unmarshal(it.Value(), h); err != nil {
			return nil, nil, fmt.Errorf("statistics: %s of table %d: %w", field, id, err)
		}
		if strings.HasPrefix(string(field), "I:") {
			idxs[h.ID] = h
		} else {
			cols[h.ID] = h
		}
		if err := it.Next(); err != nil {
			return nil, nil, err
		}
	}
	return cols, idxs, nil
}

// Delta is a change of a table's counts: Count rows more (fewer when
// negative) and Modify rows written.
type Delta struct {
	Count  int64
	Modify int64
}

// Add returns d and o summed.
func (d Delta) Add(o Delta) Delta {
	return Delta{Count: d.Count + o.Count, Modify: d.Modify + o.Modify}
}

// withDelta returns m with d counted.
func (m Meta) withDelta(d Delta) Meta {
	m.Delta += d.Count
	m.ModifyCount += d.Modify
	return m
}

// addDeltas adds deltas to the tables' Metas in txn.
func addDeltas(ctx context.Context, txn kv.Transaction, deltas map[int64]Delta) error {
	for id, d := range deltas {
		m, err := readMeta(ctx, txn, id)
		if err != nil {
			return err
		}
		if err := writeMeta(txn, id, m.withDelta(d)); err != nil {
			return err
		}
	}
	return nil
}

// deleteTable removes a table's statistics in txn.
func deleteTable(ctx context.Context, txn kv.Transaction, id int64) error {
	prefix := codec.MetaHashPrefix(histHash(id))
	it, err := txn.Iter(ctx, prefix, codec.PrefixEnd(prefix))
	if err != nil {
		return err
	}
	var keys []kv.Key
	for it.Valid() {
		keys = append(keys, append(kv.Key(nil), it.Key()...))
		if err := it.Next(); err != nil {
			it.Close()
			return err
		}
	}
	it.Close()
	keys = append(keys, metaKey(id))
	for _, k := range keys {
		if err := txn.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
