package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CTEDef is a common table expression of a WITH clause. It is computed
// once per execution of the statement (materialized) and read by every
// CTERead of it. A recursive CTE runs Seed, then Recursive over the rows
// the previous iteration added (read through CTEWork) until an iteration
// adds none; with Distinct (UNION) rows already produced are not added
// again. Values are converted to the types of Seed's columns.
type CTEDef struct {
	Name      string
	Seed      Plan
	Recursive Plan
	Distinct  bool
	cols      []OutCol
}

// Schema returns the CTE's columns.
func (d *CTEDef) Schema() []OutCol { return d.cols }

// CTERead reads the rows of a CTE (a FROM item naming it).
type CTERead struct {
	Def  *CTEDef
	cols []OutCol
}

// Schema implements Plan.
func (p *CTERead) Schema() []OutCol { return p.cols }

// Children implements Plan: the definition is shown, not a child.
func (p *CTERead) Children() []Plan {
	out := []Plan{p.Def.Seed}
	if p.Def.Recursive != nil {
		out = append(out, p.Def.Recursive)
	}
	return out
}

func (p *CTERead) explainInfo() (name, obj, info string) {
	if p.Def.Recursive != nil {
		info = "recursive"
	}
	return "CTEFullScan", "CTE:" + p.Def.Name, info
}

// CTEWork reads, inside a recursive CTE's recursive part, the rows the
// previous iteration added.
type CTEWork struct {
	Def  *CTEDef
	cols []OutCol
}

// Schema implements Plan.
func (p *CTEWork) Schema() []OutCol { return p.cols }

// Children implements Plan.
func (p *CTEWork) Children() []Plan { return nil }

func (p *CTEWork) explainInfo() (name, obj, info string) {
	return "CTETable", "CTE:" + p.Def.Name, "working rows"
}

// cteScope is the CTEs a query level sees: its own WITH and the
// enclosing levels'.
type cteScope struct {
	defs   map[string]*cteEntry
	parent *cteScope
}

type cteEntry struct {
	def     *CTEDef
	working bool // while its recursive part is planned: reads are CTEWork
	pending bool // while its own definition is planned (not recursive): invisible
}

func (s *cteScope) lookup(name string) *cteEntry {
	for ; s != nil; s = s.parent {
		if e, ok := s.defs[strings.ToLower(name)]; ok && !e.pending {
			return e
		}
	}
	return nil
}

// child returns a builder for a nested query (a subquery, a derived
// table) with outer as its enclosing scope, seeing the same CTEs.
func (q *qbuilder) child(outer *scope) *qbuilder {
	return &qbuilder{ctx: q.ctx, outer: outer, ctes: q.ctes, hints: q.hints}
}

// with plans a WITH clause: each CTE in order (later ones may read
// earlier ones; a recursive one may read itself).
func (q *qbuilder) with(w *ast.WithClause) error {
	q.ctes = &cteScope{defs: map[string]*cteEntry{}, parent: q.ctes}
	for _, c := range w.CTEs {
		name := c.Name.L
		if _, dup := q.ctes.defs[name]; dup {
			return sqlerr.New(mysql.ErrNonuniqTable, c.Name.O)
		}
		def := &CTEDef{Name: c.Name.O}
		e := &cteEntry{def: def, pending: true}
		q.ctes.defs[name] = e
		recursive := w.IsRecursive && readsTable(c.Query.Query, name)
		var err error
		if recursive {
			err = q.recursiveCTE(c, e)
		} else {
			def.Seed, err = q.child(nil).resultSet(c.Query.Query)
			if err == nil {
				err = def.setCols(c)
			}
		}
		if err != nil {
			return err
		}
		e.pending, e.working = false, false
	}
	return nil
}

// setCols names the CTE's columns: the column list, else the seed's.
func (d *CTEDef) setCols(c *ast.CommonTableExpression) error {
	cols, err := nameColumns(visible(d.Seed.Schema()), c.ColNameList, d.Name)
	d.cols = cols
	return err
}

// recursiveCTE plans `seed UNION [ALL] recursive` blocks.
func (q *qbuilder) recursiveCTE(c *ast.CommonTableExpression, e *cteEntry) error {
	name := c.Name.L
	so, ok := c.Query.Query.(*ast.SetOprStmt)
	if !ok {
		return sqlerr.New(sqlerr.ErrCTERecursiveRequiresUnion, c.Name.O)
	}
	var seed, rec []ast.Node
	distinct := false
	for _, sel := range so.SelectList.Selects {
		if readsTable(sel.(ast.ResultSetNode), name) {
			if len(seed) == 0 {
				return sqlerr.New(sqlerr.ErrCTERecursiveRequiresNonRecursiveFirst, c.Name.O)
			}
			if s, ok := sel.(*ast.SelectStmt); ok {
				if len(rec) == 0 && s.AfterSetOperator != nil {
					distinct = *s.AfterSetOperator == ast.Union
				}
				if aggs, wins := collectFuncs(s); s.GroupBy != nil || len(aggs) > 0 || s.Distinct || len(wins) > 0 {
					return sqlerr.New(sqlerr.ErrCTERecursiveForbidsAggregation, c.Name.O)
				}
				if err := checkRecursiveRefs(s, name, c.Name.O); err != nil {
					return err
				}
			}
			rec = append(rec, sel)
			continue
		}
		if len(rec) > 0 {
			return sqlerr.New(sqlerr.ErrCTERecursiveRequiresNonRecursiveFirst, c.Name.O)
		}
		seed = append(seed, sel)
	}
	if so.OrderBy != nil || so.Limit != nil {
		return sqlerr.New(sqlerr.ErrNotSupportedYet, "ORDER BY / LIMIT over a recursive CTE's union")
	}
	def := e.def
	var err error
	if def.Seed, err = q.child(nil).blocks(seed); err != nil {
		return err
	}
	if err := def.setCols(c); err != nil {
		return err
	}
	e.pending, e.working = false, true
	if def.Recursive, err = q.child(nil).blocks(rec); err != nil {
		return err
	}
	if len(visible(def.Recursive.Schema())) != len(def.cols) {
		return sqlerr.New(mysql.ErrWrongNumberOfColumnsInSelect)
	}
	def.Distinct = distinct
	return nil
}

// blocks plans query blocks joined by UNION ALL (the operator before
// the first block is ignored).
func (q *qbuilder) blocks(sels []ast.Node) (Plan, error) {
	if len(sels) == 1 {
		return q.resultSet(sels[0].(ast.ResultSetNode))
	}
	list := &ast.SetOprSelectList{Selects: sels}
	return q.setOpr(&ast.SetOprStmt{SelectList: list})
}

// readsTable reports whether n names table (unqualified) anywhere.
func readsTable(n ast.Node, table string) bool {
	return anyNode(n, func(n ast.Node) bool {
		t, ok := n.(*ast.TableName)
		return ok && t.Schema.L == "" && t.Name.L == table
	})
}

// checkRecursiveRefs enforces MySQL's rules on a recursive block: the
// recursive table is read once, in its FROM (not in a subquery: 3577),
// and not on the inner side of an outer join (3576).
func checkRecursiveRefs(s *ast.SelectStmt, name, display string) error {
	v := &refCounter{name: name}
	s.Accept(v)
	if v.inSub > 0 || v.top != 1 {
		return sqlerr.New(sqlerr.ErrCTERecursiveRequiresSingleReference, display)
	}
	if s.From != nil && innerSideReads(s.From.TableRefs, name, false) {
		return sqlerr.New(sqlerr.ErrCTERecursiveForbiddenJoinOrder, display)
	}
	return nil
}

// refCounter counts unqualified references to a table, outside and
// inside subqueries.
type refCounter struct {
	name       string
	depth      int
	top, inSub int
}

func (v *refCounter) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.SubqueryExpr:
		v.depth++
	case *ast.TableName:
		if x.Schema.L == "" && x.Name.L == v.name {
			if v.depth > 0 {
				v.inSub++
			} else {
				v.top++
			}
		}
	}
	return n, false
}

func (v *refCounter) Leave(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.SubqueryExpr); ok {
		v.depth--
	}
	return n, true
}

// innerSideReads reports whether name is read on the null-supplying
// side of an outer join in the FROM tree n.
func innerSideReads(n ast.ResultSetNode, name string, inner bool) bool {
	switch x := n.(type) {
	case *ast.Join:
		if x.Right == nil {
			return innerSideReads(x.Left, name, inner)
		}
		return innerSideReads(x.Left, name, inner || x.Tp == ast.RightJoin) ||
			innerSideReads(x.Right, name, inner || x.Tp == ast.LeftJoin)
	case *ast.TableSource:
		if t, ok := x.Source.(*ast.TableName); ok {
			return inner && t.Schema.L == "" && t.Name.L == name
		}
		if j, ok := x.Source.(*ast.Join); ok {
			return innerSideReads(j, name, inner)
		}
	}
	return false
}
