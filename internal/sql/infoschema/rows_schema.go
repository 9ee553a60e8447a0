package infoschema

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/types"
)

const catalogName = "def"

// innodbPage is the DATA_LENGTH InnoDB reports for a small table (one
// 16 KiB page), which tools expect to be non-zero.
const innodbPage = 16384

func schemataRows(s *Source) [][]types.Datum {
	rows := [][]types.Datum{{str(catalogName), str(DBName), str(catalog.DisplayCharset(Charset)),
		str(catalog.DisplayCollation(Collation)), null(), str("NO")}}
	if s.Schema != nil {
		for _, db := range s.Schema.Databases() {
			if s.VisibleDB(db.Name) {
				rows = append(rows, []types.Datum{str(catalogName), str(db.Name), str(catalog.DisplayCharset(db.Charset)),
					str(catalog.DisplayCollation(db.Collate)), null(), str("NO")})
			}
		}
	}
	return rows
}

func (s *Source) tableRows(t *catalog.TableInfo) uint64 {
	if s.TableRows == nil {
		return 0
	}
	return s.TableRows(t)
}

func tablesRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(true) {
		t := dt.t
		if IsDB(dt.db) {
			rows = append(rows, []types.Datum{str(catalogName), str(DBName), str(t.Name), str("SYSTEM VIEW"),
				null(), i64(10), null(), null(), null(), null(), null(), null(), null(), null(),
				null(), null(), null(), null(), null(), str(""), str("")})
			continue
		}
		if t.IsView() {
			rows = append(rows, viewTablesRow(dt.db, t))
			continue
		}
		autoInc := null()
		rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(t.Name), str("BASE TABLE"),
			str("InnoDB"), i64(10), str("Dynamic"), i64(int64(s.tableRows(t))), i64(0), i64(innodbPage),
			i64(0), i64(int64(innodbPage * secondaryIndexes(t))), i64(0), autoInc, null(), null(), null(),
			str(catalog.DisplayCollation(t.Collate)), null(), str(""), str(t.Comment)})
	}
	return rows
}

// secondaryIndexes counts the indexes InnoDB stores apart from the
// clustered one (INDEX_LENGTH: one page each).
func secondaryIndexes(t *catalog.TableInfo) int {
	n := 0
	for _, idx := range t.PublicIndices() {
		if !idx.Primary {
			n++
		}
	}
	return n
}

func columnsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(true) {
		rows = appendColumnsRows(rows, s, dt)
	}
	return rows
}

// ColumnsRowsOf returns the COLUMNS rows of table t of database db
// (SHOW COLUMNS), whether or not the user may see it.
func ColumnsRowsOf(s *Source, db string, t *catalog.TableInfo) [][]types.Datum {
	return appendColumnsRows(nil, s, dbTable{db, t})
}

func appendColumnsRows(rows [][]types.Datum, s *Source, dt dbTable) [][]types.Datum {
	privs := s.columnPrivileges(dt.db, dt.t.Name)
	pos := 0
	for _, c := range dt.t.Columns {
		if c.Hidden {
			continue
		}
		pos++
		ft := &c.FieldType
		prec, scale := numericPrecision(ft)
		cs, co := null(), null()
		if ft.EvalType() == types.ETString && !ft.IsBinaryString() {
			cs, co = str(catalog.DisplayCharset(ft.Charset)), str(catalog.DisplayCollation(ft.Collate))
		}
		colType := catalog.ColumnTypeString(ft)
		rows = append(rows, []types.Datum{
			str(catalogName), str(dt.db), str(dt.t.Name), str(c.Name), i64(int64(pos)),
			catalog.ColumnDefault(c), yesNo(!c.NotNull(), "YES", "NO"), str(DataType(colType)),
			charLength(ft, false), charLength(ft, true), prec, scale, datetimePrecision(ft), cs, co,
			str(colType), str(catalog.ColumnKey(c)), str(catalog.ColumnExtra(c)), str(privs),
			str(c.Comment), str(c.GeneratedExpr), null(),
		})
	}
	return rows
}

// DataType is COLUMNS.DATA_TYPE of a column type: its name without
// length or attributes ("varchar(20)" → "varchar", "int unsigned" →
// "int").
func DataType(columnType string) string {
	if i := strings.IndexAny(columnType, "( "); i >= 0 {
		return columnType[:i]
	}
	return columnType
}

// columnPrivileges is COLUMNS.PRIVILEGES: the column-level privileges
// the user holds on db.table.
func (s *Source) columnPrivileges(db, table string) string {
	if IsDB(db) {
		return "select"
	}
	a := s.Account
	if a == nil {
		return "select,insert,update,references"
	}
	var out []string
	for _, p := range []struct {
		p    privilege.Priv
		name string
	}{{privilege.SelectPriv, "select"}, {privilege.InsertPriv, "insert"}, {privilege.UpdatePriv, "update"}} {
		if a.Verify(db, table, p.p) {
			out = append(out, p.name)
		}
	}
	// REFERENCES is not a privilege of Strata's; ALL includes it in MySQL.
	if a.Verify(db, table, privilege.TablePrivs) {
		out = append(out, "references")
	}
	return strings.Join(out, ",")
}

// maxBytesPerChar is the longest character of a charset.
func maxBytesPerChar(cs string) int {
	switch cs {
	case "utf8mb4", "gb18030":
		return 4
	case "utf8", "utf8mb3":
		return 3
	case "gbk":
		return 2
	}
	return 1
}

// charLength is CHARACTER_MAXIMUM_LENGTH (octets false) or
// CHARACTER_OCTET_LENGTH of a string column, NULL for other types.
func charLength(ft *types.FieldType, octets bool) types.Datum {
	switch ft.Tp {
	case mysql.TypeString, mysql.TypeVarchar, mysql.TypeVarString:
		n := int64(ft.Flen)
		if octets && !ft.IsBinaryString() {
			n *= int64(maxBytesPerChar(ft.Charset))
		}
		return i64(n)
	case mysql.TypeTinyBlob:
		return i64(255)
	case mysql.TypeBlob:
		return i64(65535)
	case mysql.TypeMediumBlob:
		return i64(16777215)
	case mysql.TypeLongBlob:
		return i64(4294967295)
	}
	return null()
}

// numericPrecision is NUMERIC_PRECISION and NUMERIC_SCALE.
func numericPrecision(ft *types.FieldType) (types.Datum, types.Datum) {
	switch ft.Tp {
	case mysql.TypeTiny:
		return i64(3), i64(0)
	case mysql.TypeShort:
		return i64(5), i64(0)
	case mysql.TypeInt24:
		return i64(7), i64(0)
	case mysql.TypeLong:
		return i64(10), i64(0)
	case mysql.TypeLonglong:
		if ft.IsUnsigned() {
			return i64(20), i64(0)
		}
		return i64(19), i64(0)
	case mysql.TypeNewDecimal:
		return i64(int64(ft.Flen)), i64(int64(ft.Decimal))
	case mysql.TypeFloat, mysql.TypeDouble:
		if ft.Decimal > 0 && ft.Flen > 0 {
			return i64(int64(ft.Flen)), i64(int64(ft.Decimal))
		}
		if ft.Tp == mysql.TypeFloat {
			return i64(12), null()
		}
		return i64(22), null()
	case mysql.TypeBit:
		return i64(int64(ft.Flen)), null()
	}
	return null(), null()
}

// datetimePrecision is DATETIME_PRECISION: the fsp of DATETIME,
// TIMESTAMP and TIME columns.
func datetimePrecision(ft *types.FieldType) types.Datum {
	switch ft.Tp {
	case mysql.TypeDatetime, mysql.TypeTimestamp, mysql.TypeDuration:
		return i64(int64(ft.Fsp()))
	}
	return null()
}

func statisticsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		rows = appendStatisticsRows(rows, dt)
	}
	return rows
}

// StatisticsRowsOf returns the STATISTICS rows of table t of database db
// (SHOW INDEX).
func StatisticsRowsOf(db string, t *catalog.TableInfo) [][]types.Datum {
	return appendStatisticsRows(nil, dbTable{db, t})
}

func appendStatisticsRows(rows [][]types.Datum, dt dbTable) [][]types.Datum {
	for _, idx := range catalog.Indexes(dt.t) {
		for i, ic := range idx.Columns {
			c := dt.t.Columns[ic.Offset]
			sub := null()
			if ic.Length > 0 {
				sub = i64(int64(ic.Length))
			}
			rows = append(rows, []types.Datum{
				str(catalogName), str(dt.db), str(dt.t.Name), i64(boolInt(!idx.Unique)),
				str(dt.db), str(idx.Name), i64(int64(i + 1)), str(c.Name), str("A"), i64(0), sub,
				null(), yesNo(!c.NotNull(), "YES", ""), str("BTREE"), str(""), str(idx.Comment),
				str("YES"), null(),
			})
		}
	}
	return rows
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func keyColumnUsageRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		for _, idx := range catalog.Indexes(dt.t) {
			if !idx.Unique {
				continue
			}
			for i, ic := range idx.Columns {
				rows = append(rows, []types.Datum{
					str(catalogName), str(dt.db), str(idx.Name), str(catalogName), str(dt.db), str(dt.t.Name),
					str(dt.t.Columns[ic.Offset].Name), i64(int64(i + 1)), null(), null(), null(), null(),
				})
			}
		}
		rows = appendFKColumnRows(rows, dt)
	}
	return rows
}

func tableConstraintsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		for _, idx := range catalog.Indexes(dt.t) {
			if !idx.Unique {
				continue
			}
			typ := "UNIQUE"
			if idx.Primary {
				typ = "PRIMARY KEY"
			}
			rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(idx.Name), str(dt.db),
				str(dt.t.Name), str(typ), str("YES")})
		}
		rows = appendConstraintRows(rows, dt)
	}
	return rows
}

// partitionsRows lists one row per table, as MySQL does for tables
// without partitions (every partition column NULL).
func partitionsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(dt.t.Name),
			null(), null(), null(), null(), null(), null(), null(), null(), null(),
			i64(int64(s.tableRows(dt.t))), i64(0), i64(innodbPage), null(), i64(0), i64(0),
			null(), null(), null(), null(), str(""), str(""), null()})
	}
	return rows
}
