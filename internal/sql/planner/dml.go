package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// tableColumn resolves an assignment or insert column name of t.
func tableColumn(t *catalog.TableInfo, alias string, cn *ast.ColumnName, clause string) (int, error) {
	if cn.Table.O != "" && !strings.EqualFold(cn.Table.O, alias) && !strings.EqualFold(cn.Table.O, t.Name) {
		return 0, sqlerr.New(sqlerr.ErrBadField, cn.Table.O+"."+cn.Name.O, clause)
	}
	c := t.Column(cn.Name.O)
	if c == nil || c.Hidden {
		return 0, sqlerr.New(sqlerr.ErrBadField, cn.Name.O, clause)
	}
	return c.Offset, nil
}

func buildInsert(ctx Context, st *ast.InsertStmt) (Plan, error) {
	src, err := singleTable(ctx, st.Table)
	if err != nil {
		return nil, err
	}
	t := src.Table
	p := &Insert{DB: src.DB, Table: t, Ignore: st.IgnoreErr, Replace: st.IsReplace, InfoSchema: ctx.InfoSchema()}
	if len(st.Columns) == 0 {
		for _, c := range t.Columns {
			if !c.Hidden {
				p.Columns = append(p.Columns, c.Offset)
			}
		}
	}
	for _, cn := range st.Columns {
		off, err := tableColumn(t, src.Alias, cn, "field list")
		if err != nil {
			return nil, err
		}
		p.Columns = append(p.Columns, off)
	}
	for i, list := range st.Lists {
		if len(list) != len(p.Columns) && !(len(list) == 0 && len(st.Columns) == 0) {
			return nil, sqlerr.New(sqlerr.ErrWrongValueCountOnRow, i+1)
		}
		row := make([]expr.Expression, len(list))
		for j, n := range list {
			if _, ok := n.(*ast.DefaultExpr); ok {
				continue // nil: DEFAULT
			}
			if row[j], err = buildExpr(ctx, n, nil, "field list"); err != nil {
				return nil, err
			}
		}
		if len(list) == 0 {
			row = make([]expr.Expression, len(p.Columns))
		}
		p.Rows = append(p.Rows, row)
	}
	if st.Select != nil {
		sel, ok := st.Select.(*ast.SelectStmt)
		if !ok {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "INSERT ... this SELECT")
		}
		if p.Select, err = buildSelect(ctx, sel); err != nil {
			return nil, err
		}
		if len(p.Select.Schema()) != len(p.Columns) {
			return nil, sqlerr.New(sqlerr.ErrWrongValueCountOnRow, 1)
		}
	}
	if len(st.OnDuplicate) > 0 {
		if p.OnDup, err = buildOnDup(ctx, src, st.OnDuplicate); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// buildOnDup builds ON DUPLICATE KEY UPDATE assignments over the existing
// row (the table source's columns) followed by the row that was to be
// inserted (VALUES(col)).
func buildOnDup(ctx Context, src TableSource, list []*ast.Assignment) ([]Assignment, error) {
	cols := src.Schema()
	t := src.Table
	all := append([]OutCol(nil), cols...)
	for _, c := range t.Columns {
		all = append(all, OutCol{Name: c.Name, Ft: &c.FieldType, Hidden: true, Table: "\x00values"})
	}
	sch := &schema{cols: cols, clause: "field list"}
	sch.nodes = func(n ast.ExprNode) (expr.Expression, bool, error) {
		v, ok := n.(*ast.ValuesExpr)
		if !ok {
			return nil, false, nil
		}
		off, err := tableColumn(t, src.Alias, v.Column.Name, "field list")
		if err != nil {
			return nil, false, err
		}
		return columnOf(all, len(cols)+off), true, nil
	}
	return buildAssignments(ctx, src, list, sch)
}

func buildAssignments(ctx Context, src TableSource, list []*ast.Assignment, sch *schema) ([]Assignment, error) {
	out := make([]Assignment, 0, len(list))
	for _, a := range list {
		off, err := tableColumn(src.Table, src.Alias, a.Column, "field list")
		if err != nil {
			return nil, err
		}
		var e expr.Expression
		if _, ok := a.Expr.(*ast.DefaultExpr); !ok {
			if e, err = expr.Build(ctx, a.Expr, sch); err != nil {
				return nil, err
			}
		}
		out = append(out, Assignment{Col: off, Expr: e})
	}
	return out, nil
}

// buildDMLRead plans the rows an UPDATE or DELETE changes.
func buildDMLRead(ctx Context, src TableSource, where ast.ExprNode, ob *ast.OrderByClause, lim *ast.Limit) (Plan, error) {
	q := &qbuilder{ctx: ctx}
	p, err := q.fromWhere(&lnode{table: &src, cols: src.Schema()}, where)
	if err != nil {
		return nil, err
	}
	var by []ByItem
	if ob != nil {
		for _, it := range ob.Items {
			e, err := buildExpr(ctx, it.Expr, src.Schema(), "order clause")
			if err != nil {
				return nil, err
			}
			by = append(by, ByItem{Expr: e, Desc: it.Desc})
		}
	}
	return buildSortLimit(ctx, p, by, lim)
}

func buildUpdate(ctx Context, st *ast.UpdateStmt) (Plan, error) {
	if st.MultipleTable || isJoin(st.TableRefs) {
		return buildMultiUpdate(ctx, st)
	}
	src, err := singleTable(ctx, st.TableRefs)
	if err != nil {
		return nil, err
	}
	child, err := buildDMLRead(ctx, src, st.Where, st.Order, st.Limit)
	if err != nil {
		return nil, err
	}
	assigns, err := buildAssignments(ctx, src, st.List, &schema{cols: src.Schema(), clause: "field list"})
	if err != nil {
		return nil, err
	}
	return &Update{Table: src.Table, Child: child, Assigns: assigns, Ignore: st.IgnoreErr, InfoSchema: ctx.InfoSchema()}, nil
}

func buildDelete(ctx Context, st *ast.DeleteStmt) (Plan, error) {
	if st.IsMultiTable {
		return buildMultiDelete(ctx, st)
	}
	src, err := singleTable(ctx, st.TableRefs)
	if err != nil {
		return nil, err
	}
	child, err := buildDMLRead(ctx, src, st.Where, st.Order, st.Limit)
	if err != nil {
		return nil, err
	}
	return &Delete{Table: src.Table, Child: child, InfoSchema: ctx.InfoSchema()}, nil
}
