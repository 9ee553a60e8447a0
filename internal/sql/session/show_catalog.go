package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// systemDatabases are listed by SHOW DATABASES besides the user's ones.
var systemDatabases = []string{"INFORMATION_SCHEMA", "mysql", "PERFORMANCE_SCHEMA"}

// execShowCatalog runs the SHOW statements answered from the catalog; ok
// is false for other kinds.
func (s *Session) execShowCatalog(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
	is := s.d.catalog.InfoSchema()
	switch st.Tp {
	case ast.ShowDatabases:
		var rows [][]string
		for _, n := range systemDatabases {
			rows = append(rows, []string{n})
		}
		acc := s.account(ctx) // MySQL lists only databases the user may use
		for _, db := range is.Databases() {
			if acc.HasAnyOn(db.Name) {
				rows = append(rows, []string{db.Name})
			}
		}
		return stringsResult([]string{"Database"}, filterLike(rows, st.Pattern)), true, nil
	case ast.ShowTables:
		db := st.DBName
		if db == "" {
			db = s.db
		}
		if db == "" {
			return nil, true, sqlerr.New(sqlerr.ErrNoDB)
		}
		tables, err := is.Tables(db)
		if err != nil {
			return nil, true, err
		}
		names := []string{"Tables_in_" + db}
		if st.Full {
			names = append(names, "Table_type")
		}
		var rows [][]string
		for _, t := range tables {
			row := []string{t.Name}
			if st.Full {
				row = append(row, "BASE TABLE")
			}
			rows = append(rows, row)
		}
		return stringsResult(names, filterLike(rows, st.Pattern)), true, nil
	case ast.ShowCreateTable, ast.ShowColumns, ast.ShowIndex:
		t, err := s.tableOf(st.Table)
		if err != nil {
			return nil, true, err
		}
		switch st.Tp {
		case ast.ShowCreateTable:
			return stringsResult([]string{"Table", "Create Table"}, [][]string{{t.Name, catalog.ShowCreateTable(t)}}), true, nil
		case ast.ShowColumns:
			return datumsResult(catalog.DescribeColumnNames, catalog.DescribeRows(t)), true, nil
		default:
			return datumsResult(catalog.ShowIndexColumnNames, catalog.ShowIndexRows(t)), true, nil
		}
	}
	return nil, false, nil
}

// tableOf resolves a table name of a SHOW statement.
func (s *Session) tableOf(tn *ast.TableName) (*catalog.TableInfo, error) {
	db := tn.Schema.O
	if db == "" {
		db = s.db
	}
	if db == "" {
		return nil, sqlerr.New(sqlerr.ErrNoDB)
	}
	return s.d.catalog.InfoSchema().Table(db, tn.Name.O)
}

// filterLike keeps the rows whose first column matches SHOW ... LIKE.
func filterLike(rows [][]string, p *ast.PatternLikeOrIlikeExpr) [][]string {
	if p == nil {
		return rows
	}
	v, ok := p.Pattern.(ast.ValueExpr)
	if !ok {
		return rows
	}
	pattern := strings.ToLower(v.GetString())
	var out [][]string
	for _, r := range rows {
		if sysvar.MatchLike(pattern, strings.ToLower(r[0]), '\\') {
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
