package catalog

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Views are TableInfos whose View is set, stored and versioned like
// tables (MetaHash("DB:{dbID}")["Table:{id}"]) and sharing their name
// space, as in MySQL: a view and a table cannot have the same name. A
// view has no rows and no key range; its Columns (names and types as of
// the last CREATE / ALTER VIEW, no keys, no defaults) answer DESCRIBE and
// information_schema.COLUMNS, and reads plan View.Select afresh each
// time, as a derived table.

// ViewInfo is what a view adds to its TableInfo.
type ViewInfo struct {
	// Algorithm is "UNDEFINED", "MERGE" or "TEMPTABLE" (shown, not used).
	Algorithm string `json:"algorithm"`
	// DefinerUser and DefinerHost name the DEFINER account.
	DefinerUser string `json:"definer_user"`
	DefinerHost string `json:"definer_host"`
	// Security is "DEFINER" or "INVOKER".
	Security string `json:"security"`
	// CheckOption is "CASCADED" or "LOCAL" for WITH ... CHECK OPTION, ""
	// for none.
	CheckOption string `json:"check_option,omitempty"`
	// Select is the view's query as planned and as SHOW CREATE VIEW
	// prints it from the view's own database: wildcards expanded when the
	// view was defined, every column named, names in the view's database
	// unqualified (reads plan it with that database current).
	Select string `json:"select"`
	// Definition is Select with table names qualified by their database
	// (information_schema.VIEWS.VIEW_DEFINITION, SHOW CREATE VIEW from
	// another database).
	Definition string `json:"definition"`
	// Cols is the view's column list (CREATE VIEW v (a, b) AS ...), nil
	// when none was given.
	Cols []string `json:"cols,omitempty"`
	// CharsetClient and CollationConnection are the session's
	// character_set_client and collation_connection at definition.
	CharsetClient       string `json:"charset_client"`
	CollationConnection string `json:"collation_connection"`
}

// IsView reports whether t is a view.
func (t *TableInfo) IsView() bool { return t.View != nil }

// ViewMode says which statement a ViewDef comes from.
type ViewMode byte

// View modes.
const (
	// ViewCreate is CREATE VIEW: the name must be free (1050).
	ViewCreate ViewMode = iota
	// ViewReplace is CREATE OR REPLACE VIEW: a view of that name is
	// replaced; a table is 1347.
	ViewReplace
	// ViewAlter is ALTER VIEW: the view must exist (1146; a table is
	// 1347).
	ViewAlter
)

// ViewDef is a view definition the session has checked: its SELECT
// planned (so the referenced tables exist) and its columns derived.
type ViewDef struct {
	DB, Name string
	Mode     ViewMode
	View     *ViewInfo
	// Columns are the view's columns in order (Name and FieldType are
	// used; IDs and offsets are assigned here).
	Columns []*ColumnInfo
}

// CreateView runs CREATE [OR REPLACE] VIEW and ALTER VIEW. A replaced
// view keeps its ID and its Version grows, as an altered table's does.
func (c *Catalog) CreateView(ctx context.Context, def *ViewDef) error {
	if err := checkIdent(def.Name); err != nil {
		return err
	}
	return c.runDDL(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		dbInfo, err := is.Database(def.DB)
		if err != nil {
			return err
		}
		old, _ := is.Table(def.DB, def.Name)
		switch {
		case old == nil && def.Mode == ViewAlter:
			return sqlerr.New(mysql.ErrNoSuchTable, def.DB, def.Name)
		case old != nil && def.Mode == ViewCreate:
			return sqlerr.New(mysql.ErrTableExists, def.Name)
		case old != nil && !old.IsView():
			return sqlerr.New(mysql.ErrWrongObject, def.DB, old.Name, "VIEW")
		}
		t := &TableInfo{DBID: dbInfo.ID, Name: def.Name, View: def.View}
		for i, col := range def.Columns {
			cc := *col
			cc.ID, cc.Offset = int64(i+1), i
			t.Columns = append(t.Columns, &cc)
		}
		t.MaxColumnID = int64(len(t.Columns))
		if old != nil {
			t.ID, t.Name, t.Version = old.ID, old.Name, old.Version+1
		} else if t.ID, err = genGlobalIDs(ctx, txn, 1); err != nil {
			return err
		}
		if err := t.init(); err != nil {
			return err
		}
		return putTable(txn, t)
	})
}

// dropView runs DROP VIEW [IF EXISTS] v1, v2, ...: a missing view is 1051
// (naming all missing ones) unless IF EXISTS, a table is 1347; either
// drops nothing.
func (c *Catalog) dropView(ctx context.Context, env Env, stmt *ast.DropTableStmt) error {
	return c.runDDLMaybeNoop(ctx, func(txn kv.Transaction, is *InfoSchema) error {
		var missing []string
		var views []*TableInfo
		for _, tn := range stmt.Tables {
			db, err := dbName(env, tn)
			if err != nil {
				return err
			}
			t, err := is.Table(db, tn.Name.O)
			if err != nil {
				missing = append(missing, db+"."+tn.Name.O)
				continue
			}
			if !t.IsView() {
				return sqlerr.New(mysql.ErrWrongObject, db, t.Name, "VIEW")
			}
			views = append(views, t)
		}
		if len(missing) > 0 && !stmt.IfExists {
			return sqlerr.New(mysql.ErrBadTable, strings.Join(missing, ","))
		}
		if len(views) == 0 {
			return errNoop
		}
		for _, t := range views {
			if err := txn.Delete(tableKey(t.DBID, t.ID)); err != nil {
				return err
			}
		}
		return nil
	})
}

// HasViews reports whether the schema holds any view (statements skip
// their view checks when not).
func (is *InfoSchema) HasViews() bool { return is.hasViews }

// View returns view db.name: 1049 / 1146 as Table, 1347 if it is a table.
func (is *InfoSchema) View(db, name string) (*TableInfo, error) {
	t, err := is.Table(db, name)
	if err != nil {
		return nil, err
	}
	if !t.IsView() {
		return nil, sqlerr.New(mysql.ErrWrongObject, db, t.Name, "VIEW")
	}
	return t, nil
}

// refuseView is MySQL's error for DDL that needs a base table but names
// a view: TRUNCATE is 1146 (MySQL 8 does not find a table of that name),
// ALTER TABLE, CREATE / DROP INDEX and CREATE TABLE ... LIKE are 1347
// ("is not BASE TABLE"), and RENAME TABLE may not move a view to another
// database (1450). Checked against the current schema before the DDL
// runs.
func (c *Catalog) refuseView(env Env, stmt ast.StmtNode) error {
	is := c.InfoSchema()
	view := func(tn *ast.TableName) (string, *TableInfo) {
		db, err := dbName(env, tn)
		if err != nil {
			return "", nil
		}
		t, err := is.Table(db, tn.Name.O)
		if err != nil || !t.IsView() {
			return "", nil
		}
		return db, t
	}
	notBase := func(tn *ast.TableName) error {
		if db, t := view(tn); t != nil {
			return sqlerr.New(mysql.ErrWrongObject, db, t.Name, "BASE TABLE")
		}
		return nil
	}
	switch s := stmt.(type) {
	case *ast.TruncateTableStmt:
		if db, t := view(s.Table); t != nil {
			return sqlerr.New(mysql.ErrNoSuchTable, db, t.Name)
		}
	case *ast.AlterTableStmt:
		return notBase(s.Table)
	case *ast.CreateIndexStmt:
		return notBase(s.Table)
	case *ast.DropIndexStmt:
		return notBase(s.Table)
	case *ast.CreateTableStmt:
		if s.ReferTable != nil {
			return notBase(s.ReferTable)
		}
	case *ast.RenameTableStmt:
		for _, tt := range s.TableToTables {
			db, t := view(tt.OldTable)
			if t == nil {
				continue
			}
			if to, err := dbName(env, tt.NewTable); err == nil && !strings.EqualFold(to, db) {
				return sqlerr.New(mysql.ErrForbidSchemaChange, db, to)
			}
		}
	}
	return nil
}
