package expr

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// CorrelatedColumn is a column of an outer query read inside a subquery:
// its value is the outer row's, written into Slot by the operator that
// runs the subquery once per outer row (Apply) before each run. The plan
// owns the slot; an execution tree is used by one goroutine at a time.
type CorrelatedColumn struct {
	// Slot holds the current outer row's value.
	Slot *types.Datum
	// Name is the column's name for display.
	Name string
	// Ft is the column's type.
	Ft *types.FieldType
}

// Eval implements Expression.
func (c *CorrelatedColumn) Eval(_ EvalContext, _ chunk.Row) (types.Datum, error) {
	return *c.Slot, nil
}

// Type implements Expression.
func (c *CorrelatedColumn) Type() *types.FieldType { return c.Ft }

// String implements Expression.
func (c *CorrelatedColumn) String() string { return "outer." + c.Name }
