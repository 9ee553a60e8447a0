package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// FKAction is a referential action (ON DELETE / ON UPDATE).
type FKAction byte

// Referential actions. NO ACTION (the default) behaves as RESTRICT in
// InnoDB: both check at once.
const (
	FKNoAction FKAction = iota
	FKRestrict
	FKCascade
	FKSetNull
	FKSetDefault
)

// String names the action as SHOW CREATE TABLE and information_schema do.
func (a FKAction) String() string {
	switch a {
	case FKRestrict:
		return "RESTRICT"
	case FKCascade:
		return "CASCADE"
	case FKSetNull:
		return "SET NULL"
	case FKSetDefault:
		return "SET DEFAULT"
	}
	return "NO ACTION"
}

func fkAction(o ast.ReferOptionType) FKAction {
	switch o {
	case ast.ReferOptionRestrict:
		return FKRestrict
	case ast.ReferOptionCascade:
		return FKCascade
	case ast.ReferOptionSetNull:
		return FKSetNull
	case ast.ReferOptionSetDefault:
		return FKSetDefault
	}
	return FKNoAction
}

// FKInfo is a foreign key of its (child) table: Cols reference RefCols
// of RefDB.RefTable, by name (the parent may not exist while
// foreign_key_checks is off).
type FKInfo struct {
	Name     string   `json:"name"`
	Cols     []string `json:"cols"`
	RefDB    string   `json:"ref_db"`
	RefTable string   `json:"ref_table"`
	RefCols  []string `json:"ref_cols"`
	OnDelete FKAction `json:"on_delete,omitempty"`
	OnUpdate FKAction `json:"on_update,omitempty"`
	// ChildDB is the database of the child table when the key was
	// created (SHOW CREATE TABLE qualifies a parent elsewhere).
	ChildDB string `json:"child_db,omitempty"`
}

func (fk *FKInfo) clone() *FKInfo {
	c := *fk
	c.Cols = append([]string(nil), fk.Cols...)
	c.RefCols = append([]string(nil), fk.RefCols...)
	return &c
}

// ForeignKey returns t's foreign key named name, or nil.
func (t *TableInfo) ForeignKey(name string) *FKInfo {
	for _, fk := range t.ForeignKeys {
		if strings.EqualFold(fk.Name, name) {
			return fk
		}
	}
	return nil
}

// References reports whether fk references table db.name.
func (fk *FKInfo) References(db, name string) bool {
	return strings.EqualFold(fk.RefDB, db) && strings.EqualFold(fk.RefTable, name)
}

// FKRef is a foreign key seen from its parent: the child table (in
// ChildDB) and the key.
type FKRef struct {
	ChildDB string
	Child   *TableInfo
	FK      *FKInfo
}

// ReferencingFKs returns the foreign keys that reference table db.name
// (a self-referencing table included).
func (is *InfoSchema) ReferencingFKs(db, name string) []FKRef {
	is.fkOnce.Do(func() {
		is.referredBy = make(map[string][]FKRef)
		for _, e := range is.dbs {
			for _, t := range e.tables {
				for _, fk := range t.ForeignKeys {
					k := strings.ToLower(fk.RefDB) + "." + strings.ToLower(fk.RefTable)
					is.referredBy[k] = append(is.referredBy[k], FKRef{ChildDB: e.info.Name, Child: t, FK: fk})
				}
			}
		}
	})
	return is.referredBy[strings.ToLower(db)+"."+strings.ToLower(name)]
}

// FKColumnOffsets returns the offsets of names in t (-1 for a missing
// column).
func (t *TableInfo) FKColumnOffsets(names []string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = -1
		if c := t.Column(n); c != nil {
			out[i] = c.Offset
		}
	}
	return out
}

// LookupIndex says how to find t's rows by the values of some columns:
// through the handle (Handle true: the one column is the clustered
// primary key), or through Index, whose leading columns they are
// (Exact: a unique index of exactly those columns, one point read).
type LookupIndex struct {
	Handle bool
	Index  *IndexInfo
	Exact  bool
}

// IndexFor returns the best way to find t's rows by cols, and false when
// no public index starts with them.
func (t *TableInfo) IndexFor(cols []string) (LookupIndex, bool) {
	if t.handleIs(cols) {
		return LookupIndex{Handle: true}, true
	}
	var best LookupIndex
	found := false
	for _, idx := range t.PublicIndices() {
		if !indexStartsWith(idx, cols) {
			continue
		}
		exact := idx.Unique && len(idx.Columns) == len(cols)
		if !found || (exact && !best.Exact) {
			best, found = LookupIndex{Index: idx, Exact: exact}, true
		}
	}
	return best, found
}

// IndexPrefixKey returns the key prefix of idx's entries whose leading
// columns hold vals.
func (t *TableInfo) IndexPrefixKey(idx *IndexInfo, vals []types.Datum) kv.Key {
	key := codec.IndexPrefix(t.ID, idx.ID)
	for i, v := range vals {
		key = codec.EncodeKey(key, IndexKeyValue(&t.Columns[idx.Columns[i].Offset].FieldType, v))
	}
	return key
}

// PrefixEnd returns the first key after every key with prefix p.
func PrefixEnd(p kv.Key) kv.Key { return codec.PrefixEnd(p) }

// fkEnv is what building a foreign key needs besides the child table.
type fkEnv struct {
	db     string          // the child's database
	is     *InfoSchema     // to find the parent (nil: none)
	checks bool            // foreign_key_checks
	names  map[string]bool // FK names in use in the database (lower-case)
}

// addFKInfo validates FOREIGN KEY constraint k of t and appends it, with
// an index on the child columns when none starts with them (named after
// the constraint, as InnoDB does).
func addFKInfo(env fkEnv, t *TableInfo, k *ast.Constraint) (*FKInfo, error) {
	fk := &FKInfo{Name: k.Name, ChildDB: env.db}
	if fk.Name == "" {
		fk.Name = nextGeneratedName(t.Name+"_ibfk_", func(yield func(string)) {
			for _, f := range t.ForeignKeys {
				yield(f.Name)
			}
			for n := range env.names {
				yield(n)
			}
		})
	} else if t.ForeignKey(fk.Name) != nil || env.names[strings.ToLower(fk.Name)] {
		return nil, sqlerr.New(mysql.ErrFkDupName, fk.Name)
	}
	if err := checkIdent(fk.Name); err != nil {
		return nil, err
	}
	for _, key := range k.Keys {
		if key.Column == nil {
			return nil, sqlerr.New(mysql.ErrNotSupportedYet, "expressions in a foreign key")
		}
		c := t.Column(key.Column.Name.O)
		if c == nil {
			return nil, sqlerr.New(mysql.ErrKeyColumnDoesNotExits, key.Column.Name.O)
		}
		if c.IsGenerated() && !c.GeneratedStored {
			return nil, sqlerr.New(mysql.ErrUnsupportedOnGeneratedColumn, "Foreign key on virtual generated column")
		}
		fk.Cols = append(fk.Cols, c.Name)
	}
	ref := k.Refer
	fk.RefDB, fk.RefTable = env.db, ref.Table.Name.O
	if ref.Table.Schema.O != "" {
		fk.RefDB = ref.Table.Schema.O
	}
	for _, key := range ref.IndexPartSpecifications {
		if key.Column == nil {
			return nil, sqlerr.New(mysql.ErrNotSupportedYet, "expressions in a foreign key")
		}
		fk.RefCols = append(fk.RefCols, key.Column.Name.O)
	}
	if ref.OnDelete != nil {
		fk.OnDelete = fkAction(ref.OnDelete.ReferOpt)
	}
	if ref.OnUpdate != nil {
		fk.OnUpdate = fkAction(ref.OnUpdate.ReferOpt)
	}
	if len(fk.Cols) != len(fk.RefCols) {
		return nil, sqlerr.New(mysql.ErrWrongFkDef, fk.Name, "Key reference and table reference don't match")
	}
	if fk.OnDelete == FKSetDefault || fk.OnUpdate == FKSetDefault {
		return nil, sqlerr.New(mysql.ErrCannotAddForeign)
	}
	for _, name := range fk.Cols {
		c := t.Column(name)
		if (fk.OnDelete == FKSetNull || fk.OnUpdate == FKSetNull) && c.NotNull() {
			return nil, sqlerr.New(mysql.ErrForeignKeyColumnNotNull, c.Name, fk.Name)
		}
		if c.IsGenerated() && (fk.OnUpdate == FKCascade || fk.OnUpdate == FKSetNull || fk.OnDelete == FKSetNull) {
			return nil, sqlerr.Newf(mysql.ErrWrongFKOptionForGeneratedColumn, "Cannot define foreign key with %s clause on a generated column.", "ON UPDATE/ON DELETE SET NULL")
		}
	}
	if env.checks {
		if err := checkParent(env, t, fk); err != nil {
			return nil, err
		}
	}
	if _, ok := t.IndexFor(fk.Cols); !ok {
		idxName := k.Name
		keys := make([]*ast.IndexPartSpecification, len(k.Keys))
		copy(keys, k.Keys)
		if _, err := addIndexInfo(t, idxName, keys, false, nil); err != nil {
			return nil, err
		}
	}
	t.ForeignKeys = append(t.ForeignKeys, fk)
	return fk, nil
}

// checkParent validates fk's parent: it exists (1824), has the columns
// (3734) of compatible types (3780) and an index starting with them
// (1822).
func checkParent(env fkEnv, t *TableInfo, fk *FKInfo) error {
	var parent *TableInfo
	if fk.References(env.db, t.Name) {
		parent = t
	} else if env.is != nil {
		p, err := env.is.Table(fk.RefDB, fk.RefTable)
		if err == nil {
			parent = p
		}
	}
	if parent == nil {
		return sqlerr.New(mysql.ErrForeignKeyCannotOpenParent, fk.RefTable)
	}
	for i, name := range fk.RefCols {
		pc := parent.Column(name)
		if pc == nil {
			return sqlerr.New(sqlerr.ErrFKNoColumnParent, name, fk.Name, fk.RefTable)
		}
		fk.RefCols[i] = pc.Name
		cc := t.Column(fk.Cols[i])
		if !fkTypesCompatible(&cc.FieldType, &pc.FieldType) {
			return sqlerr.New(mysql.ErrFKIncompatibleColumns, cc.Name, pc.Name, fk.Name)
		}
	}
	fk.RefTable = parent.Name
	if _, ok := parent.IndexFor(fk.RefCols); !ok {
		return sqlerr.New(mysql.ErrForeignKeyNoIndexInParent, fk.Name, fk.RefTable)
	}
	return nil
}

// fkTypesCompatible is InnoDB's rule: integers and decimals of the same
// type and sign, strings of the same character set (any length),
// otherwise the same type.
func fkTypesCompatible(a, b *types.FieldType) bool {
	switch {
	case a.IsInteger() && b.IsInteger():
		return a.Tp == b.Tp && a.IsUnsigned() == b.IsUnsigned()
	case a.EvalType() == types.ETString && b.EvalType() == types.ETString:
		isChar := func(ft *types.FieldType) bool {
			return ft.Tp == mysql.TypeVarchar || ft.Tp == mysql.TypeString || ft.Tp == mysql.TypeVarString
		}
		return isChar(a) && isChar(b) && a.IsBinaryString() == b.IsBinaryString() && strings.EqualFold(a.Charset, b.Charset)
	case a.Tp == mysql.TypeNewDecimal:
		return b.Tp == a.Tp && a.Flen == b.Flen && a.Decimal == b.Decimal
	}
	return a.Tp == b.Tp
}

// fkNamesIn returns the lower-case names of the foreign keys of the
// tables of database db (FK names are unique per database in MySQL),
// except table skip's.
func fkNamesIn(is *InfoSchema, db string, skip int64) map[string]bool {
	out := map[string]bool{}
	tables, err := is.Tables(db)
	if err != nil {
		return out
	}
	for _, t := range tables {
		if t.ID == skip {
			continue
		}
		for _, fk := range t.ForeignKeys {
			out[strings.ToLower(fk.Name)] = true
		}
	}
	return out
}

// fkUsingIndex names a foreign key of t (as child) that needs index idx,
// or "".
func fkUsingIndex(t *TableInfo, idx *IndexInfo) string {
	for _, fk := range t.ForeignKeys {
		if needsIndex(t, idx, fk.Cols) {
			return fk.Name
		}
	}
	return ""
}

// needsIndex reports whether a foreign key over cols of t (as child or
// as parent) needs index idx to find rows: idx starts with cols and
// neither the clustered primary key nor another public index does.
func needsIndex(t *TableInfo, idx *IndexInfo, cols []string) bool {
	if !indexStartsWith(idx, cols) || t.handleIs(cols) {
		return false
	}
	for _, o := range t.PublicIndices() {
		if o != idx && indexStartsWith(o, cols) {
			return false
		}
	}
	return true
}

// handleIs reports whether cols is the clustered primary key column.
func (t *TableInfo) handleIs(cols []string) bool {
	if len(cols) != 1 {
		return false
	}
	pk := t.PKHandleColumn()
	return pk != nil && strings.EqualFold(pk.Name, cols[0])
}

func indexStartsWith(idx *IndexInfo, cols []string) bool {
	if len(idx.Columns) < len(cols) {
		return false
	}
	for i, c := range cols {
		if !strings.EqualFold(idx.Columns[i].Name, c) || idx.Columns[i].Length >= 0 {
			return false
		}
	}
	return true
}

// fkUsingColumn names a foreign key of t that uses column col (as child
// column), or "".
func fkUsingColumn(t *TableInfo, col string) string {
	for _, fk := range t.ForeignKeys {
		for _, c := range fk.Cols {
			if strings.EqualFold(c, col) {
				return fk.Name
			}
		}
	}
	return ""
}
