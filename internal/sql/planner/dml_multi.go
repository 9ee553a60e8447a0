package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// MultiDML is a multi-table UPDATE or DELETE: every target (an Update
// or Delete) reads its rows from one join, materialized (Mat) before any
// target writes, so that no target sees another's changes; each target
// row is changed once however many join rows name it.
type MultiDML struct {
	Mat     *Materialize
	Targets []Plan
}

// Schema implements Plan.
func (p *MultiDML) Schema() []OutCol { return nil }

// Children implements Plan.
func (p *MultiDML) Children() []Plan { return p.Targets }

func (p *MultiDML) explainInfo() (name, obj, info string) { return "MultiDML", "", "N/A" }

// Materialize reads all of its child's rows once per execution and
// returns them to every reader.
type Materialize struct {
	Child Plan
}

// Schema implements Plan.
func (p *Materialize) Schema() []OutCol { return p.Child.Schema() }

// Children implements Plan.
func (p *Materialize) Children() []Plan { return []Plan{p.Child} }

func (p *Materialize) explainInfo() (name, obj, info string) { return "Materialize", "", "" }

// targetRows is the input of one target: its columns, then extra (the
// join's columns, which assignments may read), then its handle, one row
// per handle.
func targetRows(mat *Materialize, t baseTable, withJoinCols bool) Plan {
	in := mat.Schema()
	proj := &Projection{Child: mat}
	for _, c := range t.cols {
		proj.Exprs = append(proj.Exprs, columnOf(in, c))
		proj.Cols = append(proj.Cols, in[c])
	}
	if withJoinCols {
		for i := range in {
			proj.Exprs = append(proj.Exprs, columnOf(in, i))
			c := in[i]
			c.Hidden = true
			proj.Cols = append(proj.Cols, c)
		}
	}
	proj.Exprs = append(proj.Exprs, columnOf(in, t.handle))
	proj.Cols = append(proj.Cols, in[t.handle])
	h := len(proj.Cols) - 1
	agg := &Agg{Child: proj, GroupBy: []expr.Expression{columnOf(proj.Cols, h)}}
	agg.cols = append([]OutCol(nil), proj.Cols...)
	return agg
}

func findTarget(ts []baseTable, name *ast.TableName) (baseTable, bool) {
	for _, t := range ts {
		if strings.EqualFold(t.src.Alias, name.Name.O) && (name.Schema.O == "" || strings.EqualFold(name.Schema.O, t.src.DB)) {
			return t, true
		}
	}
	return baseTable{}, false
}

// multiSource plans the join a multi-table UPDATE or DELETE reads, and
// the base tables it may change.
func multiSource(ctx Context, verb string, refs *ast.TableRefsClause, where ast.ExprNode, ordered bool) (*lnode, *Materialize, []baseTable, error) {
	if ordered {
		return nil, nil, nil, sqlerr.New(mysql.ErrWrongUsage, verb, "ORDER BY or LIMIT")
	}
	q := &qbuilder{ctx: ctx}
	ln, err := q.from(refs.TableRefs, map[string]bool{})
	if err != nil {
		return nil, nil, nil, err
	}
	p, err := q.fromWhere(ln, where)
	if err != nil {
		return nil, nil, nil, err
	}
	return ln, &Materialize{Child: p}, ln.baseTables(0, nil), nil
}

func buildMultiDelete(ctx Context, st *ast.DeleteStmt) (Plan, error) {
	_, mat, all, err := multiSource(ctx, "DELETE", st.TableRefs, st.Where, st.Order != nil || st.Limit != nil)
	if err != nil {
		return nil, err
	}
	out := &MultiDML{Mat: mat}
	for _, tn := range st.Tables.Tables {
		t, ok := findTarget(all, tn)
		if !ok {
			return nil, sqlerr.New(mysql.ErrUnknownTable, tn.Name.O, "MULTI DELETE")
		}
		out.Targets = append(out.Targets, &Delete{Table: t.src.Table, Child: targetRows(mat, t, false), InfoSchema: ctx.InfoSchema()})
	}
	return out, nil
}

func buildMultiUpdate(ctx Context, st *ast.UpdateStmt) (Plan, error) {
	ln, mat, all, err := multiSource(ctx, "UPDATE", st.TableRefs, st.Where, st.Order != nil || st.Limit != nil)
	if err != nil {
		return nil, err
	}
	sch := &schema{cols: ln.cols, clause: "field list"}
	byTarget := map[int]*Update{}
	out := &MultiDML{Mat: mat}
	for _, a := range st.List {
		idx, _, err := sch.Resolve(a.Column.Schema.O, a.Column.Table.O, a.Column.Name.O)
		if err != nil {
			return nil, err
		}
		ti, col := -1, -1
		for i, t := range all {
			if c := slices.Index(t.cols, idx); c >= 0 {
				ti, col = i, c
			}
		}
		if ti < 0 {
			return nil, sqlerr.New(mysql.ErrNonUpdatableTable, a.Column.Table.O, "UPDATE")
		}
		t := all[ti]
		u := byTarget[ti]
		if u == nil {
			u = &Update{Table: t.src.Table, Child: targetRows(mat, t, true), Ignore: st.IgnoreErr, InfoSchema: ctx.InfoSchema()}
			byTarget[ti] = u
			out.Targets = append(out.Targets, u)
		}
		var e expr.Expression
		if _, isDefault := a.Expr.(*ast.DefaultExpr); !isDefault {
			built, err := expr.Build(ctx, a.Expr, sch)
			if err != nil {
				return nil, err
			}
			// Over the target's input: its columns, then the join's.
			shift := len(t.src.Table.Columns)
			e = remapAll([]expr.Expression{built}, func(i int) int { return i + shift })[0]
		}
		u.Assigns = append(u.Assigns, Assignment{Col: col, Expr: e})
	}
	return out, nil
}

// isJoin reports a FROM of more than one table.
func isJoin(refs *ast.TableRefsClause) bool {
	if refs == nil || refs.TableRefs == nil {
		return false
	}
	j := refs.TableRefs
	for j.Right == nil {
		inner, ok := j.Left.(*ast.Join)
		if !ok {
			if ts, ok := j.Left.(*ast.TableSource); ok {
				if in, ok := ts.Source.(*ast.Join); ok {
					inner = in
				} else {
					return false
				}
			} else {
				return false
			}
		}
		j = inner
	}
	return true
}
