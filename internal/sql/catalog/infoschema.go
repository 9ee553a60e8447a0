package catalog

import (
	"sort"
	"strings"
	"sync"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// InfoSchema is an immutable snapshot of the schema at one version. Names
// are kept as created and compared case-insensitively
// (lower_case_table_names=2). It is safe for concurrent use.
type InfoSchema struct {
	version    int64
	dbs        map[string]*dbEntry // by lower-case name
	dbByID     map[int64]*dbEntry
	tablesByID map[int64]*TableInfo
	hasViews   bool

	// referredBy maps "db.table" (lower-case) to the foreign keys that
	// reference it, built on first use (ReferencingFKs).
	fkOnce     sync.Once
	referredBy map[string][]FKRef
}

type dbEntry struct {
	info   *DBInfo
	tables map[string]*TableInfo // by lower-case name
}

func newInfoSchema(version int64, dbs []*DBInfo, tables []*TableInfo) *InfoSchema {
	is := &InfoSchema{
		version:    version,
		dbs:        make(map[string]*dbEntry, len(dbs)),
		dbByID:     make(map[int64]*dbEntry, len(dbs)),
		tablesByID: make(map[int64]*TableInfo, len(tables)),
	}
	for _, db := range dbs {
		e := &dbEntry{info: db, tables: make(map[string]*TableInfo)}
		is.dbs[strings.ToLower(db.Name)] = e
		is.dbByID[db.ID] = e
	}
	for _, t := range tables {
		if e := is.dbByID[t.DBID]; e != nil {
			e.tables[strings.ToLower(t.Name)] = t
			is.tablesByID[t.ID] = t
			is.hasViews = is.hasViews || t.IsView()
		}
	}
	return is
}

// Version is the schema version the snapshot was loaded at.
func (is *InfoSchema) Version() int64 { return is.version }

// Databases returns all databases sorted by name.
func (is *InfoSchema) Databases() []*DBInfo {
	out := make([]*DBInfo, 0, len(is.dbs))
	for _, e := range is.dbs {
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Database returns the database named name, or 1049 unknown database.
func (is *InfoSchema) Database(name string) (*DBInfo, error) {
	e := is.dbs[strings.ToLower(name)]
	if e == nil {
		return nil, sqlerr.New(sqlerr.ErrBadDB, name)
	}
	return e.info, nil
}

// DatabaseExists reports whether the database exists.
func (is *InfoSchema) DatabaseExists(name string) bool {
	return is.dbs[strings.ToLower(name)] != nil
}

// DatabaseByID returns a database by ID.
func (is *InfoSchema) DatabaseByID(id int64) (*DBInfo, bool) {
	e := is.dbByID[id]
	if e == nil {
		return nil, false
	}
	return e.info, true
}

// Table returns table db.name: 1049 if the database does not exist, 1146
// if the table does not.
func (is *InfoSchema) Table(db, name string) (*TableInfo, error) {
	e := is.dbs[strings.ToLower(db)]
	if e == nil {
		return nil, sqlerr.New(sqlerr.ErrBadDB, db)
	}
	t := e.tables[strings.ToLower(name)]
	if t == nil {
		return nil, sqlerr.New(sqlerr.ErrNoSuchTable, db, name)
	}
	return t, nil
}

// TableExists reports whether table db.name exists.
func (is *InfoSchema) TableExists(db, name string) bool {
	_, err := is.Table(db, name)
	return err == nil
}

// TableByID returns a table by ID.
func (is *InfoSchema) TableByID(id int64) (*TableInfo, bool) {
	t, ok := is.tablesByID[id]
	return t, ok
}

// Tables returns the tables of database db sorted by name, or 1049.
func (is *InfoSchema) Tables(db string) ([]*TableInfo, error) {
	e := is.dbs[strings.ToLower(db)]
	if e == nil {
		return nil, sqlerr.New(sqlerr.ErrBadDB, db)
	}
	out := make([]*TableInfo, 0, len(e.tables))
	for _, t := range e.tables {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
