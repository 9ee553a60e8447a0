package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// MemTableScan reads a memory table (an information_schema table): its
// rows are built at execution time by the executor's MemTables hook. Its
// output is that of every table read: the table's columns, then a hidden
// handle (the row's position).
type MemTableScan struct {
	TableSource
}

// resolveMemTable resolves db.name when db is information_schema: ok is
// false for other databases; a missing table is MySQL's 1109 unknown
// table in information_schema.
func resolveMemTable(db, name string) (string, *catalog.TableInfo, bool, error) {
	if !infoschema.IsDB(db) {
		return "", nil, false, nil
	}
	t := infoschema.Lookup(name)
	if t == nil {
		return "", nil, true, sqlerr.New(sqlerr.ErrUnknownTable, name, infoschema.DBName)
	}
	return infoschema.DBName, t.TableInfo(), true, nil
}

// IsMemTable reports whether the tables of database db are memory tables.
func IsMemTable(db string) bool { return infoschema.IsDB(db) }
