package planner

import (
	"slices"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// lnode is a FROM item before its access paths and join order are chosen:
// a base table, an already planned source (a derived table), or a join of
// two items. Its columns (cols) are the joined columns (l's then r's),
// reordered by outMap for USING / NATURAL joins.
type lnode struct {
	table *TableSource
	plan  Plan
	hints []*ast.IndexHint

	kind    JoinKind // InnerJoin or LeftOuterJoin
	rightJn bool     // RIGHT JOIN: a left join of r and l
	l, r    *lnode
	on      []expr.Expression // over l.cols ++ r.cols
	// onSub: an inner join's ON conjuncts with subqueries, planned with
	// the WHERE clause (for an inner join they filter the same rows).
	onSub    []ast.ExprNode
	straight bool
	outMap   []int // output column i is joined column outMap[i]; nil: identity

	cols []OutCol
}

func (n *lnode) isJoin() bool { return n.l != nil }

// joinedCols is l.cols ++ r.cols, the inner side's made nullable in an
// outer join.
func (n *lnode) joinedCols() []OutCol {
	l, r := n.l.cols, n.r.cols
	if n.kind == LeftOuterJoin {
		if n.rightJn {
			l = nullable(l)
		} else {
			r = nullable(r)
		}
	}
	return append(append(make([]OutCol, 0, len(l)+len(r)), l...), r...)
}

// nullable returns cols with the NOT NULL flag cleared.
func nullable(cols []OutCol) []OutCol {
	out := make([]OutCol, len(cols))
	for i, c := range cols {
		c.Ft = nullableType(c.Ft)
		out[i] = c
	}
	return out
}

// nullableType returns ft without the NOT NULL flag (ft when it has
// none).
func nullableType(ft *types.FieldType) *types.FieldType {
	if !ft.IsNotNull() {
		return ft
	}
	ft = ft.Clone()
	ft.Flag &^= mysql.NotNullFlag
	return ft
}

// from builds the logical FROM tree.
func (q *qbuilder) from(node ast.ResultSetNode, aliases map[string]bool) (*lnode, error) {
	switch x := node.(type) {
	case *ast.Join:
		if x.Right == nil {
			return q.from(x.Left, aliases)
		}
		return q.join(x, aliases)
	case *ast.TableSource:
		return q.tableSource(x, aliases)
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this FROM clause")
}

func (q *qbuilder) tableSource(ts *ast.TableSource, aliases map[string]bool) (*lnode, error) {
	alias := ts.AsName.O
	var n *lnode
	switch src := ts.Source.(type) {
	case *ast.TableName:
		if src.Schema.L == "" {
			if e := q.ctes.lookup(src.Name.L); e != nil {
				if alias == "" {
					alias = src.Name.O
				}
				n = cteSource(e, alias)
				break
			}
		}
		db, t, err := resolveTable(q.ctx, src)
		if err != nil {
			return nil, err
		}
		if alias == "" {
			alias = t.Name
		}
		if t.IsView() {
			if n, err = q.viewSource(db, t, alias); err != nil {
				return nil, err
			}
			break
		}
		s := newTableSource(db, t, alias)
		n = &lnode{table: &s, hints: src.IndexHints, cols: s.Schema()}
	case *ast.SelectStmt, *ast.SetOprStmt:
		if alias == "" {
			return nil, sqlerr.New(mysql.ErrDerivedMustHaveAlias)
		}
		p, err := q.child(nil).resultSet(src)
		if err != nil {
			return nil, err
		}
		cols, err := nameColumns(p.Schema(), ts.ColumnNames, alias)
		if err != nil {
			return nil, err
		}
		p = &Projection{Child: p, Exprs: identityExprs(p.Schema()), Cols: cols}
		n = &lnode{plan: p, cols: cols}
	case *ast.Join:
		return q.from(src, aliases)
	default:
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this FROM clause")
	}
	key := strings.ToLower(alias)
	if aliases[key] {
		return nil, sqlerr.New(mysql.ErrNonuniqTable, alias)
	}
	aliases[key] = true
	return n, nil
}

// nameColumns returns the columns of a derived table or CTE named table:
// cols renamed by the column list names (none: their own names), which
// must then be distinct (1060). A list of another length is 1353.
func nameColumns(cols []OutCol, names []ast.CIStr, table string) ([]OutCol, error) {
	if len(names) > 0 && len(names) != len(cols) {
		return nil, sqlerr.New(mysql.ErrViewWrongList)
	}
	out := make([]OutCol, len(cols))
	seen := make(map[string]bool, len(cols))
	for i, c := range cols {
		if i < len(names) {
			c.Name = names[i].O
		}
		if seen[strings.ToLower(c.Name)] {
			return nil, sqlerr.New(mysql.ErrDupFieldName, c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		c.DB, c.Table = "", table
		out[i] = c
	}
	return out, nil
}

func identityExprs(cols []OutCol) []expr.Expression {
	out := make([]expr.Expression, len(cols))
	for i := range cols {
		out[i] = columnOf(cols, i)
	}
	return out
}

func (q *qbuilder) join(j *ast.Join, aliases map[string]bool) (*lnode, error) {
	l, err := q.from(j.Left, aliases)
	if err != nil {
		return nil, err
	}
	r, err := q.from(j.Right, aliases)
	if err != nil {
		return nil, err
	}
	n := &lnode{l: l, r: r, straight: j.StraightJoin}
	switch j.Tp {
	case ast.LeftJoin:
		n.kind = LeftOuterJoin
	case ast.RightJoin:
		n.kind, n.rightJn = LeftOuterJoin, true
	}
	joined := n.joinedCols()
	n.cols = joined
	if j.NaturalJoin || len(j.Using) > 0 {
		if err := q.using(n, j, joined); err != nil {
			return nil, err
		}
	}
	on := j.On
	if on != nil && n.kind == LeftOuterJoin && hasSubquery(on.Expr) {
		rest, err := q.innerOnSubqueries(n, on.Expr)
		if err != nil {
			return nil, err
		}
		on = nil
		if rest != nil {
			on = &ast.OnCondition{Expr: rest}
		}
	}
	if on != nil && n.kind == InnerJoin && hasSubquery(on.Expr) {
		n.onSub = append(n.onSub, splitAndAST(on.Expr, nil)...)
	} else if on != nil {
		sq := q.newSubqueries(joined)
		c, err := q.buildExpr(on.Expr, joined, "on clause", sq, nil)
		if err != nil {
			return nil, err
		}
		if len(sq.wraps) > 0 {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "subqueries in ON")
		}
		n.on = append(n.on, splitAnd(c, nil)...)
	}
	return n, nil
}

// using sets the columns of a NATURAL or USING join: the common columns
// once (the left table's, the right's for RIGHT JOIN), then the other
// columns of the left and of the right; the hidden copies of the common
// columns of the other side answer only to qualified names. joined is
// n.joinedCols().
func (q *qbuilder) using(n *lnode, j *ast.Join, joined []OutCol) error {
	nl := len(n.l.cols)
	var names []string
	if j.NaturalJoin {
		for _, c := range n.l.cols {
			if c.Hidden {
				continue
			}
			for _, rc := range n.r.cols {
				if !rc.Hidden && strings.EqualFold(c.Name, rc.Name) {
					names = append(names, c.Name)
					break
				}
			}
		}
	} else {
		for _, u := range j.Using {
			names = append(names, u.Name.O)
		}
	}
	find := func(cols []OutCol, name string) (int, error) {
		found := -1
		for i, c := range cols {
			if !c.Hidden && !c.QualifiedOnly && strings.EqualFold(c.Name, name) {
				if found >= 0 {
					return 0, expr.ErrAmbiguousColumn(name, "from clause")
				}
				found = i
			}
		}
		if found < 0 {
			return 0, expr.ErrUnknownColumn(name, "from clause")
		}
		return found, nil
	}
	common := map[int]bool{}
	var outMap []int
	var hiddenCopies []int
	for _, name := range names {
		li, err := find(n.l.cols, name)
		if err != nil {
			return err
		}
		ri, err := find(n.r.cols, name)
		if err != nil {
			return err
		}
		if common[li] || common[nl+ri] {
			return sqlerr.New(mysql.ErrNonUniq, name, "from clause")
		}
		common[li], common[nl+ri] = true, true
		eq, err := q.eqExpr(columnOf(joined, li), columnOf(joined, nl+ri))
		if err != nil {
			return err
		}
		n.on = append(n.on, eq)
		if n.rightJn {
			outMap, hiddenCopies = append(outMap, nl+ri), append(hiddenCopies, li)
		} else {
			outMap, hiddenCopies = append(outMap, li), append(hiddenCopies, nl+ri)
		}
	}
	// Then the other columns: the left table's first, the right's first
	// for RIGHT JOIN (MySQL's order).
	order := make([]int, 0, len(joined))
	if n.rightJn {
		for i := nl; i < len(joined); i++ {
			order = append(order, i)
		}
		for i := 0; i < nl; i++ {
			order = append(order, i)
		}
	} else {
		for i := range joined {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if !common[i] {
			outMap = append(outMap, i)
		}
	}
	nVisible := len(outMap)
	outMap = append(outMap, hiddenCopies...)
	n.outMap = outMap
	n.cols = make([]OutCol, len(outMap))
	for i, src := range outMap {
		c := joined[src]
		if i >= nVisible {
			c.Hidden, c.QualifiedOnly = true, true
		}
		n.cols[i] = c
	}
	return nil
}

// baseTable is a base table of a FROM (what a multi-table UPDATE or
// DELETE changes, what FOR UPDATE locks), with the positions of its
// columns and of its handle in the FROM's columns.
type baseTable struct {
	src    *TableSource
	cols   []int
	handle int
}

// baseTables appends the base tables of n, its columns at offset off.
func (n *lnode) baseTables(off int, out []baseTable) []baseTable {
	if !n.isJoin() {
		if n.table != nil {
			cols := make([]int, len(n.table.Table.Columns))
			for i := range cols {
				cols[i] = off + i
			}
			return append(out, baseTable{src: n.table, cols: cols, handle: off + n.table.HandleIndex()})
		}
		return out
	}
	first := len(out)
	out = n.l.baseTables(0, out)
	out = n.r.baseTables(len(n.l.cols), out)
	for k := first; k < len(out); k++ {
		t := &out[k]
		for i, c := range t.cols {
			t.cols[i] = off + n.outPos(c)
		}
		t.handle = off + n.outPos(t.handle)
	}
	return out
}

// lockTargets lists the base tables FOR UPDATE locks (not memory
// tables).
func (n *lnode) lockTargets() []baseTable {
	out := n.baseTables(0, nil)
	return slices.DeleteFunc(out, func(t baseTable) bool { return IsMemTable(t.src.DB) })
}

// outPos is the position in a join's columns of its joined column src
// (they differ for USING / NATURAL joins; -1 when not there).
func (n *lnode) outPos(src int) int {
	if n.outMap == nil {
		return src
	}
	for o, s := range n.outMap {
		if s == src {
			return o
		}
	}
	return -1
}

// cteSource is the FROM item reading a CTE (its working rows inside its
// own recursive part).
func cteSource(e *cteEntry, alias string) *lnode {
	cols := make([]OutCol, len(e.def.cols))
	for i, c := range e.def.cols {
		c.Table = alias
		cols[i] = c
	}
	if e.working {
		return &lnode{plan: &CTEWork{Def: e.def, cols: cols}, cols: cols}
	}
	return &lnode{plan: &CTERead{Def: e.def, cols: cols}, cols: cols}
}

// onSubqueries collects the inner joins' ON conjuncts that have
// subqueries; under an outer join they would filter the preserved side
// too, which is not supported yet (1235).
func (n *lnode) onSubqueries(out []ast.ExprNode) ([]ast.ExprNode, error) {
	return n.collectOnSub(out, false)
}

func (n *lnode) collectOnSub(out []ast.ExprNode, underOuter bool) ([]ast.ExprNode, error) {
	if !n.isJoin() {
		return out, nil
	}
	if len(n.onSub) > 0 {
		if underOuter {
			return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "subqueries in ON under an outer join")
		}
		out = append(out, n.onSub...)
	}
	outer := underOuter || n.kind == LeftOuterJoin
	out, err := n.l.collectOnSub(out, outer)
	if err != nil {
		return nil, err
	}
	return n.r.collectOnSub(out, outer)
}

// hasSubquery reports whether e contains a subquery.
func hasSubquery(e ast.Node) bool {
	return anyNode(e, func(n ast.Node) bool {
		_, ok := n.(*ast.SubqueryExpr)
		return ok
	})
}

// anyNode reports whether match holds for n or a node under it.
func anyNode(n ast.Node, match func(ast.Node) bool) bool {
	v := &nodeFinder{match: match}
	n.Accept(v)
	return v.found
}

type nodeFinder struct {
	match func(ast.Node) bool
	found bool
}

func (v *nodeFinder) Enter(n ast.Node) (ast.Node, bool) {
	v.found = v.found || v.match(n)
	return n, v.found
}

func (v *nodeFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
