package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// testTable is the schema of the row every "eval" case reads:
//
//	id BIGINT = 7, k INT = 42, c CHAR(120) utf8mb4_bin = 'Hello',
//	ci VARCHAR(20) utf8mb4_general_ci = 'abc', u BIGINT UNSIGNED = 3,
//	d DECIMAL(10,2) = 12.50, f DOUBLE = 1.5, dt DATETIME = 2020-10-01 12:00:00,
//	n INT = NULL, dte DATE = 2020-10-01, bin VARBINARY(10) = 'AbC'
func testTable() (*Columns, *chunk.Chunk) {
	mk := func(tp byte, f func(*types.FieldType)) *types.FieldType {
		ft := types.NewFieldType(tp)
		if f != nil {
			f(ft)
		}
		return ft
	}
	cols := []SchemaColumn{
		{Table: "t", Name: "id", Ft: mk(mysql.TypeLonglong, nil)},
		{Table: "t", Name: "k", Ft: mk(mysql.TypeLong, nil)},
		{Table: "t", Name: "c", Ft: mk(mysql.TypeString, func(ft *types.FieldType) { ft.Flen = 120 })},
		{Table: "t", Name: "ci", Ft: mk(mysql.TypeVarchar, func(ft *types.FieldType) { ft.Flen = 20; ft.Collate = "utf8mb4_general_ci" })},
		{Table: "t", Name: "u", Ft: mk(mysql.TypeLonglong, func(ft *types.FieldType) { ft.Flag |= mysql.UnsignedFlag })},
		{Table: "t", Name: "d", Ft: mk(mysql.TypeNewDecimal, func(ft *types.FieldType) { ft.Flen, ft.Decimal = 10, 2 })},
		{Table: "t", Name: "f", Ft: mk(mysql.TypeDouble, nil)},
		{Table: "t", Name: "dt", Ft: mk(mysql.TypeDatetime, nil)},
		{Table: "t", Name: "n", Ft: mk(mysql.TypeLong, nil)},
		{Table: "t", Name: "dte", Ft: mk(mysql.TypeDate, nil)},
		{Table: "t", Name: "bin", Ft: mk(mysql.TypeVarchar, func(ft *types.FieldType) { ft.Flen = 10; ft.Charset, ft.Collate = "binary", "binary" })},
		{Table: "u", Name: "id", Ft: mk(mysql.TypeLonglong, nil)},
	}
	fts := make([]*types.FieldType, len(cols))
	for i, c := range cols {
		fts[i] = c.Ft
	}
	chk := chunk.New(fts, 1)
	dec, _ := types.ParseDecimal("12.50")
	dt, _ := types.ParseTime("2020-10-01 12:00:00", mysql.TypeDatetime, 0)
	dte, _ := types.ParseTime("2020-10-01", mysql.TypeDate, 0)
	chk.AppendInt64(0, 7)
	chk.AppendInt64(1, 42)
	chk.AppendString(2, "Hello")
	chk.AppendString(3, "abc")
	chk.AppendUint64(4, 3)
	chk.AppendDecimal(5, dec)
	chk.AppendFloat64(6, 1.5)
	chk.AppendTime(7, dt)
	chk.AppendNull(8)
	chk.AppendTime(9, dte)
	chk.AppendBytes(10, []byte("AbC"))
	chk.AppendInt64(11, 8)
	return &Columns{Cols: cols}, chk
}

func newTestContext() *SimpleContext {
	return &SimpleContext{
		NowTime:  time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC),
		DB:       "test",
		UserName: "root@localhost",
		ConnID:   5,
		LastID:   10,
		SysVars:  map[string]string{"autocommit": "1", "sql_mode": "STRICT_TRANS_TABLES", "max_connections": "151"},
		UserVars: map[string]types.Datum{"a": types.NewIntDatum(5), "s": types.NewStringDatum("x")},
	}
}

// parseExpr parses one expression as SELECT's field.
func parseExpr(p *parser.Parser, s string) (ast.ExprNode, error) {
	stmt, err := p.ParseOneStmt("SELECT "+s, "", "")
	if err != nil {
		return nil, err
	}
	sel := stmt.(*ast.SelectStmt)
	if len(sel.Fields.Fields) != 1 {
		return nil, fmt.Errorf("want one expression, got %d", len(sel.Fields.Fields))
	}
	ParamMarkers(stmt)
	return sel.Fields.Fields[0].Expr, nil
}

func fmtErr(err error) string {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%d: %s", se.Code, se.Message)
	}
	return err.Error()
}

func fmtDatum(d types.Datum) string {
	if d.Kind() == types.KindBytes {
		return fmt.Sprintf("%q", d.GetBytes())
	}
	if d.Kind() == types.KindString {
		return "'" + d.GetString() + "'"
	}
	return d.String()
}

// TestEval runs testdata/eval: "eval" evaluates each input line as an
// expression over the test row and prints value, result type and
// warnings (or the error); "params" sets the prepared-statement
// parameters (a comma-separated list of constant expressions); "sqlmode"
// sets the sql_mode bitmask by names.
func TestEval(t *testing.T) {
	p := parser.New()
	schema, chk := testTable()
	row := chk.GetRow(0)
	ctx := newTestContext()
	datadriven.Walk(t, "testdata/eval", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "params":
				ctx.Params = nil
				if strings.TrimSpace(d.Input) == "" {
					return "ok\n"
				}
				stmt, err := p.ParseOneStmt("SELECT "+d.Input, "", "")
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				for _, f := range stmt.(*ast.SelectStmt).Fields.Fields {
					e, err := Build(ctx, f.Expr, nil)
					if err != nil {
						return "error: " + fmtErr(err) + "\n"
					}
					v, err := e.Eval(ctx, chunk.Row{})
					if err != nil {
						return "error: " + fmtErr(err) + "\n"
					}
					ctx.Params = append(ctx.Params, v)
				}
				return "ok\n"
			case "sqlmode":
				ctx.Mode = 0
				for _, m := range strings.Fields(d.Input) {
					switch m {
					case "NO_UNSIGNED_SUBTRACTION":
						ctx.Mode |= modeNoUnsignedSubtraction
					default:
						t.Fatalf("unknown mode %s", m)
					}
				}
				return "ok\n"
			case "eval":
				var sb strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
						continue
					}
					ctx.Warnings = nil
					fmt.Fprintf(&sb, "%s -> ", line)
					node, err := parseExpr(p, line)
					if err != nil {
						fmt.Fprintf(&sb, "parse error: %v\n", err)
						continue
					}
					e, err := Build(ctx, node, schema)
					if err != nil {
						fmt.Fprintf(&sb, "build error %s\n", fmtErr(err))
						continue
					}
					v, err := e.Eval(ctx, row)
					if err != nil {
						fmt.Fprintf(&sb, "error %s\n", fmtErr(err))
					} else {
						fmt.Fprintf(&sb, "%s %s\n", fmtDatum(v), e.Type())
						if !v.IsNull() && !kindFits(v.Kind(), e.Type()) {
							fmt.Fprintf(&sb, "  BUG: %s datum for type %s\n", v.Kind(), e.Type())
						}
					}
					for _, w := range ctx.Warnings {
						fmt.Fprintf(&sb, "  warning %s\n", fmtErr(w))
					}
				}
				return sb.String()
			case "build":
				var sb strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					node, err := parseExpr(p, line)
					if err != nil {
						fmt.Fprintf(&sb, "%s -> parse error: %v\n", line, err)
						continue
					}
					e, err := Build(ctx, node, schema)
					if err != nil {
						fmt.Fprintf(&sb, "%s -> build error %s\n", line, fmtErr(err))
						continue
					}
					fmt.Fprintf(&sb, "%s -> %s %T %s\n", line, e, e, e.Type())
				}
				return sb.String()
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}
