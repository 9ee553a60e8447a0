package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// showCreateViewCols are SHOW CREATE VIEW's columns (MySQL 8).
var showCreateViewCols = []string{"View", "Create View", "character_set_client", "collation_connection"}

// execShowView answers SHOW CREATE VIEW, and SHOW CREATE TABLE of a view
// (MySQL shows the view then); ok is false for other statements, and for
// SHOW CREATE TABLE of anything but a view.
func (s *Session) execShowView(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
	if st.Tp == ast.ShowColumns && st.Table != nil {
		return s.showViewColumns(ctx, st)
	}
	if st.Tp != ast.ShowCreateView && st.Tp != ast.ShowCreateTable || st.Table == nil {
		return nil, false, nil
	}
	db, t, err := s.tableOf(ctx, st.Table, "")
	if err != nil || !t.IsView() {
		if st.Tp == ast.ShowCreateTable {
			return nil, false, nil
		}
		if err == nil {
			err = sqlerr.New(mysql.ErrWrongObject, db, t.Name, "VIEW")
		}
		return nil, true, err
	}
	text := catalog.ShowCreateView(db, t, !strings.EqualFold(db, s.db))
	r := varcharRows(showCreateViewCols, [][]string{{t.Name, text, t.View.CharsetClient, t.View.CollationConnection}})
	return r.result(), true, nil
}

// showViewColumns answers DESCRIBE / SHOW [FULL] COLUMNS of a view with
// its columns' types as its query gives them now (MySQL derives them
// afresh, so a base table's altered column shows, and a view whose
// tables are gone is 1356); ok is false for anything but a view.
func (s *Session) showViewColumns(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
	db, t, err := s.tableOf(ctx, st.Table, st.DBName)
	if err != nil || !t.IsView() {
		return nil, false, nil
	}
	sel := &ast.SelectStmt{
		Kind:   ast.SelectStmtKindSelect,
		Fields: &ast.FieldList{Fields: []*ast.SelectField{{WildCard: &ast.WildCardField{}}}},
		From: &ast.TableRefsClause{TableRefs: &ast.Join{Left: &ast.TableSource{
			Source: &ast.TableName{Schema: ast.NewCIStr(db), Name: ast.NewCIStr(t.Name)}}}},
	}
	q := s.newQueryCtx(nil)
	p, err := planner.Build(q, sel)
	if err != nil {
		return nil, true, err
	}
	cols := visibleCols(p.Schema())
	if len(cols) != len(t.Columns) {
		return nil, true, sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
	}
	fresh := *t
	fresh.Columns = make([]*catalog.ColumnInfo, len(t.Columns))
	for i, c := range t.Columns {
		cc := *c
		cc.FieldType = *viewColumnType(cols[i].Ft)
		fresh.Columns[i] = &cc
	}
	r := describeRows(st, infoschema.ColumnsRowsOf(s.infoSource(ctx, q.is), db, &fresh))
	if err := r.filter(q, st); err != nil {
		return nil, true, err
	}
	return r.result(), true, nil
}
