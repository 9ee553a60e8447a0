package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
)

// Assignment sets column Col (an offset in the table) to Expr.
type Assignment struct {
	Col  int
	Expr expr.Expression
}

// Insert writes rows into a table. Each row of Rows (or of Select) gives
// the values of Columns (table offsets); a nil expression is DEFAULT.
// OnDup assignments are evaluated over the conflicting row followed by the
// row that was to be inserted (VALUES(col) reads the latter).
type Insert struct {
	DB      string
	Table   *catalog.TableInfo
	Columns []int
	Rows    [][]expr.Expression
	Select  Plan
	OnDup   []Assignment
	Ignore  bool
	Replace bool
	// InfoSchema is the snapshot planned against (foreign keys look up
	// parents and children in it).
	InfoSchema *catalog.InfoSchema
}

// Schema implements Plan: DML returns no rows.
func (p *Insert) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *Insert) Children() []Plan {
	if p.Select != nil {
		return []Plan{p.Select}
	}
	return nil
}

// Update changes the rows Child returns (table rows followed by the handle,
// as every table read outputs).
type Update struct {
	Table      *catalog.TableInfo
	Child      Plan
	Assigns    []Assignment
	Ignore     bool
	InfoSchema *catalog.InfoSchema // as Insert.InfoSchema
}

// Schema implements Plan.
func (p *Update) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *Update) Children() []Plan { return []Plan{p.Child} }

// Delete removes the rows Child returns.
type Delete struct {
	Table      *catalog.TableInfo
	Child      Plan
	InfoSchema *catalog.InfoSchema // as Insert.InfoSchema
}

// Schema implements Plan.
func (p *Delete) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *Delete) Children() []Plan { return []Plan{p.Child} }

// Explain describes Target instead of running it.
type Explain struct {
	Target Plan
	// Analyze: EXPLAIN ANALYZE runs Target and shows what each operator
	// did.
	Analyze bool
	est     map[Plan]float64
}

// Schema implements Plan.
func (p *Explain) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *Explain) Children() []Plan { return nil }
