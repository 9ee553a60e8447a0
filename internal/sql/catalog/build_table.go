package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Env is the session state a DDL statement depends on.
type Env struct {
	// CurrentDB resolves unqualified table names (USE db).
	CurrentDB string
	// DisableClusteredIndex is tidb_enable_clustered_index=OFF: an integer
	// primary key becomes a unique index and rows get _tidb_rowid handles.
	// (Only integer primary keys are ever clustered.)
	DisableClusteredIndex bool
	// DisableForeignKeyChecks is foreign_key_checks=OFF: foreign keys are
	// created without checking their parent, and referenced parents may
	// be dropped.
	DisableForeignKeyChecks bool
}

const (
	defaultCharset = "utf8mb4"
	defaultCollate = "utf8mb4_bin"
	maxIdentLen    = 64
)

func checkIdent(name string) error {
	if len(name) > maxIdentLen {
		return sqlerr.New(mysql.ErrTooLongIdent, name)
	}
	if name == "" || strings.HasSuffix(name, " ") {
		return sqlerr.New(mysql.ErrWrongColumnName, name)
	}
	return nil
}

// buildTableInfo turns CREATE TABLE's definition into a TableInfo without
// IDs of its own (ID and DBID are set by the caller); db gives the
// default character set.
func buildTableInfo(env Env, stmt *ast.CreateTableStmt, db *DBInfo) (*TableInfo, error) {
	t := &TableInfo{Name: stmt.Table.Name.O}
	if err := checkIdent(t.Name); err != nil {
		return nil, sqlerr.New(mysql.ErrWrongTableName, t.Name)
	}
	var cs, co string
	for _, o := range stmt.Options {
		switch o.Tp {
		case ast.TableOptionCharset:
			cs = o.StrValue
		case ast.TableOptionCollate:
			co = o.StrValue
		case ast.TableOptionComment:
			t.Comment = o.StrValue
		}
	}
	var err error
	if t.Charset, t.Collate, err = resolveCharset(cs, co, db.Charset, db.Collate); err != nil {
		return nil, err
	}
	if len(stmt.Cols) == 0 {
		return nil, sqlerr.New(mysql.ErrTableMustHaveColumns)
	}
	constraints := append([]*ast.Constraint(nil), stmt.Constraints...)
	var checks []*ast.Constraint
	for _, def := range stmt.Cols {
		col, inline, err := buildColumn(t, def)
		if err != nil {
			return nil, err
		}
		if t.Column(col.Name) != nil {
			return nil, sqlerr.New(mysql.ErrDupFieldName, col.Name)
		}
		col.Offset = len(t.Columns)
		t.Columns = append(t.Columns, col)
		for _, k := range inline {
			if k.Tp == ast.ConstraintCheck {
				checks = append(checks, k)
			} else {
				constraints = append(constraints, k)
			}
		}
	}
	for _, col := range t.Columns {
		if col.IsGenerated() {
			if err := checkGenerated(t, col); err != nil {
				return nil, err
			}
		}
	}
	var pk *ast.Constraint
	for _, c := range constraints {
		if c.Tp == ast.ConstraintPrimaryKey {
			if pk != nil {
				return nil, sqlerr.New(mysql.ErrMultiplePriKey)
			}
			pk = c
		}
	}
	if pk != nil {
		if err := addPrimaryKey(env, t, pk); err != nil {
			return nil, err
		}
	}
	for _, c := range constraints {
		switch c.Tp {
		case ast.ConstraintKey, ast.ConstraintIndex:
			if _, err := addIndexInfo(t, c.Name, c.Keys, false, c.Option); err != nil {
				return nil, err
			}
		case ast.ConstraintUniq, ast.ConstraintUniqKey, ast.ConstraintUniqIndex:
			if _, err := addIndexInfo(t, c.Name, c.Keys, true, c.Option); err != nil {
				return nil, err
			}
		case ast.ConstraintFulltext, ast.ConstraintVector, ast.ConstraintColumnar:
			return nil, sqlerr.New(mysql.ErrNotSupportedYet, "Unsupported index type")
		case ast.ConstraintCheck:
			checks = append(checks, c)
		}
	}
	// Column-level checks first (in column order), then table-level ones,
	// numbered t_chk_1, t_chk_2, ... when unnamed.
	for _, c := range checks {
		if _, err := addCheckInfo(t, c); err != nil {
			return nil, err
		}
	}
	if err := checkAutoIncrement(t); err != nil {
		return nil, err
	}
	setKeyFlags(t)
	return t, t.init()
}

// buildColumn builds one column (ID from t.MaxColumnID) and returns the
// PRIMARY KEY / UNIQUE constraints its options imply.
func buildColumn(t *TableInfo, def *ast.ColumnDef) (*ColumnInfo, []*ast.Constraint, error) {
	name := def.Name.Name.O
	if err := checkIdent(name); err != nil {
		return nil, nil, err
	}
	ft := types.FromParser(def.Tp)
	colCharset, colCollate := def.Tp.GetCharset(), def.Tp.GetCollate()
	// The parser sets no flags we keep other than UNSIGNED/ZEROFILL/BINARY.
	ft.Flag &^= mysql.NotNullFlag | mysql.PriKeyFlag | mysql.UniqueKeyFlag | mysql.MultipleKeyFlag | mysql.AutoIncrementFlag
	t.MaxColumnID++
	col := &ColumnInfo{ID: t.MaxColumnID, Name: name, FieldType: *ft}
	var inline []*ast.Constraint
	var defaultExpr ast.ExprNode
	keyPart := []*ast.IndexPartSpecification{{Column: def.Name, Length: types.UnspecifiedLength}}
	for _, o := range def.Options {
		switch o.Tp {
		case ast.ColumnOptionNotNull:
			col.FieldType.Flag |= mysql.NotNullFlag
		case ast.ColumnOptionNull:
			col.FieldType.Flag &^= mysql.NotNullFlag
		case ast.ColumnOptionPrimaryKey:
			col.FieldType.Flag |= mysql.NotNullFlag
			inline = append(inline, &ast.Constraint{Tp: ast.ConstraintPrimaryKey, Keys: keyPart,
				Option: &ast.IndexOption{PrimaryKeyTp: o.PrimaryKeyTp}})
		case ast.ColumnOptionUniqKey:
			inline = append(inline, &ast.Constraint{Tp: ast.ConstraintUniqKey, Keys: keyPart})
		case ast.ColumnOptionAutoIncrement:
			if col.FieldType.EvalType() != types.ETInt && col.FieldType.EvalType() != types.ETReal {
				return nil, nil, sqlerr.New(mysql.ErrWrongFieldSpec, name)
			}
			col.AutoIncrement = true
			col.FieldType.Flag |= mysql.AutoIncrementFlag | mysql.NotNullFlag
			if t.AutoIncColumn != 0 {
				return nil, nil, sqlerr.New(mysql.ErrWrongAutoKey)
			}
			t.AutoIncColumn = col.ID
		case ast.ColumnOptionDefaultValue:
			defaultExpr = o.Expr
		case ast.ColumnOptionOnUpdate:
			if !isCurrentTimestamp(o.Expr) || !col.FieldType.IsTime() || col.FieldType.Tp == mysql.TypeDate {
				return nil, nil, sqlerr.New(mysql.ErrInvalidOnUpdate, name)
			}
			col.OnUpdateNow = true
			col.FieldType.Flag |= mysql.OnUpdateNowFlag
		case ast.ColumnOptionComment:
			if d, ok := literalDatum(o.Expr); ok {
				col.Comment = d.String()
			}
		case ast.ColumnOptionCollate:
			colCollate = o.StrValue
		case ast.ColumnOptionGenerated:
			setGenerated(col, o)
		case ast.ColumnOptionCheck:
			inline = append(inline, checkConstraint(name, o))
		case ast.ColumnOptionReference:
			// MySQL 8 parses and ignores inline REFERENCES.
		}
	}
	if col.FieldType.Tp == mysql.TypeJSON {
		// JSON text is utf8mb4_bin whatever the table's charset.
		col.FieldType.Charset, col.FieldType.Collate = "utf8mb4", "utf8mb4_bin"
	} else if col.FieldType.EvalType() == types.ETString && colCharset != "binary" && !col.FieldType.IsBinaryString() {
		cs, co, err := resolveCharset(colCharset, colCollate, t.Charset, t.Collate)
		if err != nil {
			return nil, nil, err
		}
		col.FieldType.Charset, col.FieldType.Collate = cs, co
	}
	if err := checkColumnType(col); err != nil {
		return nil, nil, err
	}
	// DEFAULT is checked after NOT NULL, wherever it was written.
	if defaultExpr != nil {
		if col.AutoIncrement {
			return nil, nil, sqlerr.New(mysql.ErrInvalidDefault, name)
		}
		if err := setDefault(col, defaultExpr); err != nil {
			return nil, nil, err
		}
	}
	return col, inline, nil
}

// addPrimaryKey marks the key's columns NOT NULL and PRI and either makes
// the single integer column the handle or adds a PRIMARY unique index.
func addPrimaryKey(env Env, t *TableInfo, pk *ast.Constraint) error {
	for _, k := range pk.Keys {
		if k.Column == nil {
			return sqlerr.New(mysql.ErrNotSupportedYet, "expression index is not supported")
		}
		c := t.Column(k.Column.Name.O)
		if c == nil {
			return sqlerr.New(mysql.ErrKeyColumnDoesNotExits, k.Column.Name.O)
		}
		c.FieldType.Flag |= mysql.NotNullFlag | mysql.PriKeyFlag
	}
	clustered := !env.DisableClusteredIndex
	if pk.Option != nil {
		switch pk.Option.PrimaryKeyTp {
		case ast.PrimaryKeyTypeClustered:
			clustered = true
		case ast.PrimaryKeyTypeNonClustered:
			clustered = false
		}
	}
	if len(pk.Keys) == 1 && clustered {
		c := t.Column(pk.Keys[0].Column.Name.O)
		if c.FieldType.EvalType() == types.ETInt && pk.Keys[0].Length <= 0 {
			t.PKIsHandle = true
			return nil
		}
	}
	idx, err := addIndexInfo(t, "PRIMARY", pk.Keys, true, pk.Option)
	if err != nil {
		return err
	}
	idx.Primary = true
	return nil
}

// addIndexInfo appends an index over keys to t (ID from t.MaxIndexID),
// naming it after its first column when name is empty.
func addIndexInfo(t *TableInfo, name string, keys []*ast.IndexPartSpecification, unique bool, opt *ast.IndexOption) (*IndexInfo, error) {
	if len(keys) == 0 {
		return nil, sqlerr.New(mysql.ErrNotSupportedYet, "index without columns")
	}
	idx := &IndexInfo{Unique: unique}
	for _, k := range keys {
		if k.Column == nil {
			return nil, sqlerr.New(mysql.ErrNotSupportedYet, "expression index is not supported")
		}
		c := t.Column(k.Column.Name.O)
		if c == nil {
			return nil, sqlerr.New(mysql.ErrKeyColumnDoesNotExits, k.Column.Name.O)
		}
		if c.FieldType.Tp == mysql.TypeJSON {
			return nil, sqlerr.New(mysql.ErrJSONUsedAsKey, c.Name)
		}
		length := types.UnspecifiedLength
		if k.Length > 0 {
			if c.FieldType.EvalType() != types.ETString {
				return nil, sqlerr.New(mysql.ErrWrongSubKey)
			}
			length = k.Length
		} else if isBlobOrText(&c.FieldType) {
			return nil, sqlerr.New(mysql.ErrBlobKeyWithoutLength, c.Name)
		}
		idx.Columns = append(idx.Columns, &IndexColumn{Name: c.Name, Offset: c.Offset, Length: length})
	}
	if name == "" {
		name = uniqueIndexName(t, idx.Columns[0].Name)
	} else if !strings.EqualFold(name, "PRIMARY") || t.Index("PRIMARY") != nil {
		if t.Index(name) != nil {
			return nil, sqlerr.New(mysql.ErrDupKeyName, name)
		}
		if err := checkIdent(name); err != nil {
			return nil, sqlerr.New(mysql.ErrTooLongIdent, name)
		}
	}
	idx.Name = name
	if opt != nil {
		idx.Comment = opt.Comment
	}
	t.MaxIndexID++
	idx.ID = t.MaxIndexID
	t.Indices = append(t.Indices, idx)
	return idx, nil
}

// uniqueIndexName is MySQL's name for an unnamed index: its first column,
// then col_2, col_3, ... when taken.
func uniqueIndexName(t *TableInfo, col string) string {
	if t.Index(col) == nil && !strings.EqualFold(col, "PRIMARY") {
		return col
	}
	for i := 2; ; i++ {
		n := col + "_" + itoa(i)
		if t.Index(n) == nil {
			return n
		}
	}
}

// checkAutoIncrement: the AUTO_INCREMENT column must be the first column
// of some key (1075).
func checkAutoIncrement(t *TableInfo) error {
	c := t.AutoIncrementColumn()
	if c == nil {
		return nil
	}
	if t.PKIsHandle && c.InPrimaryKey() {
		return nil
	}
	for _, idx := range t.Indices {
		if strings.EqualFold(idx.Columns[0].Name, c.Name) {
			return nil
		}
	}
	return sqlerr.New(mysql.ErrWrongAutoKey)
}

// setKeyFlags sets the PRI/UNI/MUL flags that result-set metadata and
// DESCRIBE show.
func setKeyFlags(t *TableInfo) {
	for _, c := range t.Columns {
		c.FieldType.Flag &^= mysql.UniqueKeyFlag | mysql.MultipleKeyFlag
	}
	for _, idx := range t.Indices {
		first := t.Columns[idx.Columns[0].Offset]
		switch {
		case idx.Primary:
		case idx.Unique && len(idx.Columns) == 1:
			first.FieldType.Flag |= mysql.UniqueKeyFlag
		default:
			first.FieldType.Flag |= mysql.MultipleKeyFlag
		}
	}
}
