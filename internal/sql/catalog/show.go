package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// ColumnTypeString renders a column type as MySQL 8 shows it in SHOW
// CREATE TABLE and DESCRIBE: integer display widths are dropped (except
// TINYINT(1) and ZEROFILL columns), "int unsigned", "varchar(20)",
// "decimal(10,2)", "datetime(3)", "text", "varbinary(8)".
func ColumnTypeString(ft *types.FieldType) string {
	if ft.IsInteger() && ft.Tp != mysql.TypeYear {
		s := types.TypeName(ft.Tp)
		zerofill := mysql.HasZerofillFlag(ft.Flag)
		if zerofill || (ft.Tp == mysql.TypeTiny && ft.Flen == 1) {
			s += fmt.Sprintf("(%d)", ft.Flen)
		}
		if ft.IsUnsigned() {
			s += " unsigned"
		}
		if zerofill {
			s += " zerofill"
		}
		return s
	}
	if ft.Tp == mysql.TypeYear {
		return "year"
	}
	return ft.String()
}

// QuoteIdent back-quotes an identifier as MySQL prints it (` doubled).
func QuoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

func quoteString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// ShowCreateTable renders SHOW CREATE TABLE's text in MySQL 8's format.
// Write-only indexes (being added) are not shown.
func ShowCreateTable(t *TableInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (\n", QuoteIdent(t.Name))
	var lines []string
	for _, c := range t.Columns {
		if !c.Hidden {
			lines = append(lines, "  "+columnDefinition(t, c))
		}
	}
	if pk := t.PKHandleColumn(); pk != nil {
		lines = append(lines, fmt.Sprintf("  PRIMARY KEY (%s)", QuoteIdent(pk.Name)))
	}
	for _, idx := range orderedIndices(t) {
		lines = append(lines, "  "+indexDefinition(idx))
	}
	lines = append(lines, constraintDefinitions(t)...)
	b.WriteString(strings.Join(lines, ",\n"))
	fmt.Fprintf(&b, "\n) ENGINE=InnoDB DEFAULT CHARSET=%s", DisplayCharset(t.Charset))
	if showsCollate(t.Collate) {
		fmt.Fprintf(&b, " COLLATE=%s", DisplayCollation(t.Collate))
	}
	if t.Comment != "" {
		fmt.Fprintf(&b, " COMMENT=%s", quoteString(t.Comment))
	}
	return b.String()
}

// orderedIndices lists public indexes as MySQL shows them: the primary
// key, then unique keys, then the others, each group in creation order.
func orderedIndices(t *TableInfo) []*IndexInfo {
	idxs := t.PublicIndices()
	rank := func(idx *IndexInfo) int {
		switch {
		case idx.Primary:
			return 0
		case idx.Unique:
			return 1
		}
		return 2
	}
	sort.SliceStable(idxs, func(i, j int) bool { return rank(idxs[i]) < rank(idxs[j]) })
	return idxs
}

func columnDefinition(t *TableInfo, c *ColumnInfo) string {
	ft := &c.FieldType
	parts := []string{QuoteIdent(c.Name), ColumnTypeString(ft)}
	if ft.EvalType() == types.ETString && !ft.IsBinaryString() &&
		(ft.Charset != t.Charset || ft.Collate != t.Collate) {
		parts = append(parts, "CHARACTER SET "+ft.Charset, "COLLATE "+ft.Collate)
	}
	if c.IsGenerated() {
		parts = append(parts, generatedDefinition(c))
	}
	switch {
	case c.NotNull():
		parts = append(parts, "NOT NULL")
	case ft.Tp == mysql.TypeTimestamp:
		parts = append(parts, "NULL")
	}
	switch {
	case c.DefaultExpr == DefaultCurrentTimestamp:
		parts = append(parts, "DEFAULT "+currentTimestampText(ft))
	case c.HasDefault && !c.DefaultNull:
		parts = append(parts, "DEFAULT "+defaultLiteral(c))
	case !c.NotNull() && !c.AutoIncrement && !isBlobOrText(ft) && !c.IsGenerated():
		parts = append(parts, "DEFAULT NULL")
	}
	if c.OnUpdateNow {
		parts = append(parts, "ON UPDATE "+currentTimestampText(ft))
	}
	if c.AutoIncrement {
		parts = append(parts, "AUTO_INCREMENT")
	}
	if c.Comment != "" {
		parts = append(parts, "COMMENT "+quoteString(c.Comment))
	}
	return strings.Join(parts, " ")
}

func currentTimestampText(ft *types.FieldType) string {
	if ft.Fsp() > 0 {
		return fmt.Sprintf("CURRENT_TIMESTAMP(%d)", ft.Fsp())
	}
	return "CURRENT_TIMESTAMP"
}

// defaultLiteral renders a literal default as MySQL does: quoted, even
// for numbers; bit values as b'...'.
func defaultLiteral(c *ColumnInfo) string {
	if c.FieldType.Tp == mysql.TypeBit {
		d := c.defaultDatum
		return fmt.Sprintf("b'%b'", d.GetUint64())
	}
	return quoteString(c.defaultDatum.String())
}

func indexDefinition(idx *IndexInfo) string {
	cols := make([]string, len(idx.Columns))
	for i, ic := range idx.Columns {
		cols[i] = QuoteIdent(ic.Name)
		if ic.Length > 0 {
			cols[i] += fmt.Sprintf("(%d)", ic.Length)
		}
	}
	var s string
	switch {
	case idx.Primary:
		s = "PRIMARY KEY"
	case idx.Unique:
		s = "UNIQUE KEY " + QuoteIdent(idx.Name)
	default:
		s = "KEY " + QuoteIdent(idx.Name)
	}
	s += " (" + strings.Join(cols, ",") + ")"
	if idx.Comment != "" {
		s += " COMMENT " + quoteString(idx.Comment)
	}
	return s
}

// DescribeColumnNames are the columns of DESCRIBE / SHOW COLUMNS.
var DescribeColumnNames = []string{"Field", "Type", "Null", "Key", "Default", "Extra"}

// FullColumnNames are the columns of SHOW FULL COLUMNS.
var FullColumnNames = []string{"Field", "Type", "Collation", "Null", "Key", "Default", "Extra", "Privileges", "Comment"}

// FullColumnRows returns SHOW FULL COLUMNS' rows (DESCRIBE's plus the
// collation, NULL for non-string columns, privileges and comment).
func FullColumnRows(t *TableInfo) [][]types.Datum {
	short := DescribeRows(t)
	rows := make([][]types.Datum, 0, len(short))
	i := 0
	for _, c := range t.Columns {
		if c.Hidden {
			continue
		}
		coll := types.NewNullDatum()
		if c.FieldType.EvalType() == types.ETString && !c.FieldType.IsBinaryString() {
			coll = types.NewStringDatum(c.FieldType.Collate)
		}
		r := short[i]
		rows = append(rows, []types.Datum{r[0], r[1], coll, r[2], r[3], r[4], r[5],
			types.NewStringDatum("select,insert,update,references"), types.NewStringDatum(c.Comment)})
		i++
	}
	return rows
}

// ShowCreateDatabase renders SHOW CREATE DATABASE's text as MySQL 8 does.
// The COLLATE clause is left out for a charset's primary collation, as
// MySQL does.
func ShowCreateDatabase(db *DBInfo) string {
	cs := "DEFAULT CHARACTER SET " + DisplayCharset(db.Charset)
	if showsCollate(db.Collate) {
		cs += " COLLATE " + DisplayCollation(db.Collate)
	}
	return fmt.Sprintf("CREATE DATABASE %s /*!40100 %s */ /*!80016 DEFAULT ENCRYPTION='N' */", QuoteIdent(db.Name), cs)
}

// mysqlPrimaryCollations are the collations MySQL 8 marks primary for
// their charset, whose name SHOW CREATE leaves out (utf8mb4's
// utf8mb4_0900_ai_ci is always shown).
var mysqlPrimaryCollations = map[string]bool{
	"utf8_general_ci": true, "utf8mb3_general_ci": true, "latin1_swedish_ci": true,
	"ascii_general_ci": true, "binary": true, "gbk_chinese_ci": true, "gb18030_chinese_ci": true,
}

func showsCollate(co string) bool { return !mysqlPrimaryCollations[strings.ToLower(co)] }

// DisplayCharset names a charset as MySQL 8 shows it (utf8 is utf8mb3).
func DisplayCharset(cs string) string {
	if cs == "utf8" {
		return "utf8mb3"
	}
	return cs
}

// DisplayCollation names a collation as MySQL 8 shows it
// (utf8_general_ci is utf8mb3_general_ci).
func DisplayCollation(co string) string {
	if rest, ok := strings.CutPrefix(co, "utf8_"); ok {
		return "utf8mb3_" + rest
	}
	return co
}

// DescribeRows returns DESCRIBE's rows: string datums, NULL datums where
// MySQL shows NULL (a column without a default).
func DescribeRows(t *TableInfo) [][]types.Datum {
	var rows [][]types.Datum
	for _, c := range t.Columns {
		if c.Hidden {
			continue
		}
		null := "YES"
		if c.NotNull() {
			null = "NO"
		}
		rows = append(rows, []types.Datum{
			types.NewStringDatum(c.Name), types.NewStringDatum(ColumnTypeString(&c.FieldType)),
			types.NewStringDatum(null), types.NewStringDatum(ColumnKey(c)), ColumnDefault(c),
			types.NewStringDatum(ColumnExtra(c)),
		})
	}
	return rows
}

// ColumnKey is the Key of DESCRIBE (COLUMNS.COLUMN_KEY): PRI for a
// primary key column, UNI for the first column of a unique index, MUL
// for the first column of a non-unique one, else empty.
func ColumnKey(c *ColumnInfo) string {
	switch ft := &c.FieldType; {
	case c.InPrimaryKey():
		return "PRI"
	case mysql.HasUniKeyFlag(ft.Flag):
		return "UNI"
	case mysql.HasMultipleKeyFlag(ft.Flag):
		return "MUL"
	}
	return ""
}

// ColumnDefault is the Default of DESCRIBE (COLUMNS.COLUMN_DEFAULT): the
// default as text, CURRENT_TIMESTAMP[(fsp)], or NULL.
func ColumnDefault(c *ColumnInfo) types.Datum {
	switch {
	case c.DefaultExpr == DefaultCurrentTimestamp:
		return types.NewStringDatum(currentTimestampText(&c.FieldType))
	case c.HasDefault && !c.DefaultNull:
		if c.FieldType.Tp == mysql.TypeBit {
			return types.NewStringDatum(defaultLiteral(c))
		}
		return types.NewStringDatum(c.defaultDatum.String())
	}
	return types.NewNullDatum()
}

// ColumnExtra is the Extra of DESCRIBE (COLUMNS.EXTRA): auto_increment,
// DEFAULT_GENERATED, on update CURRENT_TIMESTAMP.
func ColumnExtra(c *ColumnInfo) string {
	var extra []string
	if c.AutoIncrement {
		extra = append(extra, "auto_increment")
	}
	if c.DefaultExpr != "" {
		extra = append(extra, "DEFAULT_GENERATED")
	}
	if c.OnUpdateNow {
		extra = append(extra, "on update "+currentTimestampText(&c.FieldType))
	}
	if c.IsGenerated() {
		if c.GeneratedStored {
			extra = append(extra, "STORED GENERATED")
		} else {
			extra = append(extra, "VIRTUAL GENERATED")
		}
	}
	return strings.Join(extra, " ")
}

// IndexEntry is one index of a table as SHOW INDEX and information_schema
// list them: the clustered primary key (Index nil, Columns its one
// column) and the public indexes.
type IndexEntry struct {
	Name            string
	Unique, Primary bool
	Columns         []*IndexColumn
	Comment         string
}

// Indexes lists t's indexes in SHOW INDEX's order: the primary key, then
// unique keys, then the others, each group in creation order.
func Indexes(t *TableInfo) []IndexEntry {
	var out []IndexEntry
	if pk := t.PKHandleColumn(); pk != nil {
		out = append(out, IndexEntry{Name: "PRIMARY", Unique: true, Primary: true,
			Columns: []*IndexColumn{{Name: pk.Name, Offset: pk.Offset, Length: types.UnspecifiedLength}}})
	}
	for _, idx := range orderedIndices(t) {
		name := idx.Name
		if idx.Primary {
			name = "PRIMARY"
		}
		out = append(out, IndexEntry{Name: name, Unique: idx.Unique || idx.Primary, Primary: idx.Primary,
			Columns: idx.Columns, Comment: idx.Comment})
	}
	return out
}

// ShowIndexColumnNames are the columns of SHOW INDEX (MySQL 8).
var ShowIndexColumnNames = []string{"Table", "Non_unique", "Key_name", "Seq_in_index", "Column_name",
	"Collation", "Cardinality", "Sub_part", "Packed", "Null", "Index_type", "Comment", "Index_comment",
	"Visible", "Expression"}

// ShowIndexRows returns SHOW INDEX's rows, one per indexed column of
// each public index (the clustered primary key included).
func ShowIndexRows(t *TableInfo) [][]types.Datum {
	var rows [][]types.Datum
	row := func(keyName string, nonUnique bool, seq int, c *ColumnInfo, length int, comment string) {
		nu, null, sub := int64(0), "", types.NewNullDatum()
		if nonUnique {
			nu = 1
		}
		if !c.NotNull() {
			null = "YES"
		}
		if length > 0 {
			sub = types.NewIntDatum(int64(length))
		}
		rows = append(rows, []types.Datum{
			types.NewStringDatum(t.Name), types.NewIntDatum(nu), types.NewStringDatum(keyName),
			types.NewIntDatum(int64(seq)), types.NewStringDatum(c.Name), types.NewStringDatum("A"),
			types.NewIntDatum(0), sub, types.NewNullDatum(), types.NewStringDatum(null),
			types.NewStringDatum("BTREE"), types.NewStringDatum(""), types.NewStringDatum(comment),
			types.NewStringDatum("YES"), types.NewNullDatum(),
		})
	}
	for _, idx := range Indexes(t) {
		for i, ic := range idx.Columns {
			row(idx.Name, !idx.Unique, i+1, t.Columns[ic.Offset], ic.Length, idx.Comment)
		}
	}
	return rows
}
