package session

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// prepared is a prepared statement with its cached plan.
type prepared struct {
	stmt    ast.StmtNode
	nParams int
	// plan is the cached plan, valid for schemaVer and parameters of
	// kinds (the types param-backed constants were built with).
	plan      planner.Plan
	schemaVer int64
	kinds     []types.Kind
	// exec holds the executors of plan, reused by the next execution.
	exec execCache
	// limit is the LIMIT taken off a SELECT SQL_CALC_FOUND_ROWS, applied
	// to its rows (takeCalcFoundRowsLimit).
	limit *ast.Limit
}

// prepStore holds a session's prepared statements.
type prepStore struct {
	next  uint32
	stmts map[uint32]*prepared
}

func (s *Session) prepStmts() *prepStore {
	if s.prep == nil {
		s.prep = &prepStore{stmts: map[uint32]*prepared{}}
	}
	return s.prep
}

// prepare implements Session.Prepare.
func (s *Session) prepare(ctx context.Context, sql string) (*server.Prepared, error) {
	stmts, _, err := s.p.ParseSQL(sql)
	if err != nil {
		return nil, sqlerr.New(sqlerr.ErrParse, parseErrText(err), "", 1)
	}
	if len(stmts) != 1 {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "multiple statements in a prepared statement")
	}
	ps := &prepared{stmt: stmts[0], nParams: len(expr.ParamMarkers(stmts[0]))}
	ps.limit = takeCalcFoundRowsLimit(ps.stmt)
	st := s.prepStmts()
	st.next++
	st.stmts[st.next] = ps
	out := &server.Prepared{ID: st.next, Params: make([]*server.Column, ps.nParams)}
	for i := range out.Params {
		out.Params[i] = &server.Column{Name: "?", Type: mysql.TypeVarString, Charset: mysql.BinaryDefaultCollationID}
	}
	if ps.planned() && returnsRows(ps.stmt) {
		// The result columns, from a plan built with NULL parameters.
		if p, err := planner.Build(s.newQueryCtx(nil), ps.stmt); err == nil {
			for _, c := range p.Schema() {
				out.Columns = append(out.Columns, columnOf(c.Name, c.Ft))
			}
		}
	}
	return out, nil
}

// executePrepared implements Session.ExecutePrepared.
func (s *Session) executePrepared(ctx context.Context, id uint32, args []server.Arg) (server.Result, error) {
	ps := s.prepStmts().stmts[id]
	if ps == nil {
		return nil, sqlerr.New(sqlerr.ErrUnknownStmtHandler, id, "EXECUTE")
	}
	if len(args) != ps.nParams {
		return nil, sqlerr.New(sqlerr.ErrWrongArguments, "EXECUTE")
	}
	s.warnings = s.warnings[:0]
	params := make([]types.Datum, len(args))
	for i, a := range args {
		params[i] = argDatum(a)
	}
	if ps.limit != nil {
		res, err := s.runPrepared(ctx, ps, params)
		return s.applyLimit(res, err, ps.limit, params)
	}
	return s.runPrepared(ctx, ps, params)
}

// runPrepared runs ps with params.
func (s *Session) runPrepared(ctx context.Context, ps *prepared, params []types.Datum) (server.Result, error) {
	if !ps.planned() {
		return s.execStmt(ctx, ps.stmt)
	}
	q := s.newQueryCtx(params).forStmt(ps.stmt)
	p := ps.plan
	if p == nil || ps.schemaVer != q.is.Version() || !sameKinds(ps.kinds, params) || !s.planCacheOn() {
		var err error
		if p, err = planner.Build(q, ps.stmt); err != nil {
			return nil, err
		}
		ps.plan, ps.schemaVer = p, q.is.Version()
		ps.exec = execCache{}
		ps.kinds = ps.kinds[:0]
		for i := range params {
			ps.kinds = append(ps.kinds, params[i].Kind())
		}
	}
	var c *execCache
	if s.planCacheOn() {
		c = &ps.exec
	}
	return s.runPlan(ctx, q, p, c)
}

// planned reports whether the statement runs as a plan built with its
// parameters: the queries, and a SELECT without FROM that has parameters
// (execStmt would evaluate it without them).
func (ps *prepared) planned() bool {
	if isQuery(ps.stmt) {
		return true
	}
	_, sel := ps.stmt.(*ast.SelectStmt)
	return sel && ps.nParams > 0
}

// isQuery reports the statements execQuery runs.
func isQuery(stmt ast.StmtNode) bool {
	switch st := stmt.(type) {
	case *ast.SelectStmt:
		return !simpleNoFrom(st)
	case *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt, *ast.ExplainStmt:
		return true
	}
	return false
}

// returnsRows reports the queries whose result is rows.
func returnsRows(stmt ast.StmtNode) bool {
	switch stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return true
	}
	return false
}

func sameKinds(kinds []types.Kind, params []types.Datum) bool {
	if len(kinds) != len(params) {
		return false
	}
	for i := range params {
		if kinds[i] != params[i].Kind() {
			return false
		}
	}
	return true
}

// planCacheOn: tidb_enable_prepared_plan_cache (on unless set OFF).
func (s *Session) planCacheOn() bool {
	return !s.d.noPlanCache && s.vars.PreparedPlanCache()
}

// argDatum converts a COM_STMT_EXECUTE parameter.
func argDatum(a server.Arg) types.Datum {
	if a.Null || a.Value == nil {
		return types.NewNullDatum()
	}
	switch v := a.Value.(type) {
	case int64:
		return types.NewIntDatum(v)
	case uint64:
		return types.NewUintDatum(v)
	case float64:
		if a.Type == mysql.TypeFloat {
			return types.NewFloat32Datum(float32(v))
		}
		return types.NewFloat64Datum(v)
	case []byte:
		if a.Type == mysql.TypeNewDecimal {
			if d, err := types.ParseDecimal(string(v)); err == nil {
				return types.NewDecimalDatum(d)
			}
		}
		if a.Type == mysql.TypeBlob || a.Type == mysql.TypeTinyBlob || a.Type == mysql.TypeMediumBlob || a.Type == mysql.TypeLongBlob {
			return types.NewBytesDatum(v)
		}
		return types.NewStringDatum(string(v))
	case types.Time:
		return types.NewTimeDatum(v)
	case types.Duration:
		return types.NewDurationDatum(v)
	}
	return types.NewNullDatum()
}

// closePrepared implements Session.ClosePrepared.
func (s *Session) closePrepared(id uint32) { delete(s.prepStmts().stmts, id) }

// resetPrepared implements Session.ResetPrepared.
func (s *Session) resetPrepared(id uint32) error {
	if s.prepStmts().stmts[id] == nil {
		return sqlerr.New(sqlerr.ErrUnknownStmtHandler, id, "RESET")
	}
	return nil
}
