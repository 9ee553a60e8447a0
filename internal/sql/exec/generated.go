package exec

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// rowRules are what every written row of one table goes through before
// it is stored: its generated columns are computed (catalog's
// generated.go: virtual and stored alike are stored in the row), then
// its enforced CHECK constraints verified (3819). They are compiled once
// per executor over the table's column offsets.
type rowRules struct {
	gens   []catalog.GenColumn
	checks []catalog.CompiledCheck
	rc     *catalog.RowChunk
}

// compileRules builds the rules of t (empty for a table without
// generated columns and checks).
func compileRules(ectx *Context, t *catalog.TableInfo) (*rowRules, error) {
	r := &rowRules{}
	if !t.HasGenerated() && len(t.Checks) == 0 {
		return r, nil
	}
	var err error
	if r.gens, err = t.CompileGenerated(ectx.Eval); err != nil {
		return nil, err
	}
	if r.checks, err = t.CompileChecks(ectx.Eval); err != nil {
		return nil, err
	}
	r.rc = t.NewRowChunk()
	return r, nil
}

// apply computes row's generated columns (converted as the statement
// converts values: errors in strict mode, warnings otherwise) and, when
// check is set, verifies the CHECK constraints.
func (r *rowRules) apply(ectx *Context, row []types.Datum, rowNum int, check bool) error {
	if len(r.gens) > 0 {
		err := catalog.FillGenerated(ectx.Eval, r.gens, r.rc, row, func(c *catalog.ColumnInfo, d types.Datum) (types.Datum, error) {
			return castValue(ectx, c, d, rowNum)
		})
		if err != nil {
			return err
		}
	}
	if check && len(r.checks) > 0 {
		return catalog.VerifyChecks(ectx.Eval, r.checks, r.rc.Row(row))
	}
	return nil
}

// writeRules are what INSERT and UPDATE apply to the rows they write:
// the table's rules (compiled on the first execution: the plan, and so
// the table, is the executor's for life) and this execution's
// foreign-key state.
type writeRules struct {
	rules *rowRules
	fk    *fkState
	fkUse fkUse
}

// prepare readies the rules for an execution writing t.
func (w *writeRules) prepare(ectx *Context, is *catalog.InfoSchema, t *catalog.TableInfo) error {
	if w.rules == nil {
		r, err := compileRules(ectx, t)
		if err != nil {
			return err
		}
		w.rules = r
	}
	w.fk = w.fkUse.state(ectx, is, t)
	return nil
}

// errCheckViolated matches (errors.Is) the 3819 of any CHECK.
var errCheckViolated = &sqlerr.Error{Code: sqlerr.ErrCheckViolated}

// errSkipRow: INSERT IGNORE skips a row that violates a CHECK (after a
// warning).
var errSkipRow = errors.New("exec: row skipped")

// badGeneratedValue is 3105: a statement gave generated column c a value
// other than DEFAULT.
func badGeneratedValue(t *catalog.TableInfo, c *catalog.ColumnInfo) error {
	return sqlerr.New(mysql.ErrBadGeneratedColumn, c.Name, t.Name)
}
