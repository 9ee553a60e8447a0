package session

import (
	"context"
	"strings"
	"sync"

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
// of views whose definer or invoker may not read what they read. It
// costs nothing while the schema has no view.
func (s *Session) checkViewUse(ctx context.Context, stmt ast.StmtNode) error {
	is := s.d.catalog.InfoSchema()
	if !is.HasViews() {
		return nil
	}
	if err := s.refuseViewWrite(is, stmt); err != nil {
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
	return s.checkViewsIn(ctx, is, tablesIn(stmt), s.db, nil, 0)
}

// viewKey names one version of a view.
type viewKey struct{ id, version int64 }

// viewTables caches the tables each view version's query names (read
// only once built), so that statements over views do not parse the
// views' queries each time. It is dropped whole when it grows past
// maxCachedViews (old versions are never looked up again).
var (
	viewTablesMu sync.Mutex
	viewTables   = map[viewKey][]*ast.TableName{}
)

const maxCachedViews = 4096

// tablesOfView returns the tables view t's query names; ok is false when
// the query does not parse (the planner reports it).
func tablesOfView(t *catalog.TableInfo) (names []*ast.TableName, ok bool) {
	k := viewKey{t.ID, t.Version}
	viewTablesMu.Lock()
	names, ok = viewTables[k]
	viewTablesMu.Unlock()
	if ok {
		return names, true
	}
	stmt, err := parser.New().ParseOneStmt(t.View.Select, "", "")
	if err != nil {
		return nil, false
	}
	names = tablesIn(stmt)
	viewTablesMu.Lock()
	if len(viewTables) >= maxCachedViews {
		viewTables = map[viewKey][]*ast.TableName{}
	}
	viewTables[k] = names
	viewTablesMu.Unlock()
	return names, true
}

// checkViewsIn checks the views among names (unqualified ones are in
// curDB). invoker is the account the enclosing view reads with, nil at
// the statement's level (the session's, looked up when needed).
func (s *Session) checkViewsIn(ctx context.Context, is *catalog.InfoSchema, names []*ast.TableName,
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
		inner, ok := tablesOfView(t)
		if !ok {
			continue // the planner reports it
		}
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
		if err := s.checkViewsIn(ctx, is, inner, db, reader, depth+1); err != nil {
			return err
		}
	}
	return nil
}
