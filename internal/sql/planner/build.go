package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Build plans a statement: SELECT with FROM, INSERT, REPLACE, UPDATE,
// DELETE and EXPLAIN of those. Errors are *sqlerr.Error (1046, 1146, 1054,
// 1052, 1136, 1235 ...).
func Build(ctx Context, stmt ast.StmtNode) (Plan, error) {
	switch st := stmt.(type) {
	case *ast.SelectStmt:
		return buildSelect(ctx, st)
	case *ast.SetOprStmt:
		return (&qbuilder{ctx: ctx}).setOpr(st)
	case *ast.InsertStmt:
		return buildInsert(ctx, st)
	case *ast.UpdateStmt:
		return buildUpdate(ctx, st)
	case *ast.DeleteStmt:
		return buildDelete(ctx, st)
	case *ast.ExplainStmt:
		target, err := Build(ctx, st.Stmt)
		if err != nil {
			return nil, err
		}
		ex := &Explain{Target: target, Analyze: st.Analyze, est: map[Plan]float64{}}
		q := &qbuilder{ctx: ctx}
		for _, p := range explainNodes(target) {
			ex.est[p] = q.estimate(p)
		}
		return ex, nil
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this statement")
}
