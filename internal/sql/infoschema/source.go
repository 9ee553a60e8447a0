package infoschema

import (
	"sort"
	"time"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Source is what the row builders read: the schema snapshot of the
// statement and what the session knows besides.
type Source struct {
	Schema *catalog.InfoSchema
	// Account is the current user's; it decides which databases and
	// tables are visible. Nil sees everything.
	Account *privilege.Account
	// Accounts are the accounts whose grants USER_PRIVILEGES,
	// SCHEMA_PRIVILEGES and TABLE_PRIVILEGES list: all of them for a user
	// who may read the grant tables, else its own.
	Accounts []*privilege.Account
	// Processes are the sessions PROCESSLIST shows (the session filters
	// them by privilege).
	Processes []Process
	// Charsets and Collations are those the server knows, in the order
	// to list them.
	Charsets   []CharsetInfo
	Collations []CollationInfo
	// TableRows estimates the rows of a table (TABLES.TABLE_ROWS); nil
	// estimates 0.
	TableRows func(*catalog.TableInfo) uint64
	// Now is the statement time (the creation time shown for
	// information_schema's own tables).
	Now time.Time
}

// Process is one row of PROCESSLIST.
type Process struct {
	ID             uint64
	User, Host, DB string // DB "": NULL
	Command, State string
	Time           int64
	Info           string
	HasInfo        bool // Info is NULL unless set
}

// CharsetInfo is one row of CHARACTER_SETS.
type CharsetInfo struct {
	Name, DefaultCollation, Description string
	MaxLen                              int
}

// CollationInfo is one row of COLLATIONS.
type CollationInfo struct {
	Name, Charset string
	ID            int
	Default       bool
	Sortlen       int
	PadSpace      bool
}

// builders fill each table; tables without one have no rows.
var builders = map[string]func(*Source) [][]types.Datum{
	"SCHEMATA":                              schemataRows,
	"TABLES":                                tablesRows,
	"COLUMNS":                               columnsRows,
	"STATISTICS":                            statisticsRows,
	"KEY_COLUMN_USAGE":                      keyColumnUsageRows,
	"TABLE_CONSTRAINTS":                     tableConstraintsRows,
	"REFERENTIAL_CONSTRAINTS":               referentialConstraintsRows,
	"CHECK_CONSTRAINTS":                     checkConstraintsRows,
	"PARTITIONS":                            partitionsRows,
	"PROCESSLIST":                           processListRows,
	"USER_PRIVILEGES":                       userPrivilegesRows,
	"SCHEMA_PRIVILEGES":                     schemaPrivilegesRows,
	"TABLE_PRIVILEGES":                      tablePrivilegesRows,
	"CHARACTER_SETS":                        charsetRows,
	"COLLATIONS":                            collationRows,
	"COLLATION_CHARACTER_SET_APPLICABILITY": applicabilityRows,
	"ENGINES":                               engineRows,
	"VIEWS":                                 viewsRows,
}

// Rows returns the rows of information_schema table name that src's
// user may see; 1109 for an unknown table.
func Rows(src *Source, name string) ([][]types.Datum, error) {
	t := Lookup(name)
	if t == nil {
		return nil, sqlerr.New(sqlerr.ErrUnknownTable, name, DBName)
	}
	b := builders[t.Name]
	if b == nil {
		return nil, nil
	}
	return b(src), nil
}

// VisibleDB reports whether the user may see database db.
func (s *Source) VisibleDB(db string) bool {
	return s.Account == nil || IsDB(db) || s.Account.HasAnyOn(db)
}

// VisibleTable reports whether the user may see table db.table: some
// privilege on it, its database or globally.
func (s *Source) VisibleTable(db, table string) bool {
	a := s.Account
	if a == nil || IsDB(db) {
		return true
	}
	return a.Global&^privilege.GrantPriv != 0 || a.At(db, "")&^privilege.GrantPriv != 0 ||
		a.At(db, table)&^privilege.GrantPriv != 0
}

// dbTable is one table with its database's name.
type dbTable struct {
	db string
	t  *catalog.TableInfo
}

// visibleTables lists the user's tables, by database then name
// (information_schema's own first).
func (s *Source) visibleTables(withMem bool) []dbTable {
	var out []dbTable
	if withMem {
		for _, t := range tables {
			out = append(out, dbTable{DBName, t.info})
		}
	}
	if s.Schema == nil {
		return out
	}
	for _, db := range s.Schema.Databases() {
		if !s.VisibleDB(db.Name) {
			continue
		}
		ts, err := s.Schema.Tables(db.Name)
		if err != nil {
			continue
		}
		for _, t := range ts {
			if s.VisibleTable(db.Name, t.Name) {
				out = append(out, dbTable{db.Name, t})
			}
		}
	}
	return out
}

// Datum helpers.

func str(s string) types.Datum { return types.NewStringDatum(s) }
func i64(v int64) types.Datum  { return types.NewIntDatum(v) }
func null() types.Datum        { return types.NewNullDatum() }

func strOrNull(s string) types.Datum {
	if s == "" {
		return null()
	}
	return str(s)
}

func yesNo(b bool, yes, no string) types.Datum {
	if b {
		return str(yes)
	}
	return str(no)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
