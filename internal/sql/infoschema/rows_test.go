package infoschema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/testutil/sqltest"
	"github.com/strata-db/strata/internal/types"
)

func testSource(t *testing.T) *Source {
	cat, _ := sqltest.NewCatalog(t)
	sqltest.DDL(t, cat, `CREATE TABLE a (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(20) NOT NULL DEFAULT 'x', d DECIMAL(10,2), u BIGINT UNSIGNED, KEY iv (v, d))
CREATE TABLE b (x CHAR(4), y VARBINARY(8), z TEXT, ts TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP(3), f DOUBLE, PRIMARY KEY (x, y), UNIQUE KEY uz (z(10)))
CREATE DATABASE other
CREATE TABLE other.c (k INT)`)
	root := privilege.BootstrapAccounts()[0]
	return &Source{
		Schema: cat.InfoSchema(), Account: root, Accounts: []*privilege.Account{root},
		Processes:  []Process{{ID: 7, User: "root", Host: "h", Command: "Query", Info: "SELECT 1", HasInfo: true}},
		Charsets:   []CharsetInfo{{Name: "utf8", DefaultCollation: "utf8_bin", Description: "UTF-8 Unicode", MaxLen: 3}},
		Collations: []CollationInfo{{Name: "utf8_bin", Charset: "utf8", ID: 83, Default: true, Sortlen: 1, PadSpace: true}},
	}
}

// TestRowsMatchDefinitions: every table's rows have one datum per column,
// of a kind the column's type holds (they fill a chunk of those types).
func TestRowsMatchDefinitions(t *testing.T) {
	src := testSource(t)
	for _, tbl := range Tables() {
		rows, err := Rows(src, strings.ToLower(tbl.Name))
		if err != nil {
			t.Fatalf("%s: %v", tbl.Name, err)
		}
		fts := make([]*types.FieldType, len(tbl.Columns))
		for i, c := range tbl.Columns {
			fts[i] = c.Ft
		}
		chk := chunk.New(fts, max(len(rows), 1))
		for _, row := range rows {
			if len(row) != len(tbl.Columns) {
				t.Fatalf("%s: row of %d datums, %d columns", tbl.Name, len(row), len(tbl.Columns))
			}
			for i := range row {
				if k := row[i].Kind(); k != types.KindNull && (k == types.KindString) != (fts[i].EvalType() == types.ETString) {
					t.Fatalf("%s.%s: %v datum in a %s column", tbl.Name, tbl.Columns[i].Name, k, fts[i])
				}
				chk.AppendDatum(i, &row[i])
			}
		}
	}
	if _, err := Rows(src, "nope"); err == nil || !strings.Contains(err.Error(), "Unknown table 'nope' in information_schema") {
		t.Errorf("unknown table: %v", err)
	}
}

// pick renders the given columns of the rows of table whose column 1
// (the schema, in most tables) is db.
func pick(t *testing.T, src *Source, table, db string, cols ...string) string {
	t.Helper()
	rows, err := Rows(src, table)
	if err != nil {
		t.Fatal(err)
	}
	tbl := Lookup(table)
	var b strings.Builder
	for _, row := range rows {
		if db != "" && row[1].GetString() != db {
			continue
		}
		for i, c := range cols {
			idx := -1
			for j, col := range tbl.Columns {
				if col.Name == c {
					idx = j
				}
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			if row[idx].IsNull() {
				b.WriteString("NULL")
			} else {
				b.WriteString(row[idx].String())
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestColumnsRows(t *testing.T) {
	src := testSource(t)
	got := pick(t, src, "COLUMNS", "test", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION", "COLUMN_DEFAULT",
		"IS_NULLABLE", "DATA_TYPE", "CHARACTER_MAXIMUM_LENGTH", "CHARACTER_OCTET_LENGTH", "NUMERIC_PRECISION",
		"NUMERIC_SCALE", "DATETIME_PRECISION", "CHARACTER_SET_NAME", "COLUMN_TYPE", "COLUMN_KEY", "EXTRA")
	want := `a id 1 NULL NO int NULL NULL 10 0 NULL NULL int PRI auto_increment
a v 2 x NO varchar 20 80 NULL NULL NULL utf8mb4 varchar(20) MUL 
a d 3 NULL YES decimal NULL NULL 10 2 NULL NULL decimal(10,2)  
a u 4 NULL YES bigint NULL NULL 20 0 NULL NULL bigint unsigned  
b x 1 NULL NO char 4 16 NULL NULL NULL utf8mb4 char(4) PRI 
b y 2 NULL NO varbinary 8 8 NULL NULL NULL NULL varbinary(8) PRI 
b z 3 NULL YES text 65535 65535 NULL NULL NULL utf8mb4 text UNI 
b ts 4 CURRENT_TIMESTAMP(3) YES timestamp NULL NULL NULL NULL 3 NULL timestamp(3)  DEFAULT_GENERATED
b f 5 NULL YES double NULL NULL 22 NULL NULL NULL double  
`
	if got != want {
		t.Errorf("COLUMNS:\n%s\nwant:\n%s", got, want)
	}
}

func TestIndexRows(t *testing.T) {
	src := testSource(t)
	got := pick(t, src, "STATISTICS", "test", "TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "SEQ_IN_INDEX",
		"COLUMN_NAME", "SUB_PART", "NULLABLE")
	want := `a 0 PRIMARY 1 id NULL 
a 1 iv 1 v NULL 
a 1 iv 2 d NULL YES
b 0 PRIMARY 1 x NULL 
b 0 PRIMARY 2 y NULL 
b 0 uz 1 z 10 YES
`
	if got != want {
		t.Errorf("STATISTICS:\n%s\nwant:\n%s", got, want)
	}
	got = pick(t, src, "KEY_COLUMN_USAGE", "test", "CONSTRAINT_NAME", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION")
	want = "PRIMARY a id 1\nPRIMARY b x 1\nPRIMARY b y 2\nuz b z 1\n"
	if got != want {
		t.Errorf("KEY_COLUMN_USAGE:\n%s\nwant:\n%s", got, want)
	}
	got = pick(t, src, "TABLE_CONSTRAINTS", "test", "CONSTRAINT_NAME", "TABLE_NAME", "CONSTRAINT_TYPE")
	want = "PRIMARY a PRIMARY KEY\nPRIMARY b PRIMARY KEY\nuz b UNIQUE\n"
	if got != want {
		t.Errorf("TABLE_CONSTRAINTS:\n%s\nwant:\n%s", got, want)
	}
}

// TestVisibility: a user sees the databases and tables it holds some
// privilege on, and information_schema.
func TestVisibility(t *testing.T) {
	src := testSource(t)
	for _, c := range []struct {
		name    string
		grant   func(*privilege.Account)
		schemas string
		tables  string
	}{
		{"none", func(*privilege.Account) {}, "information_schema", ""},
		{"db", func(a *privilege.Account) { a.Grant("test", "", privilege.SelectPriv) }, "information_schema test", "test.a test.b"},
		{"table", func(a *privilege.Account) { a.Grant("other", "c", privilege.InsertPriv) }, "information_schema other", "other.c"},
		{"grant option only", func(a *privilege.Account) { a.Grant("test", "a", privilege.GrantPriv) }, "information_schema test", ""},
		{"global", func(a *privilege.Account) { a.Grant("", "", privilege.SelectPriv) }, "information_schema other test", "other.c test.a test.b"},
	} {
		acc := &privilege.Account{User: "u", Host: "%"}
		c.grant(acc)
		src.Account = acc
		var schemas, tables []string
		rows, _ := Rows(src, "SCHEMATA")
		for _, r := range rows {
			schemas = append(schemas, r[1].GetString())
		}
		rows, _ = Rows(src, "TABLES")
		for _, r := range rows {
			if !IsDB(r[1].GetString()) {
				tables = append(tables, r[1].GetString()+"."+r[2].GetString())
			}
		}
		if got := strings.Join(schemas, " "); got != c.schemas {
			t.Errorf("%s: SCHEMATA %q, want %q", c.name, got, c.schemas)
		}
		if got := strings.Join(tables, " "); got != c.tables {
			t.Errorf("%s: TABLES %q, want %q", c.name, got, c.tables)
		}
		if cols := pick(t, src, "COLUMNS", "test"); c.tables == "" && cols != "" {
			t.Errorf("%s: COLUMNS lists test's columns", c.name)
		}
	}
}

func TestPrivilegeRows(t *testing.T) {
	src := testSource(t)
	u := &privilege.Account{User: "u", Host: "%"}
	u.Grant("test", "", privilege.SelectPriv|privilege.InsertPriv|privilege.GrantPriv)
	u.Grant("other", "c", privilege.UpdatePriv)
	src.Accounts = []*privilege.Account{u}
	got := fmt.Sprint(pick(t, src, "USER_PRIVILEGES", "", "GRANTEE", "PRIVILEGE_TYPE", "IS_GRANTABLE"),
		pick(t, src, "SCHEMA_PRIVILEGES", "", "GRANTEE", "TABLE_SCHEMA", "PRIVILEGE_TYPE", "IS_GRANTABLE"),
		pick(t, src, "TABLE_PRIVILEGES", "", "GRANTEE", "TABLE_SCHEMA", "TABLE_NAME", "PRIVILEGE_TYPE"))
	want := `'u'@'%' USAGE NO
'u'@'%' test SELECT YES
'u'@'%' test INSERT YES
'u'@'%' other c UPDATE
`
	if got != want {
		t.Errorf("privileges:\n%s\nwant:\n%s", got, want)
	}
}
