package infoschema

import (
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// DBName is the database's name as MySQL 8 shows it.
const DBName = "information_schema"

// Charset and Collation are those of information_schema's string columns
// (MySQL 8: utf8mb3, which the parser calls utf8).
const (
	Charset   = "utf8"
	Collation = "utf8_general_ci"
)

// IsDB reports whether db names information_schema (any case).
func IsDB(db string) bool { return strings.EqualFold(db, DBName) }

// Column is one column of a memory table.
type Column struct {
	Name string
	Ft   *types.FieldType
}

// Table is the definition of one information_schema table.
type Table struct {
	Name    string
	Columns []Column
	info    *catalog.TableInfo
}

// TableInfo returns the table's definition in the catalog's shape (for
// name resolution and SHOW statements); callers must not modify it.
func (t *Table) TableInfo() *catalog.TableInfo { return t.info }

// memTableIDBase keeps memory-table IDs away from the catalog's (TiDB
// does the same).
const memTableIDBase = int64(1) << 62

var (
	tables  []*Table
	byLower map[string]*Table
)

// Lookup returns the table named name (case-insensitive), or nil.
func Lookup(name string) *Table { return byLower[strings.ToLower(name)] }

// Tables returns every information_schema table, sorted by name.
func Tables() []*Table { return tables }

func init() {
	byLower = make(map[string]*Table, len(definitions))
	for name, cols := range definitions {
		t := &Table{Name: name, Columns: cols}
		tables = append(tables, t)
		byLower[strings.ToLower(name)] = t
	}
	sort.Slice(tables, func(i, j int) bool { return tables[i].Name < tables[j].Name })
	for i, t := range tables {
		info := &catalog.TableInfo{ID: memTableIDBase + int64(i), Name: t.Name, Charset: Charset, Collate: Collation}
		for j, c := range t.Columns {
			info.Columns = append(info.Columns, &catalog.ColumnInfo{
				ID: int64(j + 1), Name: c.Name, Offset: j, FieldType: *c.Ft})
		}
		info.MaxColumnID = int64(len(t.Columns))
		t.info = info
	}
}

// Column type constructors, named after MySQL's types.

func ft(tp byte, flen int, flag uint) *types.FieldType {
	f := types.NewFieldType(tp)
	if flen > 0 {
		f.Flen = flen
	}
	f.Flag |= flag
	if f.EvalType() == types.ETString && !f.IsBinaryString() {
		f.Charset, f.Collate = Charset, Collation
	}
	return f
}

func varchar(n int) *types.FieldType { return ft(mysql.TypeVarchar, n, 0) }
func text() *types.FieldType         { return ft(mysql.TypeBlob, 65535, 0) }
func mediumtext() *types.FieldType   { return ft(mysql.TypeMediumBlob, 16777215, 0) }
func longtext() *types.FieldType     { return ft(mysql.TypeLongBlob, 4294967295, 0) }
func bigint() *types.FieldType       { return ft(mysql.TypeLonglong, 20, 0) }
func ubigint() *types.FieldType      { return ft(mysql.TypeLonglong, 20, mysql.UnsignedFlag) }
func integer() *types.FieldType      { return ft(mysql.TypeLong, 11, 0) }
func uint32T() *types.FieldType      { return ft(mysql.TypeLong, 10, mysql.UnsignedFlag) }
func timestamp() *types.FieldType    { return ft(mysql.TypeTimestamp, 19, 0) }
func datetime() *types.FieldType     { return ft(mysql.TypeDatetime, 19, 0) }

// binary0 is MySQL's binary(0) (columns that are always NULL or ”).
func binary0() *types.FieldType {
	f := types.NewFieldType(mysql.TypeString)
	f.Flen, f.Charset, f.Collate = 0, "binary", "binary"
	return f
}

// enum columns are read as strings (their values' length is the width).
func enum(n int) *types.FieldType { return varchar(n) }

func cols(spec ...any) []Column {
	out := make([]Column, 0, len(spec)/2)
	for i := 0; i < len(spec); i += 2 {
		out = append(out, Column{Name: spec[i].(string), Ft: spec[i+1].(*types.FieldType)})
	}
	return out
}

// definitions are MySQL 8.0's information_schema tables (DESC
// information_schema.<table>), columns in order. ENUM columns are VARCHAR
// here.
var definitions = map[string][]Column{
	"SCHEMATA": cols(
		"CATALOG_NAME", varchar(64), "SCHEMA_NAME", varchar(64),
		"DEFAULT_CHARACTER_SET_NAME", varchar(64), "DEFAULT_COLLATION_NAME", varchar(64),
		"SQL_PATH", binary0(), "DEFAULT_ENCRYPTION", enum(3)),
	"TABLES": cols(
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"TABLE_TYPE", enum(11), "ENGINE", varchar(64), "VERSION", integer(),
		"ROW_FORMAT", enum(10), "TABLE_ROWS", ubigint(), "AVG_ROW_LENGTH", ubigint(),
		"DATA_LENGTH", ubigint(), "MAX_DATA_LENGTH", ubigint(), "INDEX_LENGTH", ubigint(),
		"DATA_FREE", ubigint(), "AUTO_INCREMENT", ubigint(), "CREATE_TIME", timestamp(),
		"UPDATE_TIME", datetime(), "CHECK_TIME", datetime(), "TABLE_COLLATION", varchar(64),
		"CHECKSUM", bigint(), "CREATE_OPTIONS", varchar(256), "TABLE_COMMENT", text()),
	"COLUMNS": cols(
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"COLUMN_NAME", varchar(64), "ORDINAL_POSITION", uint32T(), "COLUMN_DEFAULT", text(),
		"IS_NULLABLE", varchar(3), "DATA_TYPE", longtext(), "CHARACTER_MAXIMUM_LENGTH", bigint(),
		"CHARACTER_OCTET_LENGTH", bigint(), "NUMERIC_PRECISION", ubigint(), "NUMERIC_SCALE", ubigint(),
		"DATETIME_PRECISION", uint32T(), "CHARACTER_SET_NAME", varchar(64), "COLLATION_NAME", varchar(64),
		"COLUMN_TYPE", mediumtext(), "COLUMN_KEY", enum(3), "EXTRA", varchar(256),
		"PRIVILEGES", varchar(154), "COLUMN_COMMENT", text(), "GENERATION_EXPRESSION", longtext(),
		"SRS_ID", uint32T()),
	"STATISTICS": cols(
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"NON_UNIQUE", integer(), "INDEX_SCHEMA", varchar(64), "INDEX_NAME", varchar(64),
		"SEQ_IN_INDEX", uint32T(), "COLUMN_NAME", varchar(64), "COLLATION", varchar(1),
		"CARDINALITY", bigint(), "SUB_PART", bigint(), "PACKED", binary0(), "NULLABLE", varchar(3),
		"INDEX_TYPE", varchar(11), "COMMENT", varchar(8), "INDEX_COMMENT", varchar(2048),
		"IS_VISIBLE", varchar(3), "EXPRESSION", longtext()),
	"KEY_COLUMN_USAGE": cols(
		"CONSTRAINT_CATALOG", varchar(64), "CONSTRAINT_SCHEMA", varchar(64), "CONSTRAINT_NAME", varchar(64),
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"COLUMN_NAME", varchar(64), "ORDINAL_POSITION", uint32T(), "POSITION_IN_UNIQUE_CONSTRAINT", uint32T(),
		"REFERENCED_TABLE_SCHEMA", varchar(64), "REFERENCED_TABLE_NAME", varchar(64),
		"REFERENCED_COLUMN_NAME", varchar(64)),
	"TABLE_CONSTRAINTS": cols(
		"CONSTRAINT_CATALOG", varchar(64), "CONSTRAINT_SCHEMA", varchar(64), "CONSTRAINT_NAME", varchar(64),
		"TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64), "CONSTRAINT_TYPE", varchar(11),
		"ENFORCED", varchar(3)),
	"CHECK_CONSTRAINTS": cols(
		"CONSTRAINT_CATALOG", varchar(64), "CONSTRAINT_SCHEMA", varchar(64), "CONSTRAINT_NAME", varchar(64),
		"CHECK_CLAUSE", longtext()),
	"REFERENTIAL_CONSTRAINTS": cols(
		"CONSTRAINT_CATALOG", varchar(64), "CONSTRAINT_SCHEMA", varchar(64), "CONSTRAINT_NAME", varchar(64),
		"UNIQUE_CONSTRAINT_CATALOG", varchar(64), "UNIQUE_CONSTRAINT_SCHEMA", varchar(64),
		"UNIQUE_CONSTRAINT_NAME", varchar(64), "MATCH_OPTION", enum(7), "UPDATE_RULE", enum(11),
		"DELETE_RULE", enum(11), "TABLE_NAME", varchar(64), "REFERENCED_TABLE_NAME", varchar(64)),
	"VIEWS": cols(
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"VIEW_DEFINITION", longtext(), "CHECK_OPTION", enum(8), "IS_UPDATABLE", enum(3),
		"DEFINER", varchar(288), "SECURITY_TYPE", varchar(7), "CHARACTER_SET_CLIENT", varchar(64),
		"COLLATION_CONNECTION", varchar(64)),
	"PROCESSLIST": cols(
		"ID", ubigint(), "USER", varchar(32), "HOST", varchar(261), "DB", varchar(64),
		"COMMAND", varchar(16), "TIME", integer(), "STATE", varchar(64), "INFO", longtext()),
	"USER_PRIVILEGES": cols(
		"GRANTEE", varchar(292), "TABLE_CATALOG", varchar(512), "PRIVILEGE_TYPE", varchar(64),
		"IS_GRANTABLE", varchar(3)),
	"SCHEMA_PRIVILEGES": cols(
		"GRANTEE", varchar(292), "TABLE_CATALOG", varchar(512), "TABLE_SCHEMA", varchar(64),
		"PRIVILEGE_TYPE", varchar(64), "IS_GRANTABLE", varchar(3)),
	"TABLE_PRIVILEGES": cols(
		"GRANTEE", varchar(292), "TABLE_CATALOG", varchar(512), "TABLE_SCHEMA", varchar(64),
		"TABLE_NAME", varchar(64), "PRIVILEGE_TYPE", varchar(64), "IS_GRANTABLE", varchar(3)),
	"CHARACTER_SETS": cols(
		"CHARACTER_SET_NAME", varchar(64), "DEFAULT_COLLATE_NAME", varchar(64),
		"DESCRIPTION", varchar(2048), "MAXLEN", uint32T()),
	"COLLATIONS": cols(
		"COLLATION_NAME", varchar(64), "CHARACTER_SET_NAME", varchar(64), "ID", ubigint(),
		"IS_DEFAULT", varchar(3), "IS_COMPILED", varchar(3), "SORTLEN", uint32T(),
		"PAD_ATTRIBUTE", enum(9)),
	"COLLATION_CHARACTER_SET_APPLICABILITY": cols(
		"COLLATION_NAME", varchar(64), "CHARACTER_SET_NAME", varchar(64)),
	"ENGINES": cols(
		"ENGINE", varchar(64), "SUPPORT", varchar(8), "COMMENT", varchar(80),
		"TRANSACTIONS", varchar(3), "XA", varchar(3), "SAVEPOINTS", varchar(3)),
	"PARTITIONS": cols(
		"TABLE_CATALOG", varchar(64), "TABLE_SCHEMA", varchar(64), "TABLE_NAME", varchar(64),
		"PARTITION_NAME", varchar(64), "SUBPARTITION_NAME", varchar(64),
		"PARTITION_ORDINAL_POSITION", uint32T(), "SUBPARTITION_ORDINAL_POSITION", uint32T(),
		"PARTITION_METHOD", varchar(13), "SUBPARTITION_METHOD", varchar(13),
		"PARTITION_EXPRESSION", varchar(2048), "SUBPARTITION_EXPRESSION", varchar(2048),
		"PARTITION_DESCRIPTION", text(), "TABLE_ROWS", ubigint(), "AVG_ROW_LENGTH", ubigint(),
		"DATA_LENGTH", ubigint(), "MAX_DATA_LENGTH", ubigint(), "INDEX_LENGTH", ubigint(),
		"DATA_FREE", ubigint(), "CREATE_TIME", timestamp(), "UPDATE_TIME", datetime(),
		"CHECK_TIME", datetime(), "CHECKSUM", bigint(), "PARTITION_COMMENT", text(),
		"NODEGROUP", varchar(256), "TABLESPACE_NAME", varchar(268)),
	"TRIGGERS": cols(
		"TRIGGER_CATALOG", varchar(64), "TRIGGER_SCHEMA", varchar(64), "TRIGGER_NAME", varchar(64),
		"EVENT_MANIPULATION", enum(6), "EVENT_OBJECT_CATALOG", varchar(64),
		"EVENT_OBJECT_SCHEMA", varchar(64), "EVENT_OBJECT_TABLE", varchar(64),
		"ACTION_ORDER", uint32T(), "ACTION_CONDITION", binary0(), "ACTION_STATEMENT", longtext(),
		"ACTION_ORIENTATION", varchar(3), "ACTION_TIMING", enum(6),
		"ACTION_REFERENCE_OLD_TABLE", binary0(), "ACTION_REFERENCE_NEW_TABLE", binary0(),
		"ACTION_REFERENCE_OLD_ROW", varchar(3), "ACTION_REFERENCE_NEW_ROW", varchar(3),
		"CREATED", timestamp(), "SQL_MODE", varchar(520), "DEFINER", varchar(288),
		"CHARACTER_SET_CLIENT", varchar(64), "COLLATION_CONNECTION", varchar(64),
		"DATABASE_COLLATION", varchar(64)),
	"ROUTINES": cols(
		"SPECIFIC_NAME", varchar(64), "ROUTINE_CATALOG", varchar(64), "ROUTINE_SCHEMA", varchar(64),
		"ROUTINE_NAME", varchar(64), "ROUTINE_TYPE", enum(9), "DATA_TYPE", longtext(),
		"CHARACTER_MAXIMUM_LENGTH", bigint(), "CHARACTER_OCTET_LENGTH", bigint(),
		"NUMERIC_PRECISION", uint32T(), "NUMERIC_SCALE", uint32T(), "DATETIME_PRECISION", uint32T(),
		"CHARACTER_SET_NAME", varchar(64), "COLLATION_NAME", varchar(64), "DTD_IDENTIFIER", longtext(),
		"ROUTINE_BODY", varchar(3), "ROUTINE_DEFINITION", longtext(), "EXTERNAL_NAME", binary0(),
		"EXTERNAL_LANGUAGE", varchar(64), "PARAMETER_STYLE", varchar(3), "IS_DETERMINISTIC", varchar(3),
		"SQL_DATA_ACCESS", enum(17), "SQL_PATH", binary0(), "SECURITY_TYPE", enum(7),
		"CREATED", timestamp(), "LAST_ALTERED", timestamp(), "SQL_MODE", varchar(520),
		"ROUTINE_COMMENT", text(), "DEFINER", varchar(288), "CHARACTER_SET_CLIENT", varchar(64),
		"COLLATION_CONNECTION", varchar(64), "DATABASE_COLLATION", varchar(64)),
	"EVENTS": cols(
		"EVENT_CATALOG", varchar(64), "EVENT_SCHEMA", varchar(64), "EVENT_NAME", varchar(64),
		"DEFINER", varchar(288), "TIME_ZONE", varchar(64), "EVENT_BODY", varchar(3),
		"EVENT_DEFINITION", longtext(), "EVENT_TYPE", varchar(9), "EXECUTE_AT", datetime(),
		"INTERVAL_VALUE", varchar(256), "INTERVAL_FIELD", enum(18), "SQL_MODE", varchar(520),
		"STARTS", datetime(), "ENDS", datetime(), "STATUS", enum(18), "ON_COMPLETION", varchar(12),
		"CREATED", timestamp(), "LAST_ALTERED", timestamp(), "LAST_EXECUTED", datetime(),
		"EVENT_COMMENT", varchar(2048), "ORIGINATOR", uint32T(), "CHARACTER_SET_CLIENT", varchar(64),
		"COLLATION_CONNECTION", varchar(64), "DATABASE_COLLATION", varchar(64)),
}
