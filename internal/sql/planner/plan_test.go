package planner

import (
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/sql/expr"
)

// TestPlans runs testdata/plans: "ddl" creates tables in database test;
// "plan" prints the EXPLAIN rows of each statement of its input (one per
// line) or its MySQL error; "plan db=" plans without a current database.
func TestPlans(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		cat := newTestCatalog(t)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "ddl":
				ddl(t, cat, d.Input)
				return ""
			case "plan":
				ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
				if d.HasArg("db") {
					d.ScanArgs(t, "db", &ctx.DB)
				}
				var out strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					if strings.TrimSpace(line) == "" {
						continue
					}
					out.WriteString(planText(ctx, line))
				}
				return out.String()
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

func planText(ctx *testCtx, sql string) string {
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		return "parse error: " + err.Error() + "\n"
	}
	expr.ParamMarkers(stmt)
	p, err := Build(ctx, stmt)
	if err != nil {
		return errText(err) + "\n"
	}
	var sb strings.Builder
	for _, r := range ExplainRows(p) {
		sb.WriteString(strings.Join([]string{r[0], r[2], r[3], r[4]}, " | "))
		sb.WriteByte('\n')
	}
	return sb.String()
}
