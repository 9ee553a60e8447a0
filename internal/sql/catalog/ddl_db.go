package catalog

import (
	"context"
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// errNoop makes runDDL roll back a DDL that turned out to change nothing
// (IF [NOT] EXISTS).
var errNoop = errors.New("catalog: no change")

// runDDLMaybeNoop is runDDL where fn may return errNoop.
func (c *Catalog) runDDLMaybeNoop(ctx context.Context, fn func(txn kv.Transaction, is *InfoSchema) error) error {
	err := c.runDDL(ctx, fn)
	if errors.Is(err, errNoop) {
		return nil
	}
	return err
}

// CreateDatabase runs CREATE DATABASE [IF NOT EXISTS] (1007 when it
// exists).
func (c *Catalog) CreateDatabase(ctx context.Context, stmt *ast.CreateDatabaseStmt) error {
	db := &DBInfo{Name: stmt.Name.O, Charset: defaultCharset, Collate: defaultCollate}
	if err := checkIdent(db.Name); err != nil {
		return sqlerr.New(mysql.ErrWrongDBName, db.Name)
	}
	var cs, co string
	for _, o := range stmt.Options {
		switch o.Tp {
		case ast.DatabaseOptionCharset:
			cs = o.Value
		case ast.DatabaseOptionCollate:
			co = o.Value
		}
	}
	var err error
	if db.Charset, db.Collate, err = resolveCharset(cs, co, defaultCharset, defaultCollate); err != nil {
		return err
	}
	return c.runDDLMaybeNoop(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		if is.DatabaseExists(db.Name) {
			if stmt.IfNotExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrDBCreateExists, db.Name)
		}
		id, err := genGlobalIDs(ctx, txn, 1)
		if err != nil {
			return err
		}
		db.ID = id
		return putDB(txn, db)
	})
}

// DropDatabase runs DROP DATABASE [IF EXISTS] (1008 when missing): the
// database and its tables leave the schema in one transaction, then their
// data is deleted.
func (c *Catalog) DropDatabase(ctx context.Context, stmt *ast.DropDatabaseStmt) error {
	name := stmt.Name.O
	var dropped []*TableInfo
	err := c.runDDLMaybeNoop(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		dropped = nil
		db, err := is.Database(name)
		if err != nil {
			if stmt.IfExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrDBDropExists, name)
		}
		tables, _ := is.Tables(name)
		for _, t := range tables {
			if err := deleteTable(txn, t); err != nil {
				return err
			}
		}
		dropped = tables
		return txn.Delete(dbKey(db.ID))
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

// EnsureDatabase creates database name unless it exists (bootstrap of
// "test" and "mysql").
func (c *Catalog) EnsureDatabase(ctx context.Context, name string) error {
	return c.CreateDatabase(ctx, &ast.CreateDatabaseStmt{IfNotExists: true, Name: ast.NewCIStr(name)})
}
