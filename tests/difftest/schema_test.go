package difftest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// kind is what a value can be compared with: values of one kind compare
// with each other under the same rules on MySQL 8 and MariaDB. Comparisons
// across kinds (string with number, bin with ci collation) are never
// generated; their implicit conversions are where the two servers differ.
type kind int

const (
	kNum      kind = iota // INT, INT UNSIGNED, BIGINT, DECIMAL, DOUBLE, aggregates of them
	kStrBin               // VARCHAR ... COLLATE utf8mb4_bin
	kStrCI                // VARCHAR ... COLLATE utf8mb4_general_ci
	kDate                 // DATE
	kDatetime             // DATETIME
)

// vtype is the type of a generated value expression.
type vtype struct {
	name  string // column type or a name of the expression's type, equal names union exactly
	kind  kind
	float bool // a DOUBLE: compared with a tolerance, never summed where order matters
	// signed integer or decimal: safe in + and - without unsigned overflow
	signed bool
	// ambiguous: a string picked from a set of values that compare equal
	// (MIN/MAX, GROUP BY, DISTINCT over 'a'/'A'/'a '), so functions that see
	// the bytes (LIKE) would make the answer depend on the pick.
	ambiguous bool
}

// colType is one column type of the generated tables.
type colType struct {
	prefix string // column names are prefix + number: i0, d1, ...
	sql    string
	vt     vtype
	values []string // the value domain, as SQL literals
}

var colTypes = []colType{
	{"i", "INT", vtype{name: "INT", kind: kNum, signed: true}, []string{"-2", "0", "1", "2", "3", "5"}},
	{"u", "INT UNSIGNED", vtype{name: "INT UNSIGNED", kind: kNum}, []string{"0", "1", "2", "3", "4294967295"}},
	{"g", "BIGINT", vtype{name: "BIGINT", kind: kNum, signed: true}, []string{"-3", "0", "1", "2", "3", "9000000000"}},
	{"d", "DECIMAL(10,2)", vtype{name: "DECIMAL(10,2)", kind: kNum, signed: true}, []string{"-1.50", "0.00", "1.00", "1.25", "2.00", "3.75"}},
	{"f", "DOUBLE", vtype{name: "DOUBLE", kind: kNum, float: true, signed: true}, []string{"-0.5", "0", "1", "1.5", "2.25", "1e10"}},
	{"s", "VARCHAR(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", vtype{name: "VARCHAR bin", kind: kStrBin},
		[]string{"''", "'a'", "'A'", "'b'", "'B'", "'ab'", "'a '", "'a_c'", "'abc'"}},
	{"c", "VARCHAR(8) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci", vtype{name: "VARCHAR ci", kind: kStrCI},
		[]string{"''", "'a'", "'A'", "'b'", "'B'", "'ab'", "'a '", "'a_c'", "'Abc'"}},
	{"dt", "DATE", vtype{name: "DATE", kind: kDate}, []string{"'1999-12-31'", "'2020-01-01'", "'2020-01-02'", "'2021-06-15'"}},
	{"ts", "DATETIME", vtype{name: "DATETIME", kind: kDatetime},
		[]string{"'2020-01-01 00:00:00'", "'2020-01-01 10:30:00'", "'2020-01-02 00:00:00'", "'2021-06-15 23:59:59'"}},
}

// literals of each kind used in predicates (beyond the column domains).
var kindLiterals = map[kind][]string{
	kNum:      {"-1", "0", "1", "2", "3", "1.5", "2.00", "-0.5", "4"},
	kStrBin:   {"'a'", "'A'", "'b'", "'ab'", "''", "'a '", "'z'"},
	kStrCI:    {"'a'", "'A'", "'b'", "'ab'", "''", "'a '", "'z'"},
	kDate:     {"'2020-01-01'", "'2020-01-02'", "'2000-01-01'", "'2021-06-15'"},
	kDatetime: {"'2020-01-01 00:00:00'", "'2020-01-01 10:30:00'", "'2021-01-01 00:00:00'"},
}

// domainFor is ct with its value domain cut down as the known-bug switches
// in force ask: no trailing spaces (padSpaceKeys), and for the ci collation
// only upper-case values, whose binary order is their collation order
// (ciKeys).
func domainFor(ct *colType, avoid bugSwitches) *colType {
	c := *ct
	c.values = nil
	for _, v := range ct.values {
		if avoid.on("padSpaceKeys") && strings.HasSuffix(v, " '") {
			continue
		}
		if avoid.on("ciKeys") && ct.vt.kind == kStrCI {
			v = strings.ToUpper(v)
			if slices.Contains(c.values, v) {
				continue
			}
		}
		c.values = append(c.values, v)
	}
	return &c
}

// column is one column of a generated table.
type column struct {
	name string
	ct   *colType
}

// table is one generated table: an INT primary key id, typed columns, some
// secondary indexes, and its rows (as SQL literal tuples, id first).
type table struct {
	name    string
	cols    []column
	indexes [][]string
	rows    [][]string
}

// schema is the tables of one round.
type schema struct {
	seed   uint64
	tables []*table
}

// genSchema makes 4 tables of 3-6 typed columns each with 0-12 rows of
// values from small domains, NULL in about a fifth of the cells, so that
// joins and groups hit.
func genSchema(seed uint64, avoid bugSwitches) *schema {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &schema{seed: seed}
	for ti := range 4 {
		t := &table{name: fmt.Sprintf("t%d", ti)}
		n := 3 + r.IntN(4)
		counts := map[string]int{}
		// Every table gets one INT and one string column so that most
		// pairs of tables have something to join on.
		picks := []int{0, 5 + r.IntN(2)}
		for len(picks) < n {
			picks = append(picks, r.IntN(len(colTypes)))
		}
		for _, p := range picks {
			ct := domainFor(&colTypes[p], avoid)
			t.cols = append(t.cols, column{name: fmt.Sprintf("%s%d", ct.prefix, counts[ct.prefix]), ct: ct})
			counts[ct.prefix]++
		}
		for range r.IntN(3) {
			c := t.cols[r.IntN(len(t.cols))]
			idx := []string{c.name}
			if r.IntN(3) == 0 {
				c2 := t.cols[r.IntN(len(t.cols))]
				if c2.name != c.name {
					idx = append(idx, c2.name)
				}
			}
			t.indexes = append(t.indexes, idx)
		}
		nrows := r.IntN(13)
		if r.IntN(8) == 0 {
			nrows = 0
		}
		for id := 1; id <= nrows; id++ {
			row := []string{fmt.Sprint(id)}
			for _, c := range t.cols {
				if r.IntN(5) == 0 {
					row = append(row, "NULL")
				} else {
					row = append(row, c.ct.values[r.IntN(len(c.ct.values))])
				}
			}
			t.rows = append(t.rows, row)
		}
		s.tables = append(s.tables, t)
	}
	return s
}

// createSQL is the CREATE TABLE statement of t.
func (t *table) createSQL() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE %s (id INT PRIMARY KEY", t.name)
	for _, c := range t.cols {
		fmt.Fprintf(&b, ", %s %s", c.name, c.ct.sql)
	}
	for i, idx := range t.indexes {
		fmt.Fprintf(&b, ", KEY k%d (%s)", i, strings.Join(idx, ", "))
	}
	b.WriteString(")")
	return b.String()
}

// insertSQL is one INSERT of the rows of t whose ids are not in skip, or ""
// when there are none.
func (t *table) insertSQL(skip map[string]bool) string {
	var tuples []string
	for _, row := range t.rows {
		if skip[row[0]] {
			continue
		}
		tuples = append(tuples, "("+strings.Join(row, ", ")+")")
	}
	if len(tuples) == 0 {
		return ""
	}
	return fmt.Sprintf("INSERT INTO %s VALUES %s", t.name, strings.Join(tuples, ", "))
}

// setupSQL is the statements that create and fill the tables.
func (s *schema) setupSQL() []string {
	var out []string
	for _, t := range s.tables {
		out = append(out, t.createSQL())
		if ins := t.insertSQL(nil); ins != "" {
			out = append(out, ins)
		}
	}
	return out
}
