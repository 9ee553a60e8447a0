package planner

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// resolveTable finds a table by (optionally qualified) name: 1046 without
// a database, 1146 for a missing table.
func resolveTable(ctx Context, tn *ast.TableName) (string, *catalog.TableInfo, error) {
	db := tn.Schema.O
	if db == "" {
		db = ctx.CurrentDB()
	}
	if db == "" {
		return "", nil, sqlerr.New(sqlerr.ErrNoDB)
	}
	if mdb, mt, ok, err := resolveMemTable(db, tn.Name.O); ok {
		return mdb, mt, err
	}
	t, err := ctx.InfoSchema().Table(db, tn.Name.O)
	if err != nil {
		return "", nil, err
	}
	return db, t, nil
}

// singleTable returns the one table of a FROM clause (joins and derived
// tables are not supported yet).
func singleTable(ctx Context, refs *ast.TableRefsClause) (TableSource, error) {
	if refs == nil || refs.TableRefs == nil {
		return TableSource{}, sqlerr.New(sqlerr.ErrNotSupportedYet, "a statement without a table")
	}
	j := refs.TableRefs
	if j.Right != nil {
		return TableSource{}, sqlerr.New(sqlerr.ErrNotSupportedYet, "joins")
	}
	ts, ok := j.Left.(*ast.TableSource)
	if !ok {
		if inner, ok := j.Left.(*ast.Join); ok && inner.Right == nil {
			return singleTable(ctx, &ast.TableRefsClause{TableRefs: inner})
		}
		return TableSource{}, sqlerr.New(sqlerr.ErrNotSupportedYet, "this FROM clause")
	}
	tn, ok := ts.Source.(*ast.TableName)
	if !ok {
		return TableSource{}, sqlerr.New(sqlerr.ErrNotSupportedYet, "derived tables")
	}
	db, t, err := resolveTable(ctx, tn)
	if err != nil {
		return TableSource{}, err
	}
	alias := ts.AsName.O
	if alias == "" {
		alias = t.Name
	}
	return newTableSource(db, t, alias), nil
}
