package catalog

import (
	"context"
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// addColumn runs ALTER TABLE ADD COLUMN def [FIRST | AFTER c] in one
// transaction. Stored rows are not rewritten: they lack the column's ID
// and decode to its origin default, fixed now (the DEFAULT value,
// CURRENT_TIMESTAMP evaluated at this moment, the type's zero value for a
// NOT NULL column without default, or NULL). An inline UNIQUE adds an
// index afterwards as ADD UNIQUE would.
func (c *Catalog) addColumn(ctx context.Context, env Env, tn *ast.TableName, def *ast.ColumnDef, pos *ast.ColumnPosition, ifNotExists bool) error {
	db, err := dbName(env, tn)
	if err != nil {
		return err
	}
	var uniques []*ast.Constraint
	err = c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, tn.Name.O)
		if err != nil {
			return err
		}
		t := old.Clone()
		if t.Column(def.Name.Name.O) != nil {
			if ifNotExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrDupFieldName, def.Name.Name.O)
		}
		col, inline, err := buildColumn(t, def)
		if err != nil {
			return err
		}
		uniques = uniques[:0]
		var checks []*ast.Constraint
		for _, k := range inline {
			switch k.Tp {
			case ast.ConstraintPrimaryKey:
				return sqlerr.New(mysql.ErrNotSupportedYet, "ADD COLUMN ... PRIMARY KEY")
			case ast.ConstraintCheck:
				checks = append(checks, k)
			default:
				uniques = append(uniques, k)
			}
		}
		if col.AutoIncrement {
			return sqlerr.New(mysql.ErrNotSupportedYet, "ADD COLUMN ... AUTO_INCREMENT")
		}
		if err := col.init(); err != nil {
			return err
		}
		if err := c.setOriginDefault(col); err != nil {
			return err
		}
		if err := insertColumn(t, col, pos); err != nil {
			return err
		}
		if col.IsGenerated() {
			if err := checkGenerated(t, col); err != nil {
				return err
			}
			col.HasOriginDefault, col.OriginDefault = false, ""
		}
		for _, k := range checks {
			if _, err := addCheckInfo(t, k); err != nil {
				return err
			}
		}
		t.Version++
		if err := t.init(); err != nil {
			return err
		}
		if col.IsGenerated() {
			if err := backfillGenerated(ctx, txn, t, col); err != nil {
				return err
			}
		} else if len(checks) > 0 {
			if err := validateChecks(ctx, txn, t, nil); err != nil {
				return err
			}
		}
		return putTable(txn, t)
	})
	if errors.Is(err, errNoop) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, k := range uniques {
		if err := c.addIndex(ctx, env, tn, "", k.Keys, true, false, nil, false); err != nil {
			return err
		}
	}
	return nil
}

// setOriginDefault fixes the value existing rows get for an added column.
func (c *Catalog) setOriginDefault(col *ColumnInfo) error {
	var d types.Datum
	switch {
	case col.DefaultExpr == DefaultCurrentTimestamp:
		d, _ = col.GetDefault(c.opts.Now())
	case col.HasDefault:
		d, _ = col.GetDefault(c.opts.Now())
	case col.NotNull():
		d = col.ZeroValue()
	}
	if d.IsNull() {
		col.HasOriginDefault, col.OriginDefault = false, ""
		return nil
	}
	col.HasOriginDefault, col.OriginDefault = true, storeText(d)
	return nil
}

// insertColumn places col at the end, first, or after another column.
func insertColumn(t *TableInfo, col *ColumnInfo, pos *ast.ColumnPosition) error {
	at := len(t.Columns)
	if pos != nil {
		switch pos.Tp {
		case ast.ColumnPositionFirst:
			at = 0
		case ast.ColumnPositionAfter:
			after := t.Column(pos.RelativeColumn.Name.O)
			if after == nil {
				return sqlerr.New(mysql.ErrBadField, pos.RelativeColumn.Name.O, t.Name)
			}
			at = after.Offset + 1
		}
	}
	t.Columns = append(t.Columns, nil)
	copy(t.Columns[at+1:], t.Columns[at:])
	t.Columns[at] = col
	t.renumber()
	return nil
}

// dropColumn runs ALTER TABLE DROP COLUMN name in one transaction (1091
// when missing, 1090 for the last column). Single-column indexes on it
// are dropped with it, as MySQL does, and their entries deleted after;
// a column of a composite index or of the clustered primary key cannot
// be dropped (1235).
func (c *Catalog) dropColumn(ctx context.Context, env Env, tn *ast.TableName, name string, ifExists bool) error {
	db, err := dbName(env, tn)
	if err != nil {
		return err
	}
	var t *TableInfo
	var droppedIdx []int64
	err = c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, tn.Name.O)
		if err != nil {
			return err
		}
		nt := old.Clone()
		col := nt.Column(name)
		if col == nil {
			if ifExists {
				return errNoop
			}
			return sqlerr.New(mysql.ErrCantDropFieldOrKey, name)
		}
		if len(nt.Columns) == 1 {
			return sqlerr.New(mysql.ErrCantRemoveAllFields)
		}
		if nt.PKIsHandle && col.InPrimaryKey() {
			return sqlerr.New(mysql.ErrNotSupportedYet, "dropping the clustered primary key column")
		}
		if err := checkDropColumnDeps(nt, col.Name); err != nil {
			return err
		}
		droppedIdx = droppedIdx[:0]
		for _, idx := range append([]*IndexInfo(nil), nt.Indices...) {
			for _, ic := range idx.Columns {
				if ic.Offset != col.Offset {
					continue
				}
				if len(idx.Columns) > 1 {
					return sqlerr.New(mysql.ErrNotSupportedYet, "dropping a column of a composite index")
				}
				droppedIdx = append(droppedIdx, idx.ID)
				dropIndexInfo(nt, idx.ID)
			}
		}
		if nt.AutoIncColumn == col.ID {
			nt.AutoIncColumn = 0
		}
		nt.Columns = append(nt.Columns[:col.Offset:col.Offset], nt.Columns[col.Offset+1:]...)
		nt.renumber()
		setKeyFlags(nt)
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
	for _, id := range droppedIdx {
		p := t.indexPrefix(id)
		if err := c.deleteRange(ctx, p, prefixEnd(p)); err != nil {
			return err
		}
	}
	return nil
}
