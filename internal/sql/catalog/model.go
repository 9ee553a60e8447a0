package catalog

import (
	"github.com/strata-db/strata/internal/codec"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// SchemaState is the F1 state of a schema object. Only Public objects are
// visible to reads; WriteOnly objects are maintained by writes (an index
// being backfilled) but not read.
type SchemaState byte

// Schema states. The zero value is Public, so that infos built by hand (in
// tests, or by other packages) are visible.
const (
	StatePublic SchemaState = iota
	StateWriteOnly
)

// String names the state.
func (s SchemaState) String() string {
	switch s {
	case StatePublic:
		return "public"
	case StateWriteOnly:
		return "write only"
	}
	return "unknown"
}

// DBInfo describes a database (schema).
type DBInfo struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Charset string `json:"charset"`
	Collate string `json:"collate"`
}

// TableInfo describes a table: its columns in order, its indexes and how
// rows are keyed. It is immutable once published in an InfoSchema; DDL
// works on a Clone.
type TableInfo struct {
	ID      int64         `json:"id"`
	DBID    int64         `json:"db_id"`
	Name    string        `json:"name"`
	Charset string        `json:"charset"`
	Collate string        `json:"collate"`
	Comment string        `json:"comment,omitempty"`
	Columns []*ColumnInfo `json:"columns"`
	Indices []*IndexInfo  `json:"indices,omitempty"`
	// PKIsHandle: the table has a single-column integer primary key whose
	// value is the row handle (clustered). Otherwise rows are keyed by an
	// implicit _tidb_rowid handle from the Allocator, and a primary key, if
	// any, is a unique index with Primary set.
	PKIsHandle bool `json:"pk_is_handle"`
	// AutoIncColumn is the ID of the AUTO_INCREMENT column, 0 for none.
	AutoIncColumn int64 `json:"auto_inc_column,omitempty"`
	MaxColumnID   int64 `json:"max_column_id"`
	MaxIndexID    int64 `json:"max_index_id"`
	// Version counts the DDL changes of this table.
	Version int64 `json:"version"`
	// View is set for a view (view.go), nil for a table.
	View *ViewInfo `json:"view,omitempty"`

	// Checks are the CHECK constraints (check.go), ForeignKeys the
	// foreign keys this table declares as the child (fk.go).
	Checks      []*CheckInfo `json:"checks,omitempty"`
	ForeignKeys []*FKInfo    `json:"foreign_keys,omitempty"`

	// Caches filled by init before the info is shared (nil on clones).
	colInfos  []codec.ColInfo
	storedIDs []int64 // IDs of the columns stored in row values
	exprs     tableExprs
}

// ColumnInfo describes a column. Offset is its position in
// TableInfo.Columns (and in row datum slices); ID identifies its value in
// stored rows and is never reused within a table.
type ColumnInfo struct {
	ID        int64           `json:"id"`
	Name      string          `json:"name"`
	Offset    int             `json:"offset"`
	FieldType types.FieldType `json:"type"`
	// HasDefault: the definition has a DEFAULT clause (DefaultNull,
	// DefaultValue or DefaultExpr says which).
	HasDefault bool `json:"has_default,omitempty"`
	// DefaultNull: DEFAULT NULL.
	DefaultNull bool `json:"default_null,omitempty"`
	// DefaultValue is the default literal as text (already converted to
	// the column type when the table was created), used when DefaultExpr
	// is empty and DefaultNull is false.
	DefaultValue string `json:"default_value,omitempty"`
	// DefaultExpr is DefaultCurrentTimestamp for DEFAULT CURRENT_TIMESTAMP
	// (or NOW()), with the fsp in FieldType.
	DefaultExpr string `json:"default_expr,omitempty"`
	// HasOriginDefault: the column was added by ALTER TABLE ADD COLUMN
	// with a non-NULL value for the rows that existed then, OriginDefault
	// (as text); rows without the column decode to it (NULL otherwise).
	HasOriginDefault bool   `json:"has_origin_default,omitempty"`
	OriginDefault    string `json:"origin_default,omitempty"`
	AutoIncrement    bool   `json:"auto_increment,omitempty"`
	OnUpdateNow      bool   `json:"on_update_now,omitempty"`
	Comment          string `json:"comment,omitempty"`
	Hidden           bool   `json:"hidden,omitempty"`
	// GeneratedExpr is the expression of a generated column in MySQL's
	// printed form (generated.go), "" for an ordinary column;
	// GeneratedStored tells STORED from VIRTUAL.
	GeneratedExpr   string `json:"generated_expr,omitempty"`
	GeneratedStored bool   `json:"generated_stored,omitempty"`

	// defaultDatum and originDatum cache the parsed values (filled by
	// (*TableInfo).init when loaded or built).
	defaultDatum types.Datum
	originDatum  types.Datum
}

// DefaultCurrentTimestamp is ColumnInfo.DefaultExpr for DEFAULT
// CURRENT_TIMESTAMP.
const DefaultCurrentTimestamp = "CURRENT_TIMESTAMP"

// IndexColumn is one column of an index.
type IndexColumn struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	// Length is the prefix length in characters (bytes for binary
	// strings), UnspecifiedLength (-1) for the whole value.
	Length int `json:"length"`
}

// IndexInfo describes a secondary index, or the primary key of a table
// whose rows are not keyed by it (PKIsHandle false).
type IndexInfo struct {
	ID      int64          `json:"id"`
	Name    string         `json:"name"`
	Columns []*IndexColumn `json:"columns"`
	Unique  bool           `json:"unique,omitempty"`
	Primary bool           `json:"primary,omitempty"`
	Comment string         `json:"comment,omitempty"`
	State   SchemaState    `json:"state,omitempty"`
}

// NotNull reports whether the column is NOT NULL.
func (c *ColumnInfo) NotNull() bool { return mysql.HasNotNullFlag(c.FieldType.Flag) }

// InPrimaryKey reports whether the column is part of the primary key (the
// row handle itself when TableInfo.PKIsHandle).
func (c *ColumnInfo) InPrimaryKey() bool { return mysql.HasPriKeyFlag(c.FieldType.Flag) }

// Column returns the column named name (case-insensitively), or nil.
func (t *TableInfo) Column(name string) *ColumnInfo {
	for _, c := range t.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// Index returns the index named name (case-insensitively; "PRIMARY" finds
// a non-handle primary key) in any state, or nil.
func (t *TableInfo) Index(name string) *IndexInfo {
	for _, idx := range t.Indices {
		if strings.EqualFold(idx.Name, name) {
			return idx
		}
	}
	return nil
}

// PublicIndices returns the indexes reads may use.
func (t *TableInfo) PublicIndices() []*IndexInfo {
	out := make([]*IndexInfo, 0, len(t.Indices))
	for _, idx := range t.Indices {
		if idx.State == StatePublic {
			out = append(out, idx)
		}
	}
	return out
}

// WritableIndices returns the indexes writes must maintain (public and
// write-only ones): every INSERT/UPDATE/DELETE writes or deletes the
// entries of all of them.
func (t *TableInfo) WritableIndices() []*IndexInfo { return t.Indices }

// PKHandleColumn returns the integer primary-key column that is the row
// handle, or nil when the table uses _tidb_rowid.
func (t *TableInfo) PKHandleColumn() *ColumnInfo {
	if !t.PKIsHandle {
		return nil
	}
	for _, c := range t.Columns {
		if c.InPrimaryKey() {
			return c
		}
	}
	return nil
}

// AutoIncrementColumn returns the AUTO_INCREMENT column, or nil.
func (t *TableInfo) AutoIncrementColumn() *ColumnInfo {
	if t.AutoIncColumn == 0 {
		return nil
	}
	for _, c := range t.Columns {
		if c.ID == t.AutoIncColumn {
			return c
		}
	}
	return nil
}

// PrimaryIndex returns the primary key's index when it is not the handle,
// or nil.
func (t *TableInfo) PrimaryIndex() *IndexInfo {
	for _, idx := range t.Indices {
		if idx.Primary {
			return idx
		}
	}
	return nil
}

// Clone returns a deep copy of t, for DDL to modify.
func (t *TableInfo) Clone() *TableInfo {
	c := *t
	c.colInfos, c.storedIDs, c.exprs = nil, nil, tableExprs{}
	c.Columns = make([]*ColumnInfo, len(t.Columns))
	for i, col := range t.Columns {
		cc := *col
		c.Columns[i] = &cc
	}
	c.Indices = make([]*IndexInfo, len(t.Indices))
	for i, idx := range t.Indices {
		ci := *idx
		ci.Columns = make([]*IndexColumn, len(idx.Columns))
		for j, ic := range idx.Columns {
			cic := *ic
			ci.Columns[j] = &cic
		}
		c.Indices[i] = &ci
	}
	c.Checks = make([]*CheckInfo, len(t.Checks))
	for i, ck := range t.Checks {
		cc := *ck
		c.Checks[i] = &cc
	}
	c.ForeignKeys = make([]*FKInfo, len(t.ForeignKeys))
	for i, fk := range t.ForeignKeys {
		c.ForeignKeys[i] = fk.clone()
	}
	return &c
}

// renumber recomputes column offsets after columns moved and the
// offsets of index columns from their names (t must be a private clone).
func (t *TableInfo) renumber() {
	for i, c := range t.Columns {
		c.Offset = i
	}
	for _, idx := range t.Indices {
		for _, ic := range idx.Columns {
			if c := t.Column(ic.Name); c != nil {
				ic.Offset = c.Offset
			}
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
