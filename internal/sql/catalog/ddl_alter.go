package catalog

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Exec runs one DDL statement: CREATE/DROP DATABASE, CREATE/DROP/
// TRUNCATE/RENAME TABLE, CREATE/DROP INDEX, ALTER TABLE. Other statements
// are a caller's bug (an error, not a panic).
func (c *Catalog) Exec(ctx context.Context, env Env, stmt ast.StmtNode) error {
	if err := c.refuseView(env, stmt); err != nil {
		return err
	}
	switch s := stmt.(type) {
	case *ast.CreateDatabaseStmt:
		return c.CreateDatabase(ctx, s)
	case *ast.DropDatabaseStmt:
		return c.DropDatabase(ctx, s)
	case *ast.CreateTableStmt:
		return c.CreateTable(ctx, env, s)
	case *ast.DropTableStmt:
		return c.DropTable(ctx, env, s)
	case *ast.TruncateTableStmt:
		return c.TruncateTable(ctx, env, s)
	case *ast.RenameTableStmt:
		return c.RenameTable(ctx, env, s)
	case *ast.CreateIndexStmt:
		return c.CreateIndex(ctx, env, s)
	case *ast.DropIndexStmt:
		return c.DropIndex(ctx, env, s)
	case *ast.AlterTableStmt:
		return c.AlterTable(ctx, env, s)
	}
	return fmt.Errorf("catalog: %T is not a DDL statement", stmt)
}

// AlterTable runs ALTER TABLE's specifications one after the other (each
// is atomic; a failing one leaves the earlier ones applied): ADD/DROP
// COLUMN, ADD INDEX/KEY/UNIQUE/PRIMARY KEY, DROP INDEX/KEY/PRIMARY KEY,
// RENAME [TO], RENAME INDEX, RENAME COLUMN, ALTER COLUMN SET/DROP
// DEFAULT, COMMENT; ENGINE, CHARSET, LOCK and ALGORITHM
// are accepted and ignored.
func (c *Catalog) AlterTable(ctx context.Context, env Env, stmt *ast.AlterTableStmt) error {
	tn := stmt.Table
	for _, spec := range stmt.Specs {
		var err error
		switch spec.Tp {
		case ast.AlterTableAddColumns:
			if len(spec.NewConstraints) > 0 {
				return sqlerr.New(mysql.ErrNotSupportedYet, "constraints in ADD COLUMN (...)")
			}
			for _, def := range spec.NewColumns {
				if err = c.addColumn(ctx, env, tn, def, spec.Position, spec.IfNotExists); err != nil {
					return err
				}
			}
		case ast.AlterTableDropColumn:
			err = c.dropColumn(ctx, env, tn, spec.OldColumnName.Name.O, spec.IfExists)
		case ast.AlterTableAddConstraint:
			err = c.addConstraint(ctx, env, tn, spec.Constraint)
		case ast.AlterTableDropIndex:
			err = c.dropIndex(ctx, env, tn, spec.Name, spec.IfExists)
		case ast.AlterTableDropPrimaryKey:
			err = c.dropIndex(ctx, env, tn, "PRIMARY", false)
		case ast.AlterTableRenameTable:
			err = c.RenameTable(ctx, env, &ast.RenameTableStmt{TableToTables: []*ast.TableToTable{{OldTable: tn, NewTable: spec.NewTable}}})
			tn = spec.NewTable
		case ast.AlterTableRenameIndex:
			err = c.renameIndex(ctx, env, tn, spec.FromKey.O, spec.ToKey.O)
		case ast.AlterTableRenameColumn:
			err = c.renameColumn(ctx, env, tn, spec.OldColumnName.Name.O, spec.NewColumnName.Name.O)
		case ast.AlterTableAlterColumn:
			err = c.alterColumnDefault(ctx, env, tn, spec.NewColumns[0])
		case ast.AlterTableDropForeignKey:
			err = c.dropForeignKey(ctx, env, tn, spec.Name, spec.IfExists)
		case ast.AlterTableDropCheck:
			err = c.dropCheck(ctx, env, tn, spec.Constraint.Name)
		case ast.AlterTableAlterCheck:
			err = c.alterCheck(ctx, env, tn, spec.Constraint.Name, spec.Constraint.Enforced)
		case ast.AlterTableOption:
			err = c.alterOptions(ctx, env, tn, spec.Options)
		case ast.AlterTableLock, ast.AlterTableAlgorithm, ast.AlterTableForce:
		default:
			return sqlerr.New(mysql.ErrNotSupportedYet, "this ALTER TABLE specification")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *Catalog) addConstraint(ctx context.Context, env Env, tn *ast.TableName, k *ast.Constraint) error {
	switch k.Tp {
	case ast.ConstraintKey, ast.ConstraintIndex:
		return c.addIndex(ctx, env, tn, k.Name, k.Keys, false, false, k.Option, k.IfNotExists)
	case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
		return c.addIndex(ctx, env, tn, k.Name, k.Keys, true, false, k.Option, k.IfNotExists)
	case ast.ConstraintPrimaryKey:
		return c.addIndex(ctx, env, tn, "PRIMARY", k.Keys, true, true, k.Option, false)
	case ast.ConstraintForeignKey:
		return c.addForeignKey(ctx, env, tn, k)
	case ast.ConstraintCheck:
		return c.addCheck(ctx, env, tn, k)
	}
	return sqlerr.New(mysql.ErrNotSupportedYet, "this index type")
}

// renameIndex runs ALTER TABLE ... RENAME INDEX a TO b.
func (c *Catalog) renameIndex(ctx context.Context, env Env, tn *ast.TableName, from, to string) error {
	return c.alterTable(ctx, env, tn, func(t *TableInfo) error {
		idx := t.Index(from)
		if idx == nil || idx.Primary {
			return sqlerr.New(mysql.ErrKeyDoesNotExist, from, t.Name)
		}
		if other := t.Index(to); other != nil && other != idx {
			return sqlerr.New(mysql.ErrDupKeyName, to)
		}
		if err := checkIdent(to); err != nil {
			return err
		}
		idx.Name = to
		return nil
	})
}

func (c *Catalog) alterOptions(ctx context.Context, env Env, tn *ast.TableName, opts []*ast.TableOption) error {
	for _, o := range opts {
		if o.Tp == ast.TableOptionComment {
			return c.alterTable(ctx, env, tn, func(t *TableInfo) error {
				t.Comment = o.StrValue
				return nil
			})
		}
	}
	return nil
}

// alterTable applies fn to a clone of table tn in one DDL transaction
// (alterTableRows for a change that needs only the table's definition).
func (c *Catalog) alterTable(ctx context.Context, env Env, tn *ast.TableName, fn func(t *TableInfo) error) error {
	return c.alterTableRows(ctx, env, tn, func(_ kv.Transaction, _ *InfoSchema, _ string, t *TableInfo) error {
		return fn(t)
	})
}

// IsDDL reports whether Exec runs stmt.
func IsDDL(stmt ast.StmtNode) bool {
	switch stmt.(type) {
	case *ast.CreateDatabaseStmt, *ast.DropDatabaseStmt, *ast.CreateTableStmt, *ast.DropTableStmt,
		*ast.TruncateTableStmt, *ast.RenameTableStmt, *ast.CreateIndexStmt, *ast.DropIndexStmt,
		*ast.AlterTableStmt:
		return true
	}
	return false
}

// renameColumn runs ALTER TABLE ... RENAME COLUMN a TO b (1054 when a is
// missing, 1060 when b exists); indexes follow the column.
func (c *Catalog) renameColumn(ctx context.Context, env Env, tn *ast.TableName, from, to string) error {
	return c.alterTable(ctx, env, tn, func(t *TableInfo) error {
		col := t.Column(from)
		if col == nil {
			return sqlerr.New(mysql.ErrBadField, from, t.Name)
		}
		if other := t.Column(to); other != nil && other != col {
			return sqlerr.New(mysql.ErrDupFieldName, to)
		}
		if err := checkIdent(to); err != nil {
			return err
		}
		if err := renameColumnDeps(t, col.Name, to); err != nil {
			return err
		}
		for _, idx := range t.Indices {
			for _, ic := range idx.Columns {
				if ic.Offset == col.Offset {
					ic.Name = to
				}
			}
		}
		col.Name = to
		return nil
	})
}

// alterColumnDefault runs ALTER TABLE ... ALTER COLUMN c SET DEFAULT v /
// DROP DEFAULT. Stored rows are unaffected.
func (c *Catalog) alterColumnDefault(ctx context.Context, env Env, tn *ast.TableName, def *ast.ColumnDef) error {
	return c.alterTable(ctx, env, tn, func(t *TableInfo) error {
		col := t.Column(def.Name.Name.O)
		if col == nil {
			return sqlerr.New(mysql.ErrBadField, def.Name.Name.O, t.Name)
		}
		if len(def.Options) == 0 {
			col.HasDefault, col.DefaultNull, col.DefaultValue, col.DefaultExpr = false, false, "", ""
			return nil
		}
		if col.AutoIncrement {
			return sqlerr.New(mysql.ErrInvalidDefault, col.Name)
		}
		return setDefault(col, def.Options[0].Expr)
	})
}
