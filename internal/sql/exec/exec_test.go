package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// TestQueries runs testdata/queries: "ddl" creates tables in database
// test; "query" runs each line as one autocommit statement through the
// planner and the executors and prints its rows, "affected=N
// last_insert_id=M", or its MySQL error. "query strict=false" runs
// without strict sql_mode and prints warnings.
func TestQueries(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		cat, begin := newTestCatalogBegin(t)
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "ddl":
				ddl(t, cat, d.Input)
				return ""
			case "query":
				strict := true
				if d.HasArg("strict") {
					d.ScanArgs(t, "strict", &strict)
				}
				var out strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					if strings.TrimSpace(line) == "" {
						continue
					}
					out.WriteString(runLine(t, cat, begin, line, strict))
				}
				return out.String()
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

// warnCtx collects warnings.
type warnCtx struct {
	testCtx
	warns []error
}

func (c *warnCtx) AppendWarning(err error) { c.warns = append(c.warns, err) }

func runLine(t *testing.T, cat *catalog.Catalog, begin func(context.Context) (kvTxn, error), sql string, strict bool) string {
	ctx := context.Background()
	stmt, err := parser.New().ParseOneStmt(sql, "", "")
	if err != nil {
		return "parse error: " + err.Error() + "\n"
	}
	expr.ParamMarkers(stmt)
	qc := &warnCtx{testCtx: testCtx{IS: cat.InfoSchema(), DB: "test"}}
	p, err := planner.Build(qc, stmt)
	if err != nil {
		return errText(err) + "\n"
	}
	txn, err := begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ectx := &Context{Eval: qc, Txn: txn, Alloc: cat.Allocator(), Strict: strict, Now: time.Unix(0, 0), ChunkSize: 2}
	e, err := Build(ectx, p)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err = e.Open(ctx)
	if err == nil {
		var rows []string
		rows, err = drainRows(ctx, e, 2)
		for _, r := range rows {
			out.WriteString(r + "\n")
		}
	}
	_ = e.Close()
	if err != nil {
		_ = txn.Rollback()
		return errText(err) + "\n"
	}
	if err := txn.Commit(ctx); err != nil {
		return errText(err) + "\n"
	}
	if p.Schema() == nil {
		fmt.Fprintf(&out, "affected=%d last_insert_id=%d\n", ectx.AffectedRows, ectx.LastInsertID)
	}
	for _, w := range qc.warns {
		out.WriteString("warning: " + errText(w) + "\n")
	}
	return out.String()
}

// drainRows runs e (open) to the end through chunks of size rows and
// returns its rows as rowText.
func drainRows(ctx context.Context, e Executor, size int) ([]string, error) {
	var rows []string
	fts := e.FieldTypes()
	err := Drain(ctx, e, size, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			rows = append(rows, rowText(c.GetRow(i), fts))
		}
		return nil
	})
	return rows, err
}

func rowText(r chunk.Row, fts []*types.FieldType) string {
	parts := make([]string, len(fts))
	for i, ft := range fts {
		d := r.GetDatum(i, ft)
		if d.IsNull() {
			parts[i] = "NULL"
		} else {
			parts[i] = d.String()
		}
	}
	return strings.Join(parts, " ")
}
