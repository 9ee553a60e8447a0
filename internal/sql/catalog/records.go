package catalog

import (
	"context"
	"errors"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Row writes for DML, on the encode helpers of tables.go. They keep the
// invariant every reader relies on: a row and the entries of all writable
// indexes are written and deleted together, in the caller's transaction.
// Executors that batch their duplicate checks (one BatchGet for a
// multi-row INSERT) may use the encode helpers directly instead.

// AddRecord writes a new row and its index entries in txn. It first
// checks with reads that the handle (when it is the primary key) and every
// distinct unique entry are free, returning MySQL's 1062 before writing
// anything otherwise.
func (t *TableInfo) AddRecord(ctx context.Context, txn kv.Transaction, handle int64, row []types.Datum) error {
	key, value := t.EncodeRecord(handle, row)
	if t.PKIsHandle {
		if err := mustBeAbsent(ctx, txn, key); err != nil {
			if errors.Is(err, errTaken) {
				return sqlerr.New(mysql.ErrDupEntry, strconv.FormatInt(handle, 10), t.Name+".PRIMARY")
			}
			return err
		}
	}
	var puts []indexChange
	for _, idx := range t.WritableIndices() {
		ik, distinct := t.IndexKey(idx, row, handle)
		puts = append(puts, indexChange{idx: idx, key: ik, distinct: distinct})
	}
	if err := t.checkUnique(ctx, txn, puts, row); err != nil {
		return err
	}
	for _, p := range puts {
		if err := txn.Set(p.key, IndexValue(handle, p.distinct)); err != nil {
			return err
		}
	}
	return txn.Set(key, value)
}

// indexChange is an index entry to write.
type indexChange struct {
	idx      *IndexInfo
	key      kv.Key
	distinct bool
	old      kv.Key // the entry it replaces (UpdateRecord)
}

// checkUnique returns 1062 when a distinct entry to write is taken.
func (t *TableInfo) checkUnique(ctx context.Context, txn kv.Transaction, puts []indexChange, row []types.Datum) error {
	for _, p := range puts {
		if !p.distinct {
			continue
		}
		if err := mustBeAbsent(ctx, txn, p.key); err != nil {
			if errors.Is(err, errTaken) {
				return DupEntryError(t, p.idx, row)
			}
			return err
		}
	}
	return nil
}

// RemoveRecord deletes row (as stored under handle) and its index
// entries in txn.
func (t *TableInfo) RemoveRecord(txn kv.Transaction, handle int64, row []types.Datum) error {
	for _, idx := range t.WritableIndices() {
		ik, _ := t.IndexKey(idx, row, handle)
		if err := txn.Delete(ik); err != nil {
			return err
		}
	}
	return txn.Delete(t.RecordKey(handle))
}

// UpdateRecord replaces row old under handle with row new in txn,
// rewriting only the index entries that change, after checking those of
// unique indexes (1062, with nothing written). A change of the
// primary-key handle is a RemoveRecord plus an AddRecord, the caller's.
func (t *TableInfo) UpdateRecord(ctx context.Context, txn kv.Transaction, handle int64, old, new []types.Datum) error {
	var puts []indexChange
	for _, idx := range t.WritableIndices() {
		ok, _ := t.IndexKey(idx, old, handle)
		nk, distinct := t.IndexKey(idx, new, handle)
		if string(ok) != string(nk) {
			puts = append(puts, indexChange{idx: idx, key: nk, distinct: distinct, old: ok})
		}
	}
	if err := t.checkUnique(ctx, txn, puts, new); err != nil {
		return err
	}
	for _, p := range puts {
		if err := txn.Delete(p.old); err != nil {
			return err
		}
		if err := txn.Set(p.key, IndexValue(handle, p.distinct)); err != nil {
			return err
		}
	}
	key, value := t.EncodeRecord(handle, new)
	return txn.Set(key, value)
}

var errTaken = errors.New("catalog: key taken")

func mustBeAbsent(ctx context.Context, txn kv.Transaction, k kv.Key) error {
	_, err := txn.Get(ctx, k)
	switch {
	case err == nil:
		return errTaken
	case errors.Is(err, kv.ErrNotExist):
		return nil
	}
	return err
}
