package expr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/strata-db/strata/internal/types"
)

// sysbenchStatements are the statements sysbench's oltp_* scripts send.
var sysbenchStatements = []string{
	"SELECT c FROM sbtest1 WHERE id=?",
	"SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?",
	"SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?",
	"SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
	"SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c",
	"UPDATE sbtest1 SET k=k+1 WHERE id=?",
	"UPDATE sbtest1 SET c=? WHERE id=?",
	"DELETE FROM sbtest1 WHERE id=?",
	"INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)",
	"CREATE TABLE sbtest1(id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) ENGINE = innodb",
	"CREATE INDEX k_1 ON sbtest1(k)",
}

func TestParseSysbench(t *testing.T) {
	p := parser.New()
	for _, sql := range sysbenchStatements {
		stmts, _, err := p.Parse(sql, "", "")
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if len(stmts) != 1 {
			t.Fatalf("%s: %d statements", sql, len(stmts))
		}
		var sb strings.Builder
		if err := stmts[0].Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb)); err != nil {
			t.Fatalf("%s: restore: %v", sql, err)
		}
		// The restored text parses again to the same text.
		again, _, err := p.Parse(sb.String(), "", "")
		if err != nil {
			t.Fatalf("%s: reparse of %q: %v", sql, sb.String(), err)
		}
		var sb2 strings.Builder
		if err := again[0].Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &sb2)); err != nil {
			t.Fatal(err)
		}
		if sb.String() != sb2.String() {
			t.Errorf("%s: restore not stable: %q vs %q", sql, sb.String(), sb2.String())
		}
		markers := ParamMarkers(stmts[0])
		if want := strings.Count(sql, "?"); len(markers) != want {
			t.Errorf("%s: %d markers, want %d", sql, len(markers), want)
		}
		for i, m := range markers {
			if m.Order != i || (i > 0 && m.Offset <= markers[i-1].Offset) {
				t.Errorf("%s: marker %d has order %d offset %d", sql, i, m.Order, m.Offset)
			}
		}
	}
}

type literalCollector struct{ out []ast.ValueExpr }

func (c *literalCollector) Enter(n ast.Node) (ast.Node, bool) {
	if v, ok := n.(ast.ValueExpr); ok {
		c.out = append(c.out, v)
	}
	return n, false
}

func (c *literalCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func collectLiterals(n ast.Node) []ast.ValueExpr {
	c := &literalCollector{}
	n.Accept(c)
	return c.out
}

// TestDriverLiterals prints every literal of a statement: kind, value,
// literal form, parser type and its charset, and the restored SQL.
func TestDriverLiterals(t *testing.T) {
	p := parser.New()
	datadriven.RunTest(t, "testdata/driver", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "parse":
			stmts, _, err := p.Parse(d.Input, "", "")
			if err != nil {
				return fmt.Sprintf("error: %v\n", err)
			}
			var sb strings.Builder
			for _, s := range stmts {
				ParamMarkers(s)
				for _, l := range collectLiterals(s) {
					switch v := l.(type) {
					case *ParamMarkerExpr:
						fmt.Fprintf(&sb, "param order=%d offset=%d\n", v.Order, v.Offset)
					case *ValueExpr:
						tp := v.GetType()
						val := v.Datum.String()
						if v.Datum.Kind() == types.KindBytes {
							val = fmt.Sprintf("0x%x", v.Datum.GetBytes())
						}
						fmt.Fprintf(&sb, "%s %s lit=%d go=%T type=%s charset=%s collate=%s\n",
							v.Datum.Kind(), val, v.Lit, v.GetValue(), tp.String(), tp.GetCharset(), tp.GetCollate())
					}
				}
				var r strings.Builder
				if err := s.Restore(format.NewRestoreCtx(format.DefaultRestoreFlags, &r)); err != nil {
					fmt.Fprintf(&sb, "restore error: %v\n", err)
				} else {
					fmt.Fprintf(&sb, "restored: %s\n", r.String())
				}
			}
			return sb.String()
		}
		t.Fatalf("unknown command %s", d.Cmd)
		return ""
	})
}

func TestParseHexBit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		err  bool
	}{
		{"x'4142'", "4142", false},
		{"X''", "", false},
		{"0x1", "01", false},
		{"x'123'", "", true},
		{"x'zz'", "", true},
		{"bogus", "", true},
	} {
		h, err := ParseHexLiteral(c.in)
		if (err != nil) != c.err {
			t.Errorf("%s: err %v", c.in, err)
			continue
		}
		if got := fmt.Sprintf("%x", []byte(h)); !c.err && got != c.want {
			t.Errorf("%s: got %s want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want string
		err  bool
	}{
		{"b'1'", "01", false},
		{"0b100000001", "0101", false},
		{"B''", "", false},
		{"b'102'", "", true},
	} {
		b, err := ParseBitLiteral(c.in)
		if (err != nil) != c.err {
			t.Errorf("%s: err %v", c.in, err)
			continue
		}
		if got := fmt.Sprintf("%x", []byte(b)); !c.err && got != c.want {
			t.Errorf("%s: got %s want %s", c.in, got, c.want)
		}
	}
}
