package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
)

// Metadata layout, on codec's meta-key helpers (codec.MetaKey for strings,
// codec.MetaHashKey for hash fields):
//
//	MetaKey("NextGlobalID")                 last allocated global ID (decimal)
//	MetaKey("SchemaVersionKey")             schema version (decimal)
//	MetaHash("DBs")[ "DB:{id}" ]            DBInfo JSON
//	MetaHash("DB:{dbID}")[ "Table:{id}" ]   TableInfo JSON
//	MetaKey("TID:{tableID}")                last reserved auto ID of a table
var (
	nextGlobalIDKey  = codec.MetaKey([]byte("NextGlobalID"))
	schemaVersionKey = codec.MetaKey([]byte("SchemaVersionKey"))
	dbsHash          = []byte("DBs")
)

func dbField(dbID int64) []byte       { return []byte("DB:" + strconv.FormatInt(dbID, 10)) }
func dbKey(dbID int64) kv.Key         { return codec.MetaHashKey(dbsHash, dbField(dbID)) }
func tablesHash(dbID int64) []byte    { return dbField(dbID) }
func tableField(tableID int64) []byte { return []byte("Table:" + strconv.FormatInt(tableID, 10)) }
func autoIDKey(tableID int64) kv.Key {
	return codec.MetaKey([]byte("TID:" + strconv.FormatInt(tableID, 10)))
}
func tableKey(dbID, tableID int64) kv.Key {
	return codec.MetaHashKey(tablesHash(dbID), tableField(tableID))
}

// getInt reads a decimal counter; a missing key is 0.
func getInt(ctx context.Context, s kv.Snapshot, k kv.Key) (int64, error) {
	v, err := s.Get(ctx, k)
	if errors.Is(err, kv.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("catalog: corrupt counter %q: %w", k, err)
	}
	return n, nil
}

// incInt adds delta to a counter in txn and returns the new value.
func incInt(ctx context.Context, txn kv.Transaction, k kv.Key, delta int64) (int64, error) {
	n, err := getInt(ctx, txn, k)
	if err != nil {
		return 0, err
	}
	n += delta
	return n, txn.Set(k, []byte(strconv.FormatInt(n, 10)))
}

// genGlobalIDs reserves n global IDs (databases and tables) in txn and
// returns the first.
func genGlobalIDs(ctx context.Context, txn kv.Transaction, n int) (int64, error) {
	last, err := incInt(ctx, txn, nextGlobalIDKey, int64(n))
	return last - int64(n) + 1, err
}

// bumpSchemaVersion increments the schema version in txn: every DDL
// transaction does it, so concurrent DDLs conflict and retry, and
// Catalogs notice the change.
func bumpSchemaVersion(ctx context.Context, txn kv.Transaction) (int64, error) {
	return incInt(ctx, txn, schemaVersionKey, 1)
}

func putJSON(txn kv.Transaction, k kv.Key, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return txn.Set(k, b)
}

func putDB(txn kv.Transaction, db *DBInfo) error { return putJSON(txn, dbKey(db.ID), db) }

func putTable(txn kv.Transaction, t *TableInfo) error {
	return putJSON(txn, tableKey(t.DBID, t.ID), t)
}

func deleteTable(txn kv.Transaction, t *TableInfo) error {
	if err := txn.Delete(tableKey(t.DBID, t.ID)); err != nil {
		return err
	}
	return txn.Delete(autoIDKey(t.ID))
}

// scanHash calls fn with the value of every field of hash name.
func scanHash(ctx context.Context, s kv.Snapshot, name []byte, fn func(v []byte) error) error {
	prefix := codec.MetaHashPrefix(name)
	it, err := s.Iter(ctx, prefix, codec.PrefixEnd(prefix))
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Valid() {
		if err := fn(it.Value()); err != nil {
			return err
		}
		if err := it.Next(); err != nil {
			return err
		}
	}
	return nil
}

// loadDBs reads every database and its tables at snapshot s.
func loadDBs(ctx context.Context, s kv.Snapshot) ([]*DBInfo, []*TableInfo, error) {
	var dbs []*DBInfo
	err := scanHash(ctx, s, dbsHash, func(v []byte) error {
		db := new(DBInfo)
		if err := json.Unmarshal(v, db); err != nil {
			return fmt.Errorf("catalog: corrupt database info: %w", err)
		}
		dbs = append(dbs, db)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var tables []*TableInfo
	for _, db := range dbs {
		err := scanHash(ctx, s, tablesHash(db.ID), func(v []byte) error {
			t := new(TableInfo)
			if err := json.Unmarshal(v, t); err != nil {
				return fmt.Errorf("catalog: corrupt table info in %s: %w", db.Name, err)
			}
			if err := t.init(); err != nil {
				return err
			}
			tables = append(tables, t)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return dbs, tables, nil
}
