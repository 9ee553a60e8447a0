package session

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

var errNoTablesUsed = sqlerr.Newf(sqlerr.ErrUnknown, "No tables used")

// execShow runs the SHOW statements that need no catalog.
func (s *Session) execShow(ctx context.Context, st *ast.ShowStmt) (server.Result, error) {
	if res, ok, err := s.execShowCatalog(ctx, st); ok {
		return res, err
	}
	switch st.Tp {
	case ast.ShowVariables:
		pattern := ""
		if st.Pattern != nil {
			if v, ok := st.Pattern.Pattern.(ast.ValueExpr); ok {
				pattern = v.GetString()
			}
		}
		scope := sysvar.ScopeSession
		if st.GlobalScope {
			scope = sysvar.ScopeGlobal
		}
		var rows [][]string
		for _, nv := range s.vars.ShowVariables(pattern, scope) {
			rows = append(rows, []string{nv.Name, nv.Value})
		}
		return stringsResult([]string{"Variable_name", "Value"}, rows), nil
	case ast.ShowWarnings, ast.ShowErrors:
		var rows [][]string
		for _, w := range s.warnings {
			se := sqlerr.From(sysvarErr(w)) // the code and bare message MySQL shows
			rows = append(rows, []string{"Warning", fmt.Sprint(se.Code), se.Message})
		}
		return stringsResult([]string{"Level", "Code", "Message"}, rows), nil
	case ast.ShowStatus:
		var rows [][]string
		for _, nv := range s.d.statusVars() {
			if filterLike([][]string{{nv[0]}}, st.Pattern) != nil {
				rows = append(rows, nv)
			}
		}
		return stringsResult([]string{"Variable_name", "Value"}, rows), nil
	case ast.ShowEngines:
		return stringsResult([]string{"Engine", "Support", "Comment", "Transactions", "XA", "Savepoints"},
			[][]string{{"InnoDB", "DEFAULT", "Strata: distributed transactional storage", "YES", "NO", "NO"}}), nil
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this SHOW statement")
}
