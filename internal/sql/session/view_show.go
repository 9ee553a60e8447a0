package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// showCreateViewCols are SHOW CREATE VIEW's columns (MySQL 8).
var showCreateViewCols = []string{"View", "Create View", "character_set_client", "collation_connection"}

// execShowView answers SHOW CREATE VIEW, and SHOW CREATE TABLE of a view
// (MySQL shows the view then); ok is false for other statements, and for
// SHOW CREATE TABLE of anything but a view.
func (s *Session) execShowView(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
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
