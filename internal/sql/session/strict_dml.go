package session

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
)

// strictDML makes a data-changing statement evaluate its expressions, the
// values it writes and the conditions that pick its rows alike, in an
// expr.StrictContext when sql_mode is strict and the statement has no
// IGNORE, as MySQL and TiDB do: a warning MySQL makes an error there
// (1292 truncated value, 1264 out of range, 1366 wrong value for a
// column, and 1365 division by zero under ERROR_FOR_DIVISION_BY_ZERO)
// fails the statement instead of writing NULL or a truncated value. It
// returns the check to run once the executors are done, or nil.
func strictDML(ec *exec.Context, p planner.Plan) func() error {
	if !ec.Strict || dmlIgnores(p) {
		return nil
	}
	sc := expr.NewStrictContext(ec.Eval)
	ec.Eval = sc
	return sc.Err
}

// dmlIgnores reports whether p is INSERT, UPDATE or DELETE IGNORE (also
// multi-table), whose bad values stay warnings.
func dmlIgnores(p planner.Plan) bool {
	switch p := p.(type) {
	case *planner.Insert:
		return p.Ignore
	case *planner.Update:
		return p.Ignore
	case *planner.Delete:
		return p.Ignore
	case *planner.MultiDML:
		for _, t := range p.Targets {
			if dmlIgnores(t) {
				return true
			}
		}
	}
	return false
}

// runDML runs the executors of data-changing plan p to the end under the
// strictness of strictDML.
func runDML(ctx context.Context, e exec.Executor, ec *exec.Context, p planner.Plan) error {
	check := strictDML(ec, p)
	if err := exec.RunToEnd(ctx, e); err != nil {
		return err
	}
	if check != nil {
		return check()
	}
	return nil
}

// forStmt tells q, before it plans stmt, whether stmt is a data-changing
// statement that strictDML will run strictly, so that the planner leaves
// unfolded the constant calls whose warnings fail it.
func (q *queryCtx) forStmt(stmt ast.StmtNode) *queryCtx {
	ignore := false
	switch st := stmt.(type) {
	case *ast.InsertStmt:
		ignore = st.IgnoreErr
	case *ast.UpdateStmt:
		ignore = st.IgnoreErr
	case *ast.DeleteStmt:
		ignore = st.IgnoreErr
	default:
		return q
	}
	q.strictDML = !ignore && q.s.vars.SQLMode().Strict()
	return q
}
