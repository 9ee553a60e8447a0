package catalog

import (
	"context"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// dbName returns the database of a table name: its own, or the current
// one (1046 when there is none).
func dbName(env Env, tn *ast.TableName) (string, error) {
	if tn.Schema.O != "" {
		return tn.Schema.O, nil
	}
	if env.CurrentDB == "" {
		return "", sqlerr.New(mysql.ErrNoDB)
	}
	return env.CurrentDB, nil
}

// CreateTable runs CREATE TABLE [IF NOT EXISTS] ... (column definitions
// and keys, or LIKE another table).
func (c *Catalog) CreateTable(ctx context.Context, env Env, stmt *ast.CreateTableStmt) error {
	db, err := dbName(env, stmt.Table)
	if err != nil {
		return err
	}
	if stmt.Select != nil || stmt.TemporaryKeyword != ast.TemporaryNone || stmt.Partition != nil {
		return sqlerr.New(mysql.ErrNotSupportedYet, "CREATE TABLE ... SELECT, temporary or partitioned tables")
	}
	var autoIncBase uint64
	for _, o := range stmt.Options {
		if o.Tp == ast.TableOptionAutoIncrement && o.UintValue > 1 {
			autoIncBase = o.UintValue - 1
		}
	}
	var newID int64
	err = c.runDDLMaybeNoop(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		newID = 0
		dbInfo, err := is.Database(db)
		if err != nil {
			return err
		}
		if is.TableExists(db, stmt.Table.Name.O) {
			if stmt.IfNotExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrTableExists, stmt.Table.Name.O)
		}
		var t *TableInfo
		if stmt.ReferTable != nil {
			refDB, err := dbName(env, stmt.ReferTable)
			if err != nil {
				return err
			}
			ref, err := is.Table(refDB, stmt.ReferTable.Name.O)
			if err != nil {
				return err
			}
			t = ref.Clone()
			t.Name, t.Version = stmt.Table.Name.O, 0
			t.Indices = t.PublicIndices() // not one being added
			likeTable(t, ref.Name)
		} else if t, err = buildTableInfo(env, stmt, dbInfo); err != nil {
			return err
		} else if err := createTableFKs(env, is, db, t, stmt); err != nil {
			return err
		}
		if t.ID, err = genGlobalIDs(ctx, txn, 1); err != nil {
			return err
		}
		t.DBID = dbInfo.ID
		if err := t.init(); err != nil {
			return err
		}
		if autoIncBase > 0 {
			if err := txn.Set(autoIDKey(t.ID), []byte(strconv.FormatUint(autoIncBase, 10))); err != nil {
				return err
			}
		}
		newID = t.ID
		return putTable(txn, t)
	})
	if err == nil && newID != 0 {
		c.newTable(newID)
	}
	return err
}

// newTable tells OnNewTable about a table the DDL just made.
func (c *Catalog) newTable(id int64) {
	if c.opts.OnNewTable != nil {
		c.opts.OnNewTable(id)
	}
}

// DropTable runs DROP TABLE [IF EXISTS] t1, t2, ...: without IF EXISTS a
// missing table (1051, naming all missing ones) drops nothing. The tables
// leave the schema in one transaction, then their data is deleted.
func (c *Catalog) DropTable(ctx context.Context, env Env, stmt *ast.DropTableStmt) error {
	if stmt.IsView {
		return c.dropView(ctx, env, stmt)
	}
	var dropped []*TableInfo
	err := c.runDDLMaybeNoop(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		dropped = nil
		var missing []string
		for _, tn := range stmt.Tables {
			db, err := dbName(env, tn)
			if err != nil {
				return err
			}
			t, err := is.Table(db, tn.Name.O)
			if err != nil || t.IsView() { // DROP TABLE v: 1051, as in MySQL 8
				missing = append(missing, db+"."+tn.Name.O)
				continue
			}
			dropped = append(dropped, t)
		}
		if len(missing) > 0 && !stmt.IfExists {
			return sqlerr.New(mysql.ErrBadTable, strings.Join(missing, ","))
		}
		if len(dropped) == 0 {
			return errNoop
		}
		if err := checkDropReferenced(env, is, dropped); err != nil {
			return err
		}
		for _, t := range dropped {
			if err := deleteTable(txn, t); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range dropped {
		c.alloc.Forget(t.ID)
		if err := c.deleteTableData(ctx, t.ID); err != nil {
			return err
		}
	}
	return nil
}

// TruncateTable runs TRUNCATE TABLE: the table gets a new ID (so its key
// range starts empty and its auto-increment counter restarts) in one
// transaction, then the old rows and index entries are deleted.
func (c *Catalog) TruncateTable(ctx context.Context, env Env, stmt *ast.TruncateTableStmt) error {
	db, err := dbName(env, stmt.Table)
	if err != nil {
		return err
	}
	var oldID, newID int64
	err = c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, stmt.Table.Name.O)
		if err != nil {
			return err
		}
		if err := checkTruncateReferenced(env, is, db, old); err != nil {
			return err
		}
		oldID = old.ID
		t := old.Clone()
		if t.ID, err = genGlobalIDs(ctx, txn, 1); err != nil {
			return err
		}
		t.Version++
		if err := deleteTable(txn, old); err != nil {
			return err
		}
		newID = t.ID
		return putTable(txn, t)
	})
	if err != nil {
		return err
	}
	c.newTable(newID)
	c.alloc.Forget(oldID)
	return c.deleteTableData(ctx, oldID)
}

// RenameTable runs RENAME TABLE a TO b [, c TO d ...] in one transaction
// (1146 for a missing source, 1050 for an existing target; renames apply
// in order, so a TO b, b TO c works). Tables may move between databases.
func (c *Catalog) RenameTable(ctx context.Context, env Env, stmt *ast.RenameTableStmt) error {
	return c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		v := newOverlay(is)
		for _, tt := range stmt.TableToTables {
			if err := c.renameOne(ctx, txn, env, v, tt.OldTable, tt.NewTable); err != nil {
				return err
			}
		}
		return nil
	})
}

func (c *Catalog) renameOne(ctx context.Context, txn kv.Transaction, env Env, v *overlay, from, to *ast.TableName) error {
	oldDB, err := dbName(env, from)
	if err != nil {
		return err
	}
	newDB, err := dbName(env, to)
	if err != nil {
		return err
	}
	t, err := v.table(oldDB, from.Name.O)
	if err != nil {
		return err
	}
	dbInfo, err := v.is.Database(newDB)
	if err != nil {
		return err
	}
	if _, err := v.table(newDB, to.Name.O); err == nil {
		return sqlerr.New(mysql.ErrTableExists, to.Name.O)
	}
	if err := txn.Delete(tableKey(t.DBID, t.ID)); err != nil {
		return err
	}
	nt := t.Clone()
	nt.Name, nt.DBID = to.Name.O, dbInfo.ID
	nt.Version++
	if err := nt.init(); err != nil {
		return err
	}
	v.remove(oldDB, from.Name.O)
	v.put(newDB, nt)
	return putTable(txn, nt)
}

// overlay is an InfoSchema with pending renames of one transaction.
type overlay struct {
	is      *InfoSchema
	removed map[string]bool
	added   map[string]*TableInfo
}

func newOverlay(is *InfoSchema) *overlay {
	return &overlay{is: is, removed: map[string]bool{}, added: map[string]*TableInfo{}}
}

func overlayKey(db, name string) string { return strings.ToLower(db) + "\x00" + strings.ToLower(name) }

func (v *overlay) table(db, name string) (*TableInfo, error) {
	k := overlayKey(db, name)
	if t := v.added[k]; t != nil {
		return t, nil
	}
	if v.removed[k] {
		if _, err := v.is.Database(db); err != nil {
			return nil, err
		}
		return nil, sqlerr.New(mysql.ErrNoSuchTable, db, name)
	}
	return v.is.Table(db, name)
}

func (v *overlay) remove(db, name string) {
	k := overlayKey(db, name)
	delete(v.added, k)
	v.removed[k] = true
}

func (v *overlay) put(db string, t *TableInfo) { v.added[overlayKey(db, t.Name)] = t }
