package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

var errNoTablesUsed = sqlerr.Newf(sqlerr.ErrUnknown, "No tables used")

// execShow runs a SHOW statement (DESCRIBE too: a SHOW COLUMNS).
func (s *Session) execShow(ctx context.Context, st *ast.ShowStmt) (server.Result, error) {
	if res, ok, err := s.execShowView(ctx, st); ok {
		return res, err
	}
	if res, ok, err := s.execShowCatalog(ctx, st); ok {
		return res, err
	}
	if res, ok, err := s.execShowStats(ctx, st); ok {
		return res, err
	}
	switch st.Tp {
	case ast.ShowProcessList:
		return s.execShowProcessList(ctx, st.Full)
	case ast.ShowGrants:
		return s.execShowGrants(ctx, st)
	case ast.ShowVariables:
		scope := sysvar.ScopeSession
		if st.GlobalScope {
			scope = sysvar.ScopeGlobal
		}
		var rows [][]string
		for _, nv := range s.vars.ShowVariables("", scope) {
			rows = append(rows, []string{nv.Name, nv.Value})
		}
		return s.filteredStrings(st, []string{"Variable_name", "Value"}, rows)
	case ast.ShowWarnings, ast.ShowErrors:
		var rows [][]string
		for _, w := range s.warnings {
			se := sqlerr.From(sysvarErr(w)) // the code and bare message MySQL shows
			rows = append(rows, []string{"Warning", fmt.Sprint(se.Code), se.Message})
		}
		return stringsResult([]string{"Level", "Code", "Message"}, rows), nil
	case ast.ShowStatus:
		return s.filteredStrings(st, []string{"Variable_name", "Value"}, s.d.statusVars())
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this SHOW statement")
}

// filteredStrings is a VARCHAR result filtered by SHOW's LIKE or WHERE.
func (s *Session) filteredStrings(st *ast.ShowStmt, names []string, rows [][]string) (server.Result, error) {
	r := varcharRows(names, rows)
	if err := r.filter(s.newQueryCtx(nil), st); err != nil {
		return nil, err
	}
	return r.result(), nil
}

// filter applies SHOW's LIKE (to the first column, case-insensitively)
// or WHERE (over the result's columns, by their names). MySQL names the
// column of SHOW DATABASES / TABLES LIKE after the pattern.
func (r *showRows) filter(q *queryCtx, st *ast.ShowStmt) error {
	if st.Pattern != nil {
		v, ok := st.Pattern.Pattern.(ast.ValueExpr)
		if !ok {
			return sqlerr.New(sqlerr.ErrNotSupportedYet, "a LIKE pattern that is not a literal")
		}
		pattern := v.GetString()
		r.rows = likeRows(r.rows, pattern)
		if st.Tp == ast.ShowDatabases || st.Tp == ast.ShowTables {
			r.names = append([]string{r.names[0] + " (" + pattern + ")"}, r.names[1:]...)
		}
	}
	if st.Where == nil {
		return nil
	}
	cond, err := expr.Build(q, st.Where, showSchema{r.names, r.fts})
	if err != nil {
		return err
	}
	chk := chunk.New(r.fts, max(len(r.rows), 1))
	for _, row := range r.rows {
		for i := range row {
			chk.AppendDatum(i, &row[i])
		}
	}
	kept := r.rows[:0]
	for i, row := range r.rows {
		v, err := cond.Eval(q, chk.GetRow(i))
		if err != nil {
			return err
		}
		if b, ok := v.ToBool(); ok && b {
			kept = append(kept, row)
		}
	}
	r.rows = kept
	return nil
}

// likeRows keeps the rows whose first column matches pattern (LIKE,
// case-insensitive, \ escapes).
func likeRows(rows [][]types.Datum, pattern string) [][]types.Datum {
	pattern = strings.ToLower(pattern)
	var out [][]types.Datum
	for _, r := range rows {
		if !r[0].IsNull() && sysvar.MatchLike(pattern, strings.ToLower(r[0].GetString()), '\\') {
			out = append(out, r)
		}
	}
	return out
}

// datumsResult builds a result whose column types come from the first
// non-NULL value of each column (VARCHAR when all are NULL).
func datumsResult(names []string, rows [][]types.Datum) *rowsResult {
	fts := make([]*types.FieldType, len(names))
	for c := range names {
		for _, r := range rows {
			if r[c].Kind() == types.KindInt64 {
				fts[c] = types.NewFieldType(mysql.TypeLonglong)
				break
			}
			if r[c].Kind() != types.KindNull {
				break
			}
		}
		if fts[c] == nil {
			fts[c] = types.NewFieldType(mysql.TypeVarchar)
			fts[c].Flen = 64
		}
	}
	return newRowsResult(names, fts, rows)
}

// showSchema resolves SHOW ... WHERE's names: the result's columns.
type showSchema struct {
	names []string
	fts   []*types.FieldType
}

func (sc showSchema) Resolve(db, table, column string) (int, *types.FieldType, error) {
	if db == "" && table == "" {
		for i, n := range sc.names {
			if strings.EqualFold(n, column) {
				return i, sc.fts[i], nil
			}
		}
	}
	return 0, nil, expr.ErrUnknownColumn(column, "where clause")
}
