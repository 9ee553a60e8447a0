package planner

import (
	"strings"

	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// Aggregate function names.
const (
	AggCount    = "count"
	AggSum      = "sum"
	AggAvg      = "avg"
	AggMin      = "min"
	AggMax      = "max"
	AggFirstRow = "firstrow"
)

// AggFunc is one aggregate function over the child's rows.
type AggFunc struct {
	Name     string
	Args     []expr.Expression
	Distinct bool
	// Ft is the result type.
	Ft *types.FieldType
}

// String renders the function for EXPLAIN.
func (f *AggFunc) String() string {
	var sb strings.Builder
	sb.WriteString(f.Name)
	sb.WriteByte('(')
	if f.Distinct {
		sb.WriteString("distinct ")
	}
	for i, a := range f.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(a.String())
	}
	sb.WriteByte(')')
	return sb.String()
}

// Agg groups the child's rows by GroupBy and computes Funcs per group. Its
// output is the first row of each group (every child column, so that
// non-aggregated column references resolve as MySQL without
// ONLY_FULL_GROUP_BY does) followed by the aggregate results. Stream marks
// an aggregation without GROUP BY (one group, computed streaming).
type Agg struct {
	Child   Plan
	GroupBy []expr.Expression
	Funcs   []*AggFunc
	Stream  bool
	cols    []OutCol
}

// Schema implements Plan.
func (p *Agg) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *Agg) Children() []Plan { return []Plan{p.Child} }
