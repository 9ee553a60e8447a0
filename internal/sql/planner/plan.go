package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// Plan is a node of a physical plan tree. Plans are immutable once built:
// a cached plan is executed many times, each execution evaluating the
// plan's expressions (parameters included) against its own EvalContext.
type Plan interface {
	// Schema returns the output columns.
	Schema() []OutCol
	// Children returns the inputs.
	Children() []Plan
}

// OutCol is one output column of a plan.
type OutCol struct {
	// DB, Table and Name qualify the column for name resolution (Table is
	// the alias when the table has one).
	DB, Table, Name string
	// Ft is the column's type.
	Ft *types.FieldType
	// Hidden columns (the row handle, ORDER BY helpers) are not expanded
	// by * and not returned to the client.
	Hidden bool
	// QualifiedOnly columns answer only to a qualified name (t2.a for the
	// right table's copy of a USING column).
	QualifiedOnly bool
}

// FieldTypes returns the types of cols.
func FieldTypes(cols []OutCol) []*types.FieldType {
	out := make([]*types.FieldType, len(cols))
	for i := range cols {
		out[i] = cols[i].Ft
	}
	return out
}

// TableSource is what every table read outputs: all the table's columns in
// offset order, then the row handle (hidden, BIGINT) as the last column.
type TableSource struct {
	DB    string
	Table *catalog.TableInfo
	// Alias is the name the query uses for the table.
	Alias string
	cols  []OutCol
	// indexes are the indexes the read may use (nil: any; a nil index
	// is the primary key): the index hints, kept with the read so that
	// conditions pushed into it later (pushConds) choose under them too.
	indexes func(*catalog.IndexInfo) bool
}

func newTableSource(db string, t *catalog.TableInfo, alias string) TableSource {
	cols := make([]OutCol, 0, len(t.Columns)+1)
	for _, c := range t.Columns {
		cols = append(cols, OutCol{DB: db, Table: alias, Name: c.Name, Ft: &c.FieldType, Hidden: c.Hidden})
	}
	cols = append(cols, OutCol{DB: db, Table: alias, Name: "_tidb_rowid", Ft: handleType, Hidden: true})
	return TableSource{DB: db, Table: t, Alias: alias, cols: cols}
}

// Schema implements Plan for the table reads that embed TableSource.
func (s *TableSource) Schema() []OutCol { return s.cols }

// HandleIndex is the position of the handle column in the output.
func (s *TableSource) HandleIndex() int { return len(s.cols) - 1 }

// Children implements Plan: table reads are leaves.
func (s *TableSource) Children() []Plan { return nil }

var handleType = func() *types.FieldType {
	ft := types.NewFieldType(8) // mysql.TypeLonglong
	ft.Flag |= 1                // NOT NULL
	return ft
}()

// PointGet reads rows by handle: one (Handles has one element) or a batch
// (BatchPointGet, an IN list on the int primary key). When Index is set the
// values are the full key of a unique index instead, looked up first.
type PointGet struct {
	TableSource
	// Handles are the handle values (int PK).
	Handles []expr.Expression
	// Index, when non-nil, is a unique index whose all columns are given
	// by IndexValues (one tuple per row asked for).
	Index       *catalog.IndexInfo
	IndexValues [][]expr.Expression
}

// Bound is one side of a range: a value and whether it is excluded.
type Bound struct {
	Value expr.Expression
	Excl  bool
}

// HandleRange is a range over the int handle: the intersection of all Lows
// and all Highs (evaluated at execution; none is unbounded).
type HandleRange struct {
	Lows, Highs []Bound
}

// TableScan reads the rows of a handle range in handle order; Full means
// the whole table (TableFullScan).
type TableScan struct {
	TableSource
	Range HandleRange
	Full  bool
	Desc  bool
	// KeepOrder: the plan relies on the handle order (a Sort on the
	// primary key was dropped).
	KeepOrder bool
	// RangeConds are the conditions the range stands for: checked by the
	// range alone when every bound converts exactly to a handle, else
	// re-checked on each row.
	RangeConds []expr.Expression
	// Needed marks the output columns the plan reads (nil: all); the
	// others are left NULL instead of decoded.
	Needed []bool
}

// IndexRange is one range of an index: equal values on the first
// len(Eq) columns, then (optionally) bounds on the next column.
type IndexRange struct {
	Eq          []expr.Expression
	Lows, Highs []Bound
	// NullLast: the last Eq value is an IS NULL test (a NULL that matches
	// NULL entries); any other NULL equality matches nothing.
	NullLast bool
}

// IndexLookUp reads index entries in Ranges, then the rows they point to.
type IndexLookUp struct {
	TableSource
	Index  *catalog.IndexInfo
	Ranges []IndexRange
	Desc   bool
	// IndexOnly: every column the plan reads from this read is in the
	// index (or is the handle), so rows are not fetched: the index
	// columns are decoded from the entry keys and the other columns are
	// NULL (IndexRangeScan in EXPLAIN).
	IndexOnly bool
	// RangeConds are the conditions the ranges stand for: checked by the
	// ranges alone when every value converts exactly to the column type,
	// else re-checked on each row.
	RangeConds []expr.Expression
}

// Selection keeps the rows for which every condition is true.
type Selection struct {
	Child Plan
	Conds []expr.Expression
}

// Schema implements Plan.
func (p *Selection) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *Selection) Children() []Plan { return []Plan{p.Child} }

// Projection computes Exprs over the child's rows.
type Projection struct {
	Child Plan
	Exprs []expr.Expression
	Cols  []OutCol
}

// Schema implements Plan.
func (p *Projection) Schema() []OutCol { return p.Cols }

// Children implements Plan.
func (p *Projection) Children() []Plan { return []Plan{p.Child} }

// ByItem is one ORDER BY item over the child's output.
type ByItem struct {
	Expr expr.Expression
	Desc bool
}

// Sort orders the child's rows.
type Sort struct {
	Child Plan
	By    []ByItem
}

// Schema implements Plan.
func (p *Sort) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *Sort) Children() []Plan { return []Plan{p.Child} }

// Limit skips Offset rows and returns at most Count (nil Offset: 0).
type Limit struct {
	Child         Plan
	Offset, Count expr.Expression
}

// Schema implements Plan.
func (p *Limit) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *Limit) Children() []Plan { return []Plan{p.Child} }

// TopN is Sort followed by Limit, keeping only Offset+Count rows.
type TopN struct {
	Child         Plan
	By            []ByItem
	Offset, Count expr.Expression
}

// Schema implements Plan.
func (p *TopN) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *TopN) Children() []Plan { return []Plan{p.Child} }

// Lock (SELECT ... FOR UPDATE) puts the record key of every row it passes
// into the transaction's write set, so that a concurrent writer of the
// same rows conflicts with this transaction.
type Lock struct {
	Child  Plan
	Table  *catalog.TableInfo
	Handle int // handle column in the child's output
}

// Schema implements Plan.
func (p *Lock) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *Lock) Children() []Plan { return []Plan{p.Child} }
