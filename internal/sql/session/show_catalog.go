package session

import (
	"context"
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// systemDatabases are listed by SHOW DATABASES besides information_schema
// and the user's databases (MySQL's; Strata has none of their tables).
var systemDatabases = []string{"mysql", "performance_schema"}

// execShowCatalog runs the SHOW statements answered from the catalog and
// information_schema; ok is false for other kinds. Most are projections
// of an information_schema table's rows, as in MySQL 8.
func (s *Session) execShowCatalog(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
	var r *showRows
	switch st.Tp {
	case ast.ShowDatabases:
		r, err = s.showDatabases(ctx)
	case ast.ShowTables, ast.ShowTableStatus:
		r, err = s.showTables(ctx, st)
	case ast.ShowColumns:
		r, err = s.showColumns(ctx, st)
	case ast.ShowIndex:
		r, err = s.showIndex(ctx, st)
	case ast.ShowCreateTable:
		r, err = s.showCreateTable(ctx, st)
	case ast.ShowCreateDatabase:
		r, err = s.showCreateDatabase(ctx, st)
	case ast.ShowCollation:
		r, err = s.memTableShow(ctx, "COLLATIONS", []string{"Collation", "Charset", "Id", "Default", "Compiled",
			"Sortlen", "Pad_attribute"}, []int{0, 1, 2, 3, 4, 5, 6})
	case ast.ShowCharset:
		r, err = s.memTableShow(ctx, "CHARACTER_SETS", []string{"Charset", "Description", "Default collation",
			"Maxlen"}, []int{0, 2, 1, 3})
	case ast.ShowEngines:
		r, err = s.memTableShow(ctx, "ENGINES", []string{"Engine", "Support", "Comment", "Transactions", "XA",
			"Savepoints"}, []int{0, 1, 2, 3, 4, 5})
	default:
		return nil, false, nil
	}
	if err == nil {
		err = r.filter(s.newQueryCtx(nil), st)
	}
	if err != nil {
		return nil, true, err
	}
	return r.result(), true, nil
}

// showRows is a SHOW statement's result: names, types and rows.
type showRows struct {
	names []string
	fts   []*types.FieldType
	rows  [][]types.Datum
}

// memTableShow projects the rows of information_schema table table: the
// columns at idx, renamed.
func (s *Session) memTableShow(ctx context.Context, table string, names []string, idx []int) (*showRows, error) {
	t := infoschema.Lookup(table)
	rows, err := infoschema.Rows(s.infoSource(ctx, s.d.catalog.InfoSchema()), table)
	if err != nil {
		return nil, err
	}
	return project(t, rows, names, idx), nil
}

func project(t *infoschema.Table, rows [][]types.Datum, names []string, idx []int) *showRows {
	r := &showRows{names: names}
	for _, i := range idx {
		r.fts = append(r.fts, t.Columns[i].Ft)
	}
	for _, row := range rows {
		out := make([]types.Datum, len(idx))
		for j, i := range idx {
			out[j] = row[i]
		}
		r.rows = append(r.rows, out)
	}
	return r
}

// varcharRows is a result of VARCHAR columns.
func varcharRows(names []string, rows [][]string) *showRows {
	r := &showRows{names: names}
	for range names {
		ft := types.NewFieldType(mysql.TypeVarchar)
		ft.Flen = 64
		r.fts = append(r.fts, ft)
	}
	for _, row := range rows {
		d := make([]types.Datum, len(row))
		for i, v := range row {
			d[i] = types.NewStringDatum(v)
		}
		r.rows = append(r.rows, d)
	}
	return r
}

func (r *showRows) result() server.Result { return newRowsResult(r.names, r.fts, r.rows) }

// showDatabases lists information_schema, the system databases and the
// databases the user has some privilege on, sorted by name as MySQL 8.
func (s *Session) showDatabases(ctx context.Context) (*showRows, error) {
	names := append([]string{}, systemDatabases...)
	rows, err := infoschema.Rows(s.infoSource(ctx, s.d.catalog.InfoSchema()), "SCHEMATA")
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		names = append(names, row[1].GetString())
	}
	sort.Strings(names)
	out := make([][]string, len(names))
	for i, n := range names {
		out[i] = []string{n}
	}
	return varcharRows([]string{"Database"}, out), nil
}

// showDB is the database a SHOW statement names, or the current one:
// 1046 without one, 1049 if it does not exist.
func (s *Session) showDB(db string) (string, error) {
	if db == "" {
		db = s.db
	}
	if db == "" {
		return "", sqlerr.New(sqlerr.ErrNoDB)
	}
	if infoschema.IsDB(db) {
		return infoschema.DBName, nil
	}
	d, err := s.d.catalog.InfoSchema().Database(db)
	if err != nil {
		return "", err
	}
	return d.Name, nil
}

// tableStatusCols are SHOW TABLE STATUS's columns, from TABLES'.
var tableStatusCols = []string{"Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length",
	"Data_length", "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time",
	"Update_time", "Check_time", "Collation", "Checksum", "Create_options", "Comment"}

// showTables runs SHOW [FULL] TABLES and SHOW TABLE STATUS: TABLES' rows
// of the database.
func (s *Session) showTables(ctx context.Context, st *ast.ShowStmt) (*showRows, error) {
	db, err := s.showDB(st.DBName)
	if err != nil {
		return nil, err
	}
	all, err := infoschema.Rows(s.infoSource(ctx, s.d.catalog.InfoSchema()), "TABLES")
	if err != nil {
		return nil, err
	}
	var rows [][]types.Datum
	for _, row := range all {
		if row[1].GetString() == db {
			rows = append(rows, row)
		}
	}
	t := infoschema.Lookup("TABLES")
	if st.Tp == ast.ShowTableStatus {
		idx := make([]int, len(tableStatusCols))
		idx[0] = 2
		for i := 1; i < len(idx); i++ {
			idx[i] = i + 3
		}
		return project(t, rows, tableStatusCols, idx), nil
	}
	names, idx := []string{"Tables_in_" + db}, []int{2}
	if st.Full {
		names, idx = append(names, "Table_type"), append(idx, 3)
	}
	return project(t, rows, names, idx), nil
}

// tableOf resolves the table of SHOW COLUMNS / INDEX / CREATE TABLE (db
// overrides its qualifier: SHOW COLUMNS FROM t FROM db): 1146 if it does
// not exist, 1142 if the user holds no privilege on it.
func (s *Session) tableOf(ctx context.Context, tn *ast.TableName, db string) (string, *catalog.TableInfo, error) {
	if db == "" {
		db = tn.Schema.O
	}
	db, err := s.showDB(db)
	if err != nil {
		return "", nil, err
	}
	if infoschema.IsDB(db) {
		t := infoschema.Lookup(tn.Name.O)
		if t == nil {
			return "", nil, sqlerr.New(sqlerr.ErrNoSuchTable, db, tn.Name.O)
		}
		return db, t.TableInfo(), nil
	}
	acc := s.account(ctx)
	if !acc.Global.Has(privilege.GlobalPrivs) && !(&infoschema.Source{Account: acc}).VisibleTable(db, tn.Name.O) {
		return "", nil, sqlerr.New(sqlerr.ErrTableaccessDenied, "SELECT", s.conn.User, s.conn.Host, tn.Name.O)
	}
	t, err := s.d.catalog.InfoSchema().Table(db, tn.Name.O)
	return db, t, err
}

// showColumns runs SHOW [FULL] COLUMNS and DESCRIBE.
func (s *Session) showColumns(ctx context.Context, st *ast.ShowStmt) (*showRows, error) {
	db, t, err := s.tableOf(ctx, st.Table, st.DBName)
	if err != nil {
		return nil, err
	}
	return describeRows(st, infoschema.ColumnsRowsOf(s.infoSource(ctx, s.d.catalog.InfoSchema()), db, t)), nil
}

// describeRows projects a table's COLUMNS rows to SHOW [FULL] COLUMNS'
// (DESCRIBE's) columns, keeping those DESCRIBE t col names.
func describeRows(st *ast.ShowStmt, columns [][]types.Datum) *showRows {
	// Field, Type, [Collation], Null, Key, Default, Extra, [Privileges, Comment]
	names, idx := catalog.DescribeColumnNames, []int{3, 15, 6, 16, 5, 17}
	if st.Full {
		names, idx = catalog.FullColumnNames, []int{3, 15, 14, 6, 16, 5, 17, 18, 19}
	}
	r := project(infoschema.Lookup("COLUMNS"), columns, names, idx)
	if st.Column != nil { // DESCRIBE t col: col is a LIKE pattern
		r.rows = likeRows(r.rows, st.Column.Name.O)
	}
	return r
}

// showIndexCols are SHOW INDEX's columns (MySQL 8), from STATISTICS'.
var showIndexCols = []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name", "Collation",
	"Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment", "Visible", "Expression"}

func (s *Session) showIndex(ctx context.Context, st *ast.ShowStmt) (*showRows, error) {
	db, t, err := s.tableOf(ctx, st.Table, st.DBName)
	if err != nil {
		return nil, err
	}
	all := infoschema.StatisticsRowsOf(db, t)
	return project(infoschema.Lookup("STATISTICS"), all, showIndexCols,
		[]int{2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}), nil
}

func (s *Session) showCreateTable(ctx context.Context, st *ast.ShowStmt) (*showRows, error) {
	_, t, err := s.tableOf(ctx, st.Table, "")
	if err != nil {
		return nil, err
	}
	return varcharRows([]string{"Table", "Create Table"}, [][]string{{t.Name, catalog.ShowCreateTable(t)}}), nil
}

// showCreateDatabase runs SHOW CREATE DATABASE [IF NOT EXISTS] db.
func (s *Session) showCreateDatabase(ctx context.Context, st *ast.ShowStmt) (*showRows, error) {
	var db *catalog.DBInfo
	if infoschema.IsDB(st.DBName) {
		db = &catalog.DBInfo{Name: infoschema.DBName, Charset: infoschema.Charset, Collate: infoschema.Collation}
	} else {
		var err error
		if db, err = s.d.catalog.InfoSchema().Database(st.DBName); err != nil {
			return nil, err
		}
	}
	text := catalog.ShowCreateDatabase(db)
	if st.IfNotExists {
		text = strings.Replace(text, "CREATE DATABASE ", "CREATE DATABASE /*!32312 IF NOT EXISTS*/ ", 1)
	}
	return varcharRows([]string{"Database", "Create Database"}, [][]string{{db.Name, text}}), nil
}
