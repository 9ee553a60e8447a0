package planner

import (
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Expand feeds GROUP BY ... WITH ROLLUP: every child row comes out
// len(Cols)+1 times, at levels 0..len(Cols), with the last `level` of the
// grouping columns Cols set to NULL, and the level as a last column. An
// aggregation grouped by (level, Cols...) then computes the groups and
// every super-aggregate; its first rows show NULL in the rolled-up
// columns, as MySQL does.
type Expand struct {
	Child Plan
	Cols  []int
	cols  []OutCol
}

// Schema implements Plan.
func (p *Expand) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *Expand) Children() []Plan { return []Plan{p.Child} }

func (p *Expand) explainInfo() (name, obj, info string) {
	return "Expand", "", "rollup levels:" + strconv.Itoa(len(p.Cols)+1)
}

// rollup plans GROUP BY ... WITH ROLLUP over p: the grouping items must
// be columns. It returns the aggregation and the order of its rows
// (groups, each level's super-aggregate after the groups it sums).
func (q *qbuilder) rollup(p Plan, st *ast.SelectStmt, aggs []*ast.AggregateFuncExpr) (*Agg, []ByItem, error) {
	in := p.Schema()
	ex := &Expand{Child: p}
	for _, item := range st.GroupBy.Items {
		node, err := groupTarget(item.Expr, in, st.Fields.Fields)
		if err != nil {
			return nil, nil, err
		}
		cn, ok := node.(*ast.ColumnNameExpr)
		if !ok {
			return nil, nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "WITH ROLLUP over expressions")
		}
		idx, _, err := (&schema{cols: in, clause: "group statement"}).Resolve(cn.Name.Schema.O, cn.Name.Table.O, cn.Name.Name.O)
		if err != nil {
			return nil, nil, err
		}
		ex.Cols = append(ex.Cols, idx)
	}
	ex.cols = append(nullable(in), OutCol{Name: "rollup_level", Ft: types.NewFieldType(mysql.TypeLonglong), Hidden: true})
	agg, err := buildAgg(q.ctx, ex, st.GroupBy, aggs, st.Fields.Fields)
	if err != nil {
		return nil, nil, err
	}
	level := columnOf(ex.cols, len(in))
	agg.GroupBy = append([]expr.Expression{level}, agg.GroupBy...)
	// Order: by each grouping column, its rolled-up rows (level high
	// enough) after the others.
	var by []ByItem
	n := len(ex.Cols)
	for i, c := range ex.Cols {
		rolled, err := q.opExpr(opcode.GE, level, expr.NewConstant(types.NewIntDatum(int64(n-i)), types.NewFieldType(mysql.TypeLonglong)))
		if err != nil {
			return nil, nil, err
		}
		by = append(by, ByItem{Expr: rolled}, ByItem{Expr: columnOf(ex.cols, c)})
	}
	return agg, by, nil
}
