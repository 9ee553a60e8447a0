package planner

import (
	"strconv"
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
	// AggGroupConcat is GROUP_CONCAT([DISTINCT] a, ... [ORDER BY ...]
	// [SEPARATOR s]).
	AggGroupConcat = "group_concat"
	AggBitAnd      = "bit_and"
	AggBitOr       = "bit_or"
	AggBitXor      = "bit_xor"
	AggStddevPop   = "stddev_pop"
	AggStddevSamp  = "stddev_samp"
	AggVarPop      = "var_pop"
	AggVarSamp     = "var_samp"
)

// AggFunc is one aggregate function over the child's rows.
type AggFunc struct {
	Name string
	// Args are the arguments; for GROUP_CONCAT the concatenated values
	// followed by the ORDER BY keys (the last len(OrderDesc) arguments),
	// so that every column the function reads is in Args.
	Args     []expr.Expression
	Distinct bool
	// OrderDesc has one entry per GROUP_CONCAT ORDER BY key: true for
	// DESC.
	OrderDesc []bool
	// Separator is GROUP_CONCAT's separator.
	Separator string
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
	vals := f.ValueArgs()
	for i, a := range vals {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(a.String())
	}
	for i, desc := range f.OrderDesc {
		if i == 0 {
			sb.WriteString(" order by ")
		} else {
			sb.WriteString(", ")
		}
		sb.WriteString(f.Args[len(vals)+i].String())
		if desc {
			sb.WriteString(" desc")
		}
	}
	if f.Name == AggGroupConcat {
		sb.WriteString(" separator " + strconv.Quote(f.Separator))
	}
	sb.WriteByte(')')
	return sb.String()
}

// ValueArgs returns the arguments the function aggregates (without
// GROUP_CONCAT's ORDER BY keys).
func (f *AggFunc) ValueArgs() []expr.Expression {
	return f.Args[:len(f.Args)-len(f.OrderDesc)]
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
