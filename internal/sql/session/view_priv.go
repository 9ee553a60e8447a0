package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Reading a view needs SELECT on the view itself (checkPriv, as for a
// table); what the view reads is read with the rights of its definer (SQL
// SECURITY DEFINER) or of the session (INVOKER), through views over views.
// MySQL answers 1356 when that account may not read a table under the
// view, and 1449 when the definer does not exist.

// maxViewCheckDepth stops the walk of views over views (the planner
// reports recursion).
const maxViewCheckDepth = 64

// checkViewUse refuses writes through views (refuseViewWrite) and reads
// of views whose definer or invoker may not read what they read.
func (s *Session) checkViewUse(ctx context.Context, stmt ast.StmtNode) error {
	if err := s.refuseViewWrite(stmt); err != nil {
		return err
	}
	switch st := stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt, *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
	case *ast.ExplainStmt:
		if _, ok := st.Stmt.(*ast.ShowStmt); ok { // DESCRIBE
			return nil
		}
	default:
		return nil
	}
	is := s.d.catalog.InfoSchema()
	if !is.HasViews() {
		return nil
	}
	var p *parser.Parser
	return s.checkViewsIn(ctx, is, &p, tablesIn(stmt), s.db, nil, 0)
}

// checkViewsIn checks the views among names (unqualified ones are in
// curDB). invoker is the account the enclosing view reads with, nil at
// the statement's level (the session's, looked up when needed).
func (s *Session) checkViewsIn(ctx context.Context, is *catalog.InfoSchema, p **parser.Parser, names []*ast.TableName,
	curDB string, invoker *privilege.Account, depth int) error {
	if depth > maxViewCheckDepth {
		return nil
	}
	for _, tn := range names {
		db := tn.Schema.O
		if db == "" {
			db = curDB
		}
		t, err := is.Table(db, tn.Name.O)
		if err != nil || !t.IsView() {
			continue
		}
		reader := invoker
		if t.View.Security == "DEFINER" {
			reader = s.d.privs.Snapshot().Account(t.View.DefinerUser, t.View.DefinerHost)
			if reader == nil {
				return sqlerr.New(mysql.ErrNoSuchUser, t.View.DefinerUser, t.View.DefinerHost)
			}
		} else if reader == nil {
			reader = s.account(ctx)
		}
		if *p == nil {
			*p = parser.New()
		}
		stmt, err := (*p).ParseOneStmt(t.View.Select, "", "")
		if err != nil {
			continue // the planner reports it
		}
		inner := tablesIn(stmt)
		if !reader.Global.Has(privilege.GlobalPrivs) {
			for _, in := range inner {
				idb := in.Schema.O
				if idb == "" {
					idb = db
				}
				if !isSystemDB(idb) && !reader.Verify(strings.ToLower(idb), in.Name.L, privilege.SelectPriv) {
					return sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
				}
			}
		}
		if err := s.checkViewsIn(ctx, is, p, inner, db, reader, depth+1); err != nil {
			return err
		}
	}
	return nil
}
