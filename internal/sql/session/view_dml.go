package session

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// refuseViewWrite refuses INSERT, REPLACE, UPDATE and DELETE whose target
// is a view of is: Strata's views are read-only. The errors are MySQL's
// for a view it cannot write through: 1471 (not insertable-into) and 1288
// (not updatable).
func (s *Session) refuseViewWrite(is *catalog.InfoSchema, stmt ast.StmtNode) error {
	if ex, ok := stmt.(*ast.ExplainStmt); ok {
		return s.refuseViewWrite(is, ex.Stmt)
	}
	targets, kind := writeTargets(stmt)
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
