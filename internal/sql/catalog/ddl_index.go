package catalog

import (
	"context"
	"errors"
	"github.com/strata-db/strata/internal/codec"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// CreateIndex runs CREATE [UNIQUE] INDEX name ON t (cols).
func (c *Catalog) CreateIndex(ctx context.Context, env Env, stmt *ast.CreateIndexStmt) error {
	var unique bool
	switch stmt.KeyType {
	case ast.IndexKeyTypeNone:
	case ast.IndexKeyTypeUnique:
		unique = true
	default:
		return sqlerr.New(mysql.ErrNotSupportedYet, "FULLTEXT/SPATIAL/VECTOR indexes")
	}
	return c.addIndex(ctx, env, stmt.Table, stmt.IndexName, stmt.IndexPartSpecifications, unique, false, stmt.IndexOption, stmt.IfNotExists)
}

// addIndex adds an index to a populated table in three steps:
//
//  1. one transaction adds it in the write-only state (writers maintain
//     it, readers do not use it);
//  2. backfill transactions of BatchSize rows each write the entries of
//     the existing rows (a unique index checks each entry; an entry that
//     a writer already made for the same row is kept);
//  3. one transaction makes it public.
//
// If the backfill fails (a duplicate: 1062), the index is removed from
// the schema and its entries deleted, and the error returned.
func (c *Catalog) addIndex(ctx context.Context, env Env, tn *ast.TableName, name string, keys []*ast.IndexPartSpecification,
	unique, primary bool, opt *ast.IndexOption, ifNotExists bool) error {
	db, err := dbName(env, tn)
	if err != nil {
		return err
	}
	var tableID, indexID int64
	err = c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, tn.Name.O)
		if err != nil {
			return err
		}
		t := old.Clone()
		if primary {
			if t.PKIsHandle || t.PrimaryIndex() != nil {
				return sqlerr.New(mysql.ErrMultiplePriKey)
			}
			name = "PRIMARY"
		} else if name != "" && (t.Index(name) != nil || strings.EqualFold(name, "PRIMARY")) {
			if ifNotExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrDupKeyName, name)
		}
		idx, err := addIndexInfo(t, name, keys, unique, opt)
		if err != nil {
			return err
		}
		idx.Primary = primary
		idx.State = StateWriteOnly
		t.Version++
		tableID, indexID = t.ID, idx.ID
		return putTable(txn, t)
	})
	if errors.Is(err, errNoop) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := c.backfillIndex(ctx, tableID, indexID); err != nil {
		return errors.Join(err, c.removeIndex(ctx, tableID, indexID))
	}
	err = c.alterTableByID(ctx, tableID, func(t *TableInfo) error {
		idx := indexByID(t, indexID)
		if idx == nil {
			return sqlerr.New(mysql.ErrCantDropFieldOrKey, name)
		}
		idx.State = StatePublic
		if idx.Primary {
			for _, ic := range idx.Columns {
				t.Columns[ic.Offset].FieldType.Flag |= mysql.PriKeyFlag | mysql.NotNullFlag
			}
		}
		setKeyFlags(t)
		return nil
	})
	if err != nil {
		// The table or the index went meanwhile (DROP, TRUNCATE): delete
		// what the backfill wrote after the drop deleted the range.
		p := codec.IndexPrefix(tableID, indexID)
		return errors.Join(err, c.deleteRange(ctx, p, prefixEnd(p)))
	}
	return nil
}

func indexByID(t *TableInfo, id int64) *IndexInfo {
	for _, idx := range t.Indices {
		if idx.ID == id {
			return idx
		}
	}
	return nil
}

// alterTableByID applies fn to a clone of table tableID in one DDL
// transaction (1146 if it was dropped meanwhile).
func (c *Catalog) alterTableByID(ctx context.Context, tableID int64, fn func(t *TableInfo) error) error {
	return c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, ok := is.TableByID(tableID)
		if !ok {
			return sqlerr.New(mysql.ErrNoSuchTable, "?", tableID)
		}
		t := old.Clone()
		if err := fn(t); err != nil {
			return err
		}
		t.Version++
		if err := t.init(); err != nil {
			return err
		}
		return putTable(txn, t)
	})
}

// backfillIndex writes the entries of index indexID for every row.
func (c *Catalog) backfillIndex(ctx context.Context, tableID, indexID int64) error {
	is, err := c.Refresh(ctx)
	if err != nil {
		return err
	}
	t, ok := is.TableByID(tableID)
	if !ok {
		return sqlerr.New(mysql.ErrNoSuchTable, "?", tableID)
	}
	idx := indexByID(t, indexID)
	if idx == nil {
		return sqlerr.New(mysql.ErrCantDropFieldOrKey, indexID)
	}
	start, end := t.RecordRange()
	for start != nil {
		var next kv.Key
		err := c.runTxn(ctx, func(txn kv.Transaction) error {
			var err error
			next, err = c.backfillBatch(ctx, txn, t, idx, start, end)
			return err
		})
		if err != nil {
			return err
		}
		start = next
	}
	return nil
}

// backfillBatch indexes up to BatchSize rows from start and returns where
// the next batch starts (nil at the end). Unique entries are checked
// with one BatchGet per batch, and against each other.
func (c *Catalog) backfillBatch(ctx context.Context, txn kv.Transaction, t *TableInfo, idx *IndexInfo, start, end kv.Key) (kv.Key, error) {
	type entry struct {
		key      kv.Key
		handle   int64
		distinct bool
		row      []types.Datum
	}
	it, err := txn.Iter(ctx, start, end)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var entries []entry
	var next kv.Key
	for n := 0; it.Valid() && n < c.opts.BatchSize; n++ {
		_, handle, err := decodeRecordKey(it.Key())
		if err != nil {
			return nil, err
		}
		row, err := t.DecodeRecord(handle, it.Value())
		if err != nil {
			return nil, err
		}
		if idx.Primary {
			for _, ic := range idx.Columns {
				if row[ic.Offset].IsNull() {
					return nil, sqlerr.New(mysql.ErrInvalidUseOfNull)
				}
			}
		}
		key, distinct := t.IndexKey(idx, row, handle)
		e := entry{key: key, handle: handle, distinct: distinct}
		if distinct {
			e.row = cloneRow(row) // decoded strings alias the iterator's value
		}
		entries = append(entries, e)
		next = it.Key().Clone().Next()
		if err := it.Next(); err != nil {
			return nil, err
		}
	}
	if !it.Valid() {
		next = nil
	}
	var check []kv.Key
	for _, e := range entries {
		if e.distinct {
			check = append(check, e.key)
		}
	}
	var existing map[string][]byte
	if len(check) > 0 {
		if existing, err = txn.BatchGet(ctx, check); err != nil {
			return nil, err
		}
	}
	seen := make(map[string]int64, len(check))
	for _, e := range entries {
		if e.distinct {
			k := string(e.key)
			if v, ok := existing[k]; ok {
				// An entry a writer made for the same row is kept.
				if h, _ := IndexEntryHandle(idx, e.key, v); h != e.handle {
					return nil, DupEntryError(t, idx, e.row)
				}
			}
			if h, ok := seen[k]; ok && h != e.handle {
				return nil, DupEntryError(t, idx, e.row)
			}
			seen[k] = e.handle
		}
		if err := txn.Set(e.key, IndexValue(e.handle, e.distinct)); err != nil {
			return nil, err
		}
	}
	if c.hooks.afterBackfillBatch != nil {
		c.hooks.afterBackfillBatch()
	}
	return next, nil
}

func cloneRow(row []types.Datum) []types.Datum {
	out := make([]types.Datum, len(row))
	for i := range row {
		out[i] = row[i].Clone()
	}
	return out
}

// DupEntryError is MySQL's 1062 for row's values in unique index idx
// ("Duplicate entry '1-a' for key 't.idx'").
func DupEntryError(t *TableInfo, idx *IndexInfo, row []types.Datum) error {
	vals := idx.IndexValues(row)
	parts := make([]string, len(vals))
	for i := range vals {
		parts[i] = vals[i].String()
	}
	return sqlerr.New(mysql.ErrDupEntry, strings.Join(parts, "-"), t.Name+"."+idx.Name)
}

// removeIndex takes index indexID out of the schema and deletes its
// entries (a failed ADD INDEX, or DROP INDEX).
func (c *Catalog) removeIndex(ctx context.Context, tableID, indexID int64) error {
	var t *TableInfo
	err := c.alterTableByID(ctx, tableID, func(nt *TableInfo) error {
		dropIndexInfo(nt, indexID)
		t = nt
		return nil
	})
	if err != nil {
		return err
	}
	p := t.indexPrefix(indexID)
	return c.deleteRange(ctx, p, prefixEnd(p))
}

// dropIndexInfo removes index id from t and recomputes key flags.
func dropIndexInfo(t *TableInfo, id int64) {
	for i, idx := range t.Indices {
		if idx.ID != id {
			continue
		}
		if idx.Primary && idx.State == StatePublic {
			for _, ic := range idx.Columns {
				t.Columns[ic.Offset].FieldType.Flag &^= mysql.PriKeyFlag
			}
		}
		t.Indices = append(t.Indices[:i:i], t.Indices[i+1:]...)
		break
	}
	setKeyFlags(t)
}

// DropIndex runs DROP INDEX [IF EXISTS] name ON t.
func (c *Catalog) DropIndex(ctx context.Context, env Env, stmt *ast.DropIndexStmt) error {
	return c.dropIndex(ctx, env, stmt.Table, stmt.IndexName, stmt.IfExists)
}

// dropIndex removes the index from the schema in one transaction (1091
// when missing; 1075 when the AUTO_INCREMENT column would be left without
// a key), then deletes its entries.
func (c *Catalog) dropIndex(ctx context.Context, env Env, tn *ast.TableName, name string, ifExists bool) error {
	db, err := dbName(env, tn)
	if err != nil {
		return err
	}
	var t *TableInfo
	var indexID int64
	err = c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, tn.Name.O)
		if err != nil {
			return err
		}
		nt := old.Clone()
		idx := nt.Index(name)
		if idx == nil {
			if strings.EqualFold(name, "PRIMARY") && nt.PKIsHandle {
				return sqlerr.New(mysql.ErrNotSupportedYet, "dropping a clustered primary key")
			}
			if ifExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrCantDropFieldOrKey, name)
		}
		if err := checkDropIndexFK(is, db, nt, idx); err != nil {
			return err
		}
		indexID = idx.ID
		dropIndexInfo(nt, idx.ID)
		if err := checkAutoIncrement(nt); err != nil {
			return err
		}
		nt.Version++
		t = nt
		return putTable(txn, nt)
	})
	if errors.Is(err, errNoop) {
		return nil
	}
	if err != nil {
		return err
	}
	p := t.indexPrefix(indexID)
	return c.deleteRange(ctx, p, prefixEnd(p))
}
