package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// DDL of CHECK constraints and foreign keys, and the checks other DDL
// makes for them. Work on existing rows (validating a new or re-enforced
// CHECK, indexing and validating a new foreign key, computing an added
// generated column) runs in the DDL's own transaction, so the change is
// atomic; a table too big for one transaction
// (performance.txn-total-size-limit) cannot take it.

// createTableFKs adds the FOREIGN KEY constraints of CREATE TABLE to t.
func createTableFKs(env Env, is *InfoSchema, db string, t *TableInfo, stmt *ast.CreateTableStmt) error {
	fe := fkEnv{db: db, is: is, checks: !env.DisableForeignKeyChecks, names: fkNamesIn(is, db, 0)}
	for _, k := range stmt.Constraints {
		if k.Tp != ast.ConstraintForeignKey {
			continue
		}
		if _, err := addFKInfo(fe, t, k); err != nil {
			return err
		}
	}
	setKeyFlags(t)
	return nil
}

// likeTable adjusts a CREATE TABLE ... LIKE copy: foreign keys are not
// copied (as MySQL), generated CHECK names are renamed for the new table.
func likeTable(t *TableInfo, from string) {
	t.ForeignKeys = nil
	for _, ck := range t.Checks {
		if n, ok := cutPrefixFold(ck.Name, from+"_chk_"); ok {
			ck.Name = t.Name + "_chk_" + n
		}
	}
}

// checkDropReferenced refuses DROP TABLE of a table another table's
// foreign key references (3730), unless that table goes too or
// foreign_key_checks is off.
func checkDropReferenced(env Env, is *InfoSchema, dropped []*TableInfo) error {
	if env.DisableForeignKeyChecks {
		return nil
	}
	going := make(map[int64]bool, len(dropped))
	for _, t := range dropped {
		going[t.ID] = true
	}
	for _, t := range dropped {
		db, ok := is.DatabaseByID(t.DBID)
		if !ok {
			continue
		}
		for _, ref := range is.ReferencingFKs(db.Name, t.Name) {
			if !going[ref.Child.ID] {
				return sqlerr.New(sqlerr.ErrFKCannotDropParent, t.Name, ref.FK.Name, ref.Child.Name)
			}
		}
	}
	return nil
}

// checkTruncateReferenced refuses TRUNCATE of a table another table's
// foreign key references (1701), unless foreign_key_checks is off.
func checkTruncateReferenced(env Env, is *InfoSchema, db string, t *TableInfo) error {
	if env.DisableForeignKeyChecks {
		return nil
	}
	for _, ref := range is.ReferencingFKs(db, t.Name) {
		if ref.Child.ID != t.ID {
			return sqlerr.New(mysql.ErrTruncateIllegalForeignKey,
				fmt.Sprintf("%s.%s, CONSTRAINT %s", QuoteIdent(ref.ChildDB), QuoteIdent(ref.Child.Name), QuoteIdent(ref.FK.Name)))
		}
	}
	return nil
}

// checkDropIndexFK refuses to drop an index a foreign key needs, as the
// child's index on its columns or the parent's on the referenced ones
// (1553).
func checkDropIndexFK(is *InfoSchema, db string, t *TableInfo, idx *IndexInfo) error {
	needed := fkUsingIndex(t, idx) != ""
	for _, ref := range is.ReferencingFKs(db, t.Name) {
		needed = needed || needsIndex(t, idx, ref.FK.RefCols)
	}
	if needed {
		return sqlerr.New(mysql.ErrDropIndexNeededInForeignKey, idx.Name)
	}
	return nil
}

// checkDropColumnDeps refuses to drop a column a generated column
// (3108), a CHECK constraint (3959) or a foreign key (1828) uses.
func checkDropColumnDeps(t *TableInfo, col string) error {
	if g := generatedDependents(t, col); g != "" {
		return sqlerr.New(mysql.ErrDependentByGeneratedColumn, col)
	}
	if ck := checkColumnDependents(t, col); ck != "" {
		return DependentByCheckError(ck, col)
	}
	if fk := fkUsingColumn(t, col); fk != "" {
		return sqlerr.New(mysql.ErrFkColumnCannotDrop, col, fk)
	}
	return nil
}

// renameColumnDeps refuses to rename a column a generated column or a
// CHECK constraint reads (3108, 3959) and renames it in t's foreign keys.
func renameColumnDeps(t *TableInfo, from, to string) error {
	if g := generatedDependents(t, from); g != "" {
		return sqlerr.New(mysql.ErrDependentByGeneratedColumn, from)
	}
	if ck := checkColumnDependents(t, from); ck != "" {
		return DependentByCheckError(ck, from)
	}
	for _, fk := range t.ForeignKeys {
		for i, c := range fk.Cols {
			if strings.EqualFold(c, from) {
				fk.Cols[i] = to
			}
		}
	}
	return nil
}

// validateChecks verifies t's enforced CHECK constraints against every
// stored row (3819).
func validateChecks(ctx context.Context, txn kv.Transaction, t *TableInfo, only *CheckInfo) error {
	checks, err := t.CompileChecks(nil)
	if err != nil {
		return err
	}
	if only != nil {
		for _, c := range checks {
			if c.Check.Name == only.Name {
				checks = []CompiledCheck{c}
				break
			}
		}
	}
	if len(checks) == 0 {
		return nil
	}
	rc := t.NewRowChunk()
	ectx := &expr.SimpleContext{}
	return ScanTable(ctx, txn, t, func(_ int64, row []types.Datum) error {
		return VerifyChecks(ectx, checks, rc.Row(row))
	})
}

// addCheck runs ALTER TABLE ADD [CONSTRAINT name] CHECK (...) [NOT]
// ENFORCED: an enforced constraint must hold for every row (3819).
func (c *Catalog) addCheck(ctx context.Context, env Env, tn *ast.TableName, k *ast.Constraint) error {
	return c.alterTableRows(ctx, env, tn, func(txn kv.Transaction, _ *InfoSchema, _ string, t *TableInfo) error {
		ck, err := addCheckInfo(t, k)
		if err != nil {
			return err
		}
		if err := t.init(); err != nil {
			return err
		}
		if !ck.Enforced {
			return nil
		}
		return validateChecks(ctx, txn, t, ck)
	})
}

// dropCheck runs ALTER TABLE DROP CHECK name (3821 when missing).
func (c *Catalog) dropCheck(ctx context.Context, env Env, tn *ast.TableName, name string) error {
	return c.alterTable(ctx, env, tn, func(t *TableInfo) error {
		for i, ck := range t.Checks {
			if strings.EqualFold(ck.Name, name) {
				t.Checks = append(t.Checks[:i:i], t.Checks[i+1:]...)
				return nil
			}
		}
		return checkNotFound(name)
	})
}

func checkNotFound(name string) error {
	return sqlerr.New(sqlerr.ErrCheckNotFound, name)
}

// alterCheck runs ALTER TABLE ALTER CHECK name [NOT] ENFORCED; enforcing
// validates the rows.
func (c *Catalog) alterCheck(ctx context.Context, env Env, tn *ast.TableName, name string, enforced bool) error {
	return c.alterTableRows(ctx, env, tn, func(txn kv.Transaction, _ *InfoSchema, _ string, t *TableInfo) error {
		ck := t.Check(name)
		if ck == nil {
			return checkNotFound(name)
		}
		was := ck.Enforced
		ck.Enforced = enforced
		if err := t.init(); err != nil {
			return err
		}
		if enforced && !was {
			return validateChecks(ctx, txn, t, ck)
		}
		return nil
	})
}

// addForeignKey runs ALTER TABLE ADD [CONSTRAINT name] FOREIGN KEY: an
// index on the child columns is added (and filled) when none starts with
// them, and with foreign_key_checks on every row must have its parent
// (1452).
func (c *Catalog) addForeignKey(ctx context.Context, env Env, tn *ast.TableName, k *ast.Constraint) error {
	return c.alterTableRows(ctx, env, tn, func(txn kv.Transaction, is *InfoSchema, db string, t *TableInfo) error {
		nIdx := len(t.Indices)
		fe := fkEnv{db: db, is: is, checks: !env.DisableForeignKeyChecks, names: fkNamesIn(is, db, t.ID)}
		fk, err := addFKInfo(fe, t, k)
		if err != nil {
			return err
		}
		setKeyFlags(t)
		if err := t.init(); err != nil {
			return err
		}
		newIdx := t.Indices[nIdx:]
		parent := t
		if !fk.References(db, t.Name) && fe.checks {
			if parent, err = is.Table(fk.RefDB, fk.RefTable); err != nil {
				return err
			}
		}
		li, _ := parent.IndexFor(fk.RefCols)
		refOffs := parent.FKColumnOffsets(fk.RefCols)
		offs := t.FKColumnOffsets(fk.Cols)
		return ScanTable(ctx, txn, t, func(handle int64, row []types.Datum) error {
			for _, idx := range newIdx {
				key, distinct := t.IndexKey(idx, row, handle)
				if err := txn.Set(key, IndexValue(handle, distinct)); err != nil {
					return err
				}
			}
			if !fe.checks {
				return nil
			}
			vals := make([]types.Datum, len(offs))
			for i, off := range offs {
				if row[off].IsNull() {
					return nil
				}
				vals[i] = row[off]
			}
			_, _, found, err := parent.FindRow(ctx, txn, li, refOffs, vals)
			if err == nil && !found && parent == t {
				// A row may reference itself.
				found = true
				for i, off := range refOffs {
					if row[off].Compare(&vals[i]) != 0 {
						found = false
					}
				}
			}
			if err == nil && !found {
				err = NoReferencedRowError(db, t, fk)
			}
			return err
		})
	})
}

// dropForeignKey runs ALTER TABLE DROP FOREIGN KEY name (1091 when
// missing); its index stays, as in MySQL.
func (c *Catalog) dropForeignKey(ctx context.Context, env Env, tn *ast.TableName, name string, ifExists bool) error {
	err := c.alterTable(ctx, env, tn, func(t *TableInfo) error {
		for i, fk := range t.ForeignKeys {
			if strings.EqualFold(fk.Name, name) {
				t.ForeignKeys = append(t.ForeignKeys[:i:i], t.ForeignKeys[i+1:]...)
				return nil
			}
		}
		if ifExists {
			return errNoop
		}
		return sqlerr.New(mysql.ErrCantDropFieldOrKey, name)
	})
	if errors.Is(err, errNoop) {
		return nil
	}
	return err
}

// alterTableRows applies fn to a clone of table tn in one DDL
// transaction, in which fn may also read and rewrite the table's rows
// (fn gets the database name; it initialises t before it evaluates t's
// expressions over them). t is initialised again and stored after fn.
func (c *Catalog) alterTableRows(ctx context.Context, env Env, tn *ast.TableName, fn func(txn kv.Transaction, is *InfoSchema, db string, t *TableInfo) error) error {
	db, err := dbName(env, tn)
	if err != nil {
		return err
	}
	return c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		old, err := is.Table(db, tn.Name.O)
		if err != nil {
			return err
		}
		t := old.Clone()
		if err := fn(txn, is, db, t); err != nil {
			return err
		}
		t.Version++
		if err := t.init(); err != nil {
			return err
		}
		return putTable(txn, t)
	})
}

// backfillGenerated computes generated column col (just added to t) for
// every stored row and rewrites the rows, in the DDL's transaction.
func backfillGenerated(ctx context.Context, txn kv.Transaction, t *TableInfo, col *ColumnInfo) error {
	gens, err := t.CompileGenerated(nil)
	if err != nil {
		return err
	}
	var one []GenColumn
	for _, g := range gens {
		if g.Col.ID == col.ID {
			one = append(one, g)
		}
	}
	checks, err := t.CompileChecks(nil)
	if err != nil {
		return err
	}
	rc := t.NewRowChunk()
	ectx := &expr.SimpleContext{}
	type rewrite struct {
		handle int64
		row    []types.Datum
	}
	var rows []rewrite
	err = ScanTable(ctx, txn, t, func(handle int64, row []types.Datum) error {
		row = cloneRow(row)
		if err := FillGenerated(ectx, one, rc, row, convertStrict); err != nil {
			return err
		}
		if err := VerifyChecks(ectx, checks, rc.Row(row)); err != nil {
			return err
		}
		rows = append(rows, rewrite{handle, row})
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range rows {
		key, val := t.EncodeRecord(r.handle, r.row)
		if err := txn.Set(key, val); err != nil {
			return err
		}
	}
	return nil
}

// convertStrict converts a computed value to column c as strict mode
// does (out of range, truncation: an error).
func convertStrict(c *ColumnInfo, d types.Datum) (types.Datum, error) {
	if d.IsNull() {
		if c.NotNull() {
			return d, sqlerr.New(mysql.ErrBadNull, c.Name)
		}
		return d, nil
	}
	out, err := types.ConvertDatum(d, &c.FieldType)
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, types.ErrOverflow):
		return out, sqlerr.New(mysql.ErrWarnDataOutOfRange, c.Name, 1)
	case errors.Is(err, types.ErrDataTooLong):
		return out, sqlerr.New(mysql.ErrDataTooLong, c.Name, 1)
	}
	return out, sqlerr.New(mysql.ErrTruncatedWrongValueForField, types.TypeName(c.FieldType.Tp), d.String(), c.Name, 1)
}
