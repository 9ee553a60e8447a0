package session

import (
	"context"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Text prepared statements (PREPARE name FROM ..., EXECUTE name [USING
// @a, ...], {DEALLOCATE | DROP} PREPARE name) are the session's binary
// protocol prepared statements (query_prepare.go) under a name: PREPARE
// prepares one and remembers its id, EXECUTE runs it with the user
// variables as parameters (and its plan cache), DEALLOCATE closes it.
// Names are case-insensitive and belong to the session, as in MySQL.

// unknownHandler is MySQL 8's 1243 for a name that was not prepared.
func unknownHandler(name, stmt string) error {
	return sqlerr.Newf(sqlerr.ErrUnknownStmtHandler, "Unknown prepared statement handler (%s) given to %s", name, stmt)
}

// execPrepareText runs PREPARE name FROM 'text' | @var. A statement of
// that name is deallocated first, even when the new one fails to
// prepare (MySQL's rule).
func (s *Session) execPrepareText(ctx context.Context, st *ast.PrepareStmt) (server.Result, error) {
	text := st.SQLText
	if st.SQLVar != nil {
		v, ok := s.userVars[strings.ToLower(st.SQLVar.Name)]
		if !ok {
			return nil, syntaxError("near 'NULL' at line 1")
		}
		text = v
	}
	name := strings.ToLower(st.Name)
	if id, ok := s.named[name]; ok {
		delete(s.named, name)
		s.closePrepared(id)
	}
	// Parse errors worded as for a query (s.prepare words them for
	// COM_STMT_PREPARE); more than one statement is 1064, as in MySQL.
	// Not with s.p: the statements of the text being run live in its
	// result.
	stmts, _, err := parser.New().ParseSQL(text)
	if err != nil {
		return nil, syntaxError(parseErrText(err))
	}
	if len(stmts) > 1 {
		return nil, syntaxError("near '" + stmts[1].Text() + "' at line 1")
	}
	pr, err := s.prepare(ctx, text)
	if err != nil {
		return nil, err
	}
	ps := s.prepStmts().stmts[pr.ID]
	switch ps.stmt.(type) {
	case *ast.PrepareStmt, *ast.ExecuteStmt, *ast.DeallocateStmt:
		s.closePrepared(pr.ID)
		return nil, sqlerr.New(mysql.ErrUnsupportedPs)
	}
	if returnsRows(ps.stmt) {
		// MySQL resolves a query's names at PREPARE (1146, 1054 ...).
		if _, err := planner.Build(s.newQueryCtx(nil), ps.stmt); err != nil {
			s.closePrepared(pr.ID)
			return nil, err
		}
	}
	if s.named == nil {
		s.named = map[string]uint32{}
	}
	s.named[name] = pr.ID
	return &okResult{}, nil
}

// execExecuteText runs EXECUTE name [USING @a, ...]: 1243 for an unknown
// name, 1210 when the number of variables is not the statement's number
// of parameters.
func (s *Session) execExecuteText(ctx context.Context, st *ast.ExecuteStmt) (server.Result, error) {
	id, ok := s.named[strings.ToLower(st.Name)]
	ps := s.prepStmts().stmts[id]
	if !ok || ps == nil {
		return nil, unknownHandler(st.Name, "EXECUTE")
	}
	if len(st.UsingVars) != ps.nParams {
		return nil, sqlerr.New(sqlerr.ErrWrongArguments, "EXECUTE")
	}
	args := make([]server.Arg, len(st.UsingVars))
	for i, e := range st.UsingVars {
		v, isNull, err := s.constString(ctx, e)
		if err != nil {
			return nil, err
		}
		args[i] = userVarArg(v, isNull)
	}
	if err := s.checkPriv(ctx, ps.stmt); err != nil {
		return nil, err
	}
	if err := s.checkViewUse(ctx, ps.stmt); err != nil {
		return nil, err
	}
	return s.executePrepared(ctx, id, args)
}

// syntaxError is 1064 with MySQL's wording; detail says where.
func syntaxError(detail string) error {
	return sqlerr.Newf(sqlerr.ErrParse, "You have an error in your SQL syntax; check the manual that corresponds to your Strata version for the right syntax to use %s", detail)
}

// userVarArg is a user variable's value as a parameter. User variables
// are kept as text: one that reads as an integer (as written by MySQL,
// no sign or leading zero) is passed as one, so that LIMIT ? and integer
// comparisons take it as MySQL would; anything else is a string.
func userVarArg(v string, isNull bool) server.Arg {
	if isNull {
		return server.Arg{Type: mysql.TypeNull, Null: true}
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && strconv.FormatInt(n, 10) == v {
		return server.Arg{Type: mysql.TypeLonglong, Value: n}
	}
	return server.Arg{Type: mysql.TypeVarString, Value: []byte(v)}
}

// execDeallocate runs {DEALLOCATE | DROP} PREPARE name (1243 for an
// unknown name).
func (s *Session) execDeallocate(st *ast.DeallocateStmt) (server.Result, error) {
	name := strings.ToLower(st.Name)
	id, ok := s.named[name]
	if !ok {
		return nil, unknownHandler(st.Name, "DEALLOCATE PREPARE")
	}
	delete(s.named, name)
	s.closePrepared(id)
	return &okResult{}, nil
}
