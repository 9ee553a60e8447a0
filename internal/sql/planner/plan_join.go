package planner

import (
	"strconv"
	"strings"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// JoinKind is the semantics of a join.
type JoinKind byte

// Join kinds. The semi family (SemiJoin ... AntiLeftOuterSemiJoin) outputs
// only the left row; for each left row it computes a three-valued match:
// TRUE when some right row satisfies every condition, else NULL when some
// right row satisfies the filter conditions and leaves a three-valued
// condition (Join.Cmp) NULL, else FALSE.
const (
	// InnerJoin outputs the pairs that satisfy every condition.
	InnerJoin JoinKind = iota
	// LeftOuterJoin also outputs each unmatched left row with NULLs.
	LeftOuterJoin
	// SemiJoin keeps the left rows whose match is TRUE (EXISTS, IN in a
	// WHERE conjunct).
	SemiJoin
	// AntiSemiJoin keeps the left rows whose match is FALSE (NOT EXISTS,
	// NOT IN in a WHERE conjunct).
	AntiSemiJoin
	// LeftOuterSemiJoin outputs every left row and its match as a last
	// column (EXISTS / IN / ANY as a value).
	LeftOuterSemiJoin
	// AntiLeftOuterSemiJoin outputs every left row and NOT its match
	// (NOT EXISTS / NOT IN / ALL as a value).
	AntiLeftOuterSemiJoin
)

func (k JoinKind) String() string {
	return [...]string{"inner join", "left outer join", "semi join", "anti semi join",
		"left outer semi join", "anti left outer semi join"}[k]
}

// IsSemi reports the kinds that output only left rows (and perhaps a
// match column).
func (k JoinKind) IsSemi() bool { return k >= SemiJoin }

// Join joins Left and Right. Conditions read the joined row: Left's
// columns, then Right's. A pair matches when every EqLeft[i] equals
// EqRight[i] (by Keys[i]; NULL never equals unless NullEQ[i]) and every
// Other condition is true; for the semi family Cmp holds the three-valued
// conditions (the comparison of IN / ANY / ALL) whose NULL makes the
// match NULL instead of FALSE.
//
// Algorithms: a hash join (the default) builds a hash table of one side
// (BuildLeft, else Right) by the equality keys and probes it with the
// other; without keys every pair is compared (a nested loop). An index
// join (IndexJoin) reads the right side per batch of left rows through
// the right table's primary key or an index whose leading columns are
// the keys (see IndexJoinInner). A merge join (Merge) sorts both sides by
// the keys and merges them.
type Join struct {
	Kind            JoinKind
	Left, Right     Plan
	EqLeft, EqRight []expr.Expression
	Keys            []expr.JoinKey
	NullEQ          []bool
	Other           []expr.Expression
	Cmp             []expr.Expression
	// NullAwareKey: the one equality is IN's comparison (three-valued),
	// hashed: a NULL key, or a NULL among the right keys, makes a
	// mismatch NULL. Only for the semi family with no Other.
	NullAwareKey bool
	BuildLeft    bool
	Merge        bool
	IndexJoin    *IndexJoinInner
	cols         []OutCol
}

// IndexJoinInner is how an index join reads its right side: for a batch
// of left rows, the rows of Source whose Index columns (nil: the int
// primary key) equal the left keys EqLeft[KeyPos[0]], EqLeft[KeyPos[1]],
// ... (in index column order), filtered by Conds (over Source's layout).
// Every equality (not only the lookup's) is then checked by hash.
type IndexJoinInner struct {
	Source TableSource
	Index  *catalog.IndexInfo
	KeyPos []int
	Conds  []expr.Expression
	// IndexOnly: the keys and conditions read only indexed columns, so
	// the rows are not fetched (semi joins).
	IndexOnly bool
}

// Schema implements Plan.
func (p *Join) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *Join) Children() []Plan { return []Plan{p.Left, p.Right} }

func (p *Join) initSchema() {
	l := p.Left.Schema()
	switch p.Kind {
	case SemiJoin, AntiSemiJoin:
		p.cols = append([]OutCol(nil), l...)
	case LeftOuterSemiJoin, AntiLeftOuterSemiJoin:
		p.cols = append(append([]OutCol(nil), l...), OutCol{Name: "match", Ft: matchType(), Hidden: true})
	default:
		r := p.Right.Schema()
		if p.Kind == LeftOuterJoin {
			r = nullable(r)
		}
		p.cols = append(append(make([]OutCol, 0, len(l)+len(r)), l...), r...)
	}
}

func matchType() *types.FieldType {
	return types.NewFieldType(8) // BIGINT, nullable
}

func (p *Join) explainInfo() (name, obj, info string) {
	name = "HashJoin"
	switch {
	case p.IndexJoin != nil:
		name = "IndexJoin"
	case p.Merge:
		name = "MergeJoin"
	}
	parts := []string{p.Kind.String()}
	if len(p.EqLeft) > 0 {
		var eqs []string
		for i := range p.EqLeft {
			op := "eq"
			if p.NullEQ[i] {
				op = "nulleq"
			}
			eqs = append(eqs, op+"("+p.EqLeft[i].String()+", "+p.EqRight[i].String()+")")
		}
		parts = append(parts, "equal:["+strings.Join(eqs, " ")+"]")
	}
	if len(p.Other) > 0 {
		parts = append(parts, "other cond:"+exprList(p.Other))
	}
	if len(p.Cmp) > 0 {
		parts = append(parts, "cmp cond:"+exprList(p.Cmp))
	}
	return name, "", strings.Join(parts, ", ")
}

// Apply runs Inner once per Outer row with the outer values its
// correlated columns read (Corr[i].Slot gets Outer's column
// Corr[i].Outer), and joins the row with Inner's rows as Join does with
// Kind, Other and Cmp over (Outer's columns, Inner's columns).
// MaxOneRow: more than one inner row for an outer row is error 1242
// (a scalar subquery).
type Apply struct {
	Join
	Corr      []CorrBinding
	MaxOneRow bool
}

// CorrBinding binds a correlated column's slot to an outer column.
type CorrBinding struct {
	Slot  *types.Datum
	Outer int
}

func (p *Apply) explainInfo() (name, obj, info string) {
	_, _, info = p.Join.explainInfo()
	return "Apply", "", info
}

// MaxOneRow passes its child's single row (or none) and fails with 1242
// when there are more: the input of a scalar subquery.
type MaxOneRow struct {
	Child Plan
}

// Schema implements Plan.
func (p *MaxOneRow) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *MaxOneRow) Children() []Plan { return []Plan{p.Child} }

func (p *MaxOneRow) explainInfo() (name, obj, info string) { return "MaxOneRow", "", "" }

// Dual returns Rows rows of no columns: the FROM of a SELECT without one
// (one row), or of a query whose condition is known false (none).
type Dual struct {
	Rows int
}

// Schema implements Plan.
func (p *Dual) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *Dual) Children() []Plan { return nil }

func (p *Dual) explainInfo() (name, obj, info string) {
	return "TableDual", "", "rows:" + strconv.Itoa(p.Rows)
}

// SetOp combines the rows of its children, which have the same number of
// columns (converted to Cols' types): UNION ALL keeps every row; UNION,
// INTERSECT and EXCEPT work on distinct rows unless All.
type SetOp struct {
	Op     SetOpKind
	All    bool
	Inputs []Plan
	cols   []OutCol
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind byte

// Set operations.
const (
	Union SetOpKind = iota
	Intersect
	Except
)

// Schema implements Plan.
func (p *SetOp) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *SetOp) Children() []Plan { return p.Inputs }

func (p *SetOp) explainInfo() (name, obj, info string) {
	name = [...]string{"Union", "Intersect", "Except"}[p.Op]
	if p.All {
		return name, "", "all"
	}
	return name, "", "distinct"
}
