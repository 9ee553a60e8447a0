package session

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/expr"
)

// forStmt notes in q whether stmt (or the statement EXPLAIN ANALYZE runs)
// changes data under a strict sql_mode without IGNORE. The planner then
// leaves unfolded the constant calls whose warnings fail such a statement
// (expr.StrictDMLContext), and runDML runs it strictly. It is called for
// every execution, of a cached plan too.
func (q *queryCtx) forStmt(stmt ast.StmtNode) *queryCtx {
	ignore := false
	switch st := stmt.(type) {
	case *ast.ExplainStmt:
		return q.forStmt(st.Stmt)
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

// runDML runs the executors of a data-changing statement to the end. A
// strict one (forStmt) evaluates its expressions, the values it writes
// and the conditions that pick its rows alike, in an expr.StrictContext,
// as MySQL and TiDB do: a warning MySQL makes an error there (1292
// truncated value, 1264 out of range, 1366 wrong value for a column, and
// 1365 division by zero under ERROR_FOR_DIVISION_BY_ZERO) fails the
// statement instead of writing NULL or a truncated value.
func runDML(ctx context.Context, e exec.Executor, ec *exec.Context, q *queryCtx) error {
	if !q.strictDML {
		return exec.RunToEnd(ctx, e)
	}
	// q's own StrictContext: no allocation per statement, and a fresh
	// one for each run of a retried statement.
	q.strict = expr.StrictContext{EvalContext: ec.Eval}
	ec.Eval = &q.strict
	if err := exec.RunToEnd(ctx, e); err != nil {
		return err
	}
	return q.strict.Err()
}
