package expr

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/strata-db/strata/internal/types"
)

// FuzzEval parses, builds and evaluates arbitrary expressions over the
// test row: whatever the input, the result is a value or an error, never
// a panic, and a value's kind fits the expression's type. Seeds are the
// lines of testdata/eval.
func FuzzEval(f *testing.F) {
	files, _ := filepath.Glob("testdata/eval/*")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if i := strings.Index(line, " -> "); i > 0 {
				f.Add(line[:i])
			}
		}
	}
	schema, chk := testTable()
	row := chk.GetRow(0)
	p := parser.New()
	f.Fuzz(func(t *testing.T, s string) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				panic(fmt.Sprintf("slow input %q", s))
			}
		}()
		node, err := parseExpr(p, s)
		if err != nil {
			return
		}
		ctx := newTestContext()
		ctx.Params = []types.Datum{types.NewIntDatum(-1), types.NewStringDatum("2020-01-01"), types.NewFloat64Datum(1e300)}
		e, err := Build(ctx, node, schema)
		if err != nil {
			return
		}
		_ = e.String()
		d, err := e.Eval(ctx, row)
		if err != nil {
			return
		}
		if !d.IsNull() && !kindFits(d.Kind(), e.Type()) {
			t.Fatalf("%s: %s datum for type %s", s, d.Kind(), e.Type())
		}
	})
}
