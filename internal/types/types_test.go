package types

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	_ "github.com/pingcap/tidb/pkg/parser/test_driver"
)

// parseFieldType parses a column type through the SQL parser, e.g.
// "int(11) unsigned" or "decimal(5,2)".
func parseFieldType(t *testing.T, s string) *FieldType {
	t.Helper()
	stmt, err := parser.New().ParseOneStmt("CREATE TABLE t (c "+s+")", "", "")
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return FromParser(stmt.(*ast.CreateTableStmt).Cols[0].Tp)
}

// parseDatum reads "i:5", "u:5", "f:1.5", "f32:1.5", "d:1.50", "s:abc",
// "b:abc", "t:2020-01-01 10:00:00", "dur:10:00:00", "null".
func parseDatum(t *testing.T, s string) Datum {
	t.Helper()
	kind, val, _ := strings.Cut(s, ":")
	switch kind {
	case "null":
		return NewNullDatum()
	case "i":
		v, err := StrToInt(val)
		must(t, err)
		return NewIntDatum(v)
	case "u":
		v, err := StrToUint(val)
		must(t, err)
		return NewUintDatum(v)
	case "f":
		v, err := StrToFloat(val)
		must(t, err)
		return NewFloat64Datum(v)
	case "f32":
		v, err := StrToFloat(val)
		must(t, err)
		return NewFloat32Datum(float32(v))
	case "d":
		v, err := ParseDecimal(val)
		must(t, err)
		return NewDecimalDatum(v)
	case "s":
		return NewStringDatum(val)
	case "b":
		return NewBytesDatum([]byte(val))
	case "t":
		v, err := ParseTime(val, 12, 6)
		must(t, err)
		return NewTimeDatum(v)
	case "dur":
		v, err := ParseDuration(val, 6)
		must(t, err)
		return NewDurationDatum(v)
	case "min":
		return MinNotNullDatum()
	case "max":
		return MaxValueDatum()
	}
	t.Fatalf("bad datum %q", s)
	return Datum{}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// errName names the sentinel behind err.
func errName(err error) string {
	for _, e := range []struct {
		err  error
		name string
	}{
		{ErrOverflow, "ErrOverflow"}, {ErrTruncated, "ErrTruncated"}, {ErrDataTooLong, "ErrDataTooLong"},
		{ErrIncorrectValue, "ErrIncorrectValue"}, {ErrWrongTimeValue, "ErrWrongTimeValue"}, {ErrDivByZero, "ErrDivByZero"},
	} {
		if errors.Is(err, e.err) {
			return e.name
		}
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return ""
}

func withErr(s string, err error) string {
	if err != nil {
		return s + " " + errName(err)
	}
	return s
}

func lines(input string) []string {
	var out []string
	for _, l := range strings.Split(input, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			var sb strings.Builder
			switch td.Cmd {
			case "fieldtype":
				for _, l := range lines(td.Input) {
					ft := FromParser(parseFieldTypeFrom(t, l))
					fmt.Fprintf(&sb, "%s -> tp=%d flen=%d dec=%d charset=%s unsigned=%v eval=%s str=%s\n",
						l, ft.Tp, ft.Flen, ft.Decimal, ft.Charset, ft.IsUnsigned(), ft.EvalType(), ft)
				}
			case "convert":
				var typ string
				td.ScanArgs(t, "type", &typ)
				ft := parseFieldType(t, strings.ReplaceAll(typ, "_", " "))
				for _, l := range lines(td.Input) {
					d, err := ConvertDatum(parseDatum(t, l), ft)
					v := d.String()
					if d.Kind() == KindBytes {
						v = fmt.Sprintf("%q", v)
					}
					fmt.Fprintf(&sb, "%s -> %s\n", l, withErr(d.Kind().String()+" "+v, err))
				}
			case "parse-time":
				var typ string
				td.ScanArgs(t, "type", &typ)
				ft := parseFieldType(t, strings.ReplaceAll(typ, "_", " "))
				for _, l := range lines(td.Input) {
					v, err := ParseTime(l, ft.Tp, ft.Fsp())
					res := withErr(v.String(), err)
					if err == nil {
						res += fmt.Sprintf(" check(strict)=%s", errName(v.Check(false, false)))
					}
					fmt.Fprintf(&sb, "%s -> %s\n", l, res)
				}
			case "parse-duration":
				var fsp int
				td.ScanArgs(t, "fsp", &fsp)
				for _, l := range lines(td.Input) {
					v, err := ParseDuration(l, int8(fsp))
					fmt.Fprintf(&sb, "%s -> %s\n", l, withErr(v.String(), err))
				}
			case "decimal":
				for _, l := range lines(td.Input) {
					f := strings.Fields(l)
					a, err := ParseDecimal(f[0])
					if len(f) == 1 {
						fmt.Fprintf(&sb, "%s -> %s\n", l, withErr(a.String(), err))
						continue
					}
					must(t, err)
					if f[1] == "round" {
						var scale int
						fmt.Sscan(f[2], &scale)
						var r Decimal
						must(t, r.Round(a, scale))
						fmt.Fprintf(&sb, "%s -> %s\n", l, r.String())
						continue
					}
					b, err := ParseDecimal(f[2])
					must(t, err)
					var r *Decimal
					switch f[1] {
					case "+":
						r, err = a.Add(b)
					case "-":
						r, err = a.Sub(b)
					case "*":
						r, err = a.Mul(b)
					case "/":
						r, err = a.Div(b)
					case "cmp":
						fmt.Fprintf(&sb, "%s -> %d\n", l, a.Compare(b))
						continue
					}
					fmt.Fprintf(&sb, "%s -> %s\n", l, withErr(r.String(), err))
				}
			case "format-float":
				for _, l := range lines(td.Input) {
					d := parseDatum(t, l)
					fmt.Fprintf(&sb, "%s -> %s\n", l, d.String())
				}
			case "compare":
				for _, l := range lines(td.Input) {
					f := strings.Fields(l)
					a, b := parseDatum(t, f[0]), parseDatum(t, f[1])
					fmt.Fprintf(&sb, "%s -> %d\n", l, a.Compare(&b))
				}
			default:
				t.Fatalf("unknown command %q", td.Cmd)
			}
			return sb.String()
		})
	})
}

func parseFieldTypeFrom(t *testing.T, s string) *parserFieldType {
	t.Helper()
	stmt, err := parser.New().ParseOneStmt("CREATE TABLE t (c "+s+")", "", "")
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return stmt.(*ast.CreateTableStmt).Cols[0].Tp
}
