package session

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// refuseViewWrite refuses INSERT, REPLACE, UPDATE and DELETE whose target
// is a view: Strata's views are read-only. The errors are MySQL's for a
// view it cannot write through: 1471 (not insertable-into) and 1288 (not
// updatable).
func (s *Session) refuseViewWrite(stmt ast.StmtNode) error {
	var targets []*ast.TableName
	kind := ""
	switch st := stmt.(type) {
	case *ast.ExplainStmt:
		return s.refuseViewWrite(st.Stmt)
	case *ast.InsertStmt:
		if st.Table == nil {
			return nil
		}
		targets, kind = tablesIn(st.Table), "INSERT"
		if st.IsReplace {
			kind = "REPLACE"
		}
	case *ast.UpdateStmt:
		targets, kind = updateTargets(st), "UPDATE"
	case *ast.DeleteStmt:
		targets, kind = deleteTargets(st), "DELETE"
	default:
		return nil
	}
	is := s.d.catalog.InfoSchema()
	for _, tn := range targets {
		db := tn.Schema.O
		if db == "" {
			db = s.db
		}
		if t, err := is.Table(db, tn.Name.O); err == nil && t.IsView() {
			if kind == "INSERT" || kind == "REPLACE" {
				return sqlerr.New(mysql.ErrNonInsertableTable, t.Name, kind)
			}
			return sqlerr.New(mysql.ErrNonUpdatableTable, t.Name, kind)
		}
	}
	return nil
}
