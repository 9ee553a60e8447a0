package session

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/sql/exec"
	_ "github.com/strata-db/strata/internal/sql/expr" // the parser's value-expression driver
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/statistics"
)

// Session is one connection's SQL state. It implements server.Session.
type Session struct {
	d    *Domain
	conn server.ConnInfo
	vars *sysvar.Vars
	p    *parser.Parser
	db   string

	// txn is the open explicit transaction (BEGIN ... COMMIT), or nil.
	txn *txnclient.Txn
	// warnings of the last statement (SHOW WARNINGS).
	warnings []error
	// rows is ROW_COUNT()'s state (row_count.go).
	rows rowCount
	// userVars are @name values.
	userVars map[string]string
	// prep holds the prepared statements (query_prepare.go).
	prep *prepStore
	// named maps PREPARE names to prepared statements (prepare_text.go).
	named map[string]uint32
	// proc is what SHOW PROCESSLIST shows of this session.
	proc procInfo
	// txnStats are the statistics' row counts of the explicit
	// transaction's writes, handed over at COMMIT (stats_writes.go).
	txnStats map[int64]statistics.Delta
	// collectStats, set while EXPLAIN ANALYZE runs its statement, is
	// handed to the executors.
	collectStats *exec.RuntimeStats
}

var _ server.Session = (*Session)(nil)

func newSession(d *Domain, c server.ConnInfo) *Session {
	return &Session{
		d: d, conn: c, vars: sysvar.NewVars(d.globals), p: parser.New(),
		userVars: map[string]string{}, rows: newRowCount(),
	}
}

// ExecuteText implements server.Session.
func (s *Session) ExecuteText(ctx context.Context, sql string, emit func(server.Result) error) error {
	p := s.p
	if len(sql) > bigSQL {
		if err := s.d.bigStmts.acquire(ctx, len(sql)); err != nil {
			return err
		}
		defer s.d.bigStmts.release(len(sql))
		// A parser keeps its last result: let a big statement's tree go
		// with the statement (a multi-row INSERT's literals weigh some
		// 25 times its text).
		p = parser.New()
	}
	stmts, warns, err := p.ParseSQL(sql)
	if err != nil { // ALTER VIEW and WITH CHECK OPTION are beyond the parser
		if st, ok := reparseView(sql); ok {
			stmts, warns, err = []ast.StmtNode{st}, nil, nil
		}
	}
	if err != nil {
		s.rows.finish(nil, err) // a statement that failed to parse: -1
		return sqlerr.Newf(sqlerr.ErrParse, "You have an error in your SQL syntax; check the manual that corresponds to your Strata version for the right syntax to use %s", parseErrText(err))
	}
	if len(stmts) > 1 && !server.MultiStatementsAllowed(ctx) {
		return sqlerr.New(sqlerr.ErrMultiStatementDisabled)
	}
	for i, stmt := range stmts {
		stmts[i] = nil               // the tree is garbage once the statement is planned
		if !showsDiagnostics(stmt) { // SHOW WARNINGS reads the previous statement's
			s.warnings = append(s.warnings[:0], warns...)
		}
		start := time.Now()
		s.proc.set("Query", stmt.Text())
		typ := stmtType(stmt)
		s.rows.start()
		res, err := s.execStmt(ctx, stmt)
		res = s.rows.finish(res, err)
		s.proc.set("Sleep", "")
		s.d.metrics.observe(typ, start, err)
		if err != nil {
			return err
		}
		if err := emit(res); err != nil {
			return err
		}
	}
	return nil
}

// bigSQL is the text size above which a statement gets its own parser.
const bigSQL = 64 << 10

// parseErrText strips the parser's "[parser:1064]" prefix: the protocol
// layer adds MySQL's own framing.
func parseErrText(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "]"); strings.HasPrefix(msg, "[") && i > 0 {
		msg = msg[i+1:]
	}
	msg = strings.TrimPrefix(msg, "You have an error in your SQL syntax; check the manual that corresponds to your TiDB version for the right syntax to use ")
	return strings.TrimSpace(msg)
}

// execStmt runs one statement.
func (s *Session) execStmt(ctx context.Context, stmt ast.StmtNode) (server.Result, error) {
	if err := s.checkPriv(ctx, stmt); err != nil {
		return nil, err
	}
	if err := s.checkViewUse(ctx, stmt); err != nil {
		return nil, err
	}
	// DESCRIBE t parses as EXPLAIN of SHOW COLUMNS.
	if ex, ok := stmt.(*ast.ExplainStmt); ok {
		if show, ok := ex.Stmt.(*ast.ShowStmt); ok {
			return s.execShow(ctx, show)
		}
	}
	switch st := stmt.(type) {
	case *ast.SetStmt:
		return s.execSet(ctx, st)
	case *ast.UseStmt:
		return &okResult{}, s.UseDB(ctx, st.DBName)
	case *ast.BeginStmt:
		return &okResult{}, s.begin(ctx, st.Mode)
	case *ast.CommitStmt:
		return &okResult{}, s.commit(ctx)
	case *ast.RollbackStmt:
		return &okResult{}, s.rollback()
	case *ast.ShowStmt:
		return s.execShow(ctx, st)
	case *ast.KillStmt:
		return s.execKill(st)
	case *ast.CreateViewStmt:
		return s.execCreateView(ctx, st, nil)
	case *alterViewStmt:
		return s.execCreateView(ctx, st.CreateViewStmt, st)
	case *ast.PrepareStmt:
		return s.execPrepareText(ctx, st)
	case *ast.ExecuteStmt:
		return s.execExecuteText(ctx, st)
	case *ast.DeallocateStmt:
		return s.execDeallocate(st)
	case *ast.AnalyzeTableStmt:
		return s.execAnalyze(ctx, st)
	case *ast.CreateUserStmt, *ast.AlterUserStmt, *ast.DropUserStmt, *ast.GrantStmt, *ast.RevokeStmt,
		*ast.SetPwdStmt, *ast.FlushStmt:
		return s.execPrivStmt(ctx, st)
	case *ast.SelectStmt:
		if lim := takeCalcFoundRowsLimit(st); lim != nil {
			res, err := s.execStmt(ctx, st)
			return s.applyLimit(res, err, lim, nil)
		}
		if simpleNoFrom(st) {
			return s.execSelectNoFrom(ctx, st)
		}
		return s.execQuery(ctx, st)
	case *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt, *ast.ExplainStmt:
		return s.execQuery(ctx, st)
	}
	if isDDL(stmt) {
		return s.execDDL(ctx, stmt)
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this statement ("+stmtName(stmt)+")")
}

func stmtName(stmt ast.StmtNode) string {
	n := strings.TrimPrefix(fmt.Sprintf("%T", stmt), "*ast.")
	return strings.TrimSuffix(n, "Stmt")
}

// Prepare implements server.Session.
func (s *Session) Prepare(ctx context.Context, sql string) (*server.Prepared, error) {
	return s.prepare(ctx, sql)
}

// ExecutePrepared implements server.Session.
func (s *Session) ExecutePrepared(ctx context.Context, id uint32, args []server.Arg) (res server.Result, err error) {
	s.rows.start()
	defer func() { res = s.rows.finish(res, err) }()
	start, typ := time.Now(), "Other"
	if ps := s.prepStmts().stmts[id]; ps != nil {
		typ = stmtType(ps.stmt)
		if err := s.checkPriv(ctx, ps.stmt); err != nil {
			s.d.metrics.observe(typ, start, err)
			return nil, err
		}
		if err := s.checkViewUse(ctx, ps.stmt); err != nil {
			s.d.metrics.observe(typ, start, err)
			return nil, err
		}
		s.proc.set("Query", ps.stmt.Text())
		defer s.proc.set("Sleep", "")
	}
	res, err = s.executePrepared(ctx, id, args)
	s.d.metrics.observe(typ, start, err)
	return res, err
}

// ClosePrepared implements server.Session.
func (s *Session) ClosePrepared(id uint32) { s.closePrepared(id) }

// ResetPrepared implements server.Session.
func (s *Session) ResetPrepared(id uint32) error { return s.resetPrepared(id) }

// UseDB implements server.Session: the database must exist (1049).
func (s *Session) UseDB(ctx context.Context, db string) error {
	if err := s.checkUse(ctx, db); err != nil {
		return err
	}
	if infoschema.IsDB(db) {
		s.db = infoschema.DBName
		return nil
	}
	d, err := s.d.catalog.InfoSchema().Database(db)
	if err != nil {
		return err
	}
	s.db = d.Name
	return nil
}

// FieldList implements server.Session.
func (s *Session) FieldList(ctx context.Context, table, wildcard string) ([]*server.Column, error) {
	return nil, sqlerr.New(sqlerr.ErrNoSuchTable, s.db, table)
}

// Status implements server.Session.
func (s *Session) Status() uint16 {
	var st uint16
	if s.vars.Autocommit() {
		st |= mysql.ServerStatusAutocommit
	}
	if s.txn != nil {
		st |= mysql.ServerStatusInTrans
	}
	return st
}

// WarningCount implements server.Session.
func (s *Session) WarningCount() uint16 { return uint16(min(len(s.warnings), 65535)) }

// Close implements server.Session: an open transaction is rolled back.
func (s *Session) Close() {
	if s.txn != nil {
		_ = s.txn.Rollback()
		s.txn = nil
		s.endTxnStats(false)
	}
	s.d.forget(s.conn.ID)
}

// showsDiagnostics reports SHOW WARNINGS / SHOW ERRORS, which show the
// previous statement's diagnostics instead of clearing them.
func showsDiagnostics(stmt ast.StmtNode) bool {
	st, ok := stmt.(*ast.ShowStmt)
	return ok && (st.Tp == ast.ShowWarnings || st.Tp == ast.ShowErrors)
}
