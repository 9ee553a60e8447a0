package planner

import (
	"errors"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/statistics"
)

// A view in FROM is planned as a derived table named by the view (or its
// alias): its stored query (catalog.ViewInfo.Select) is parsed and
// planned afresh with the view's database current, and its columns take
// the view's names. A query that no longer plans because a table, column
// or function it names is gone is MySQL's 1356; a view reached again
// while it is being expanded is 1462.

// viewCtx is the planning context of a view's query.
type viewCtx struct {
	Context
	db     string
	name   string
	view   string // lower-case db.name
	parent *viewCtx
}

// CurrentDB is the view's database: its unqualified names are its own.
func (v *viewCtx) CurrentDB() string { return v.db }

// Stats passes the statement's statistics through (embedding Context
// hides its other methods).
func (v *viewCtx) Stats(tableID int64) *statistics.Table { return statsOf(v.Context, tableID) }

// maxViewDepth bounds views over views (MySQL has no fixed limit; this
// one only stops runaway nesting).
const maxViewDepth = 64

var viewParsers = sync.Pool{New: func() any { return parser.New() }}

// viewSource plans view t of database db, named alias in the query.
func (q *qbuilder) viewSource(db string, t *catalog.TableInfo, alias string) (*lnode, error) {
	key := strings.ToLower(db) + "." + strings.ToLower(t.Name)
	parent, _ := q.ctx.(*viewCtx)
	depth, recursive, top := 0, false, parent
	for c := parent; c != nil; c = c.parent {
		recursive = recursive || c.view == key || depth >= maxViewDepth
		top = c
		depth++
	}
	if recursive { // MySQL names the view the query read
		return nil, sqlerr.New(mysql.ErrViewRecursive, top.db, top.name)
	}
	p := viewParsers.Get().(*parser.Parser)
	defer viewParsers.Put(p)
	stmt, err := p.ParseOneStmt(t.View.Select, "", "")
	if err != nil {
		return nil, sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
	}
	rs, ok := stmt.(ast.ResultSetNode)
	if !ok {
		return nil, sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
	}
	vc := &viewCtx{Context: q.ctx, db: db, name: t.Name, view: key, parent: parent}
	if parent != nil {
		vc.Context = parent.Context
	}
	plan, err := (&qbuilder{ctx: vc}).resultSet(rs)
	if err != nil {
		return nil, viewError(db, t, err)
	}
	schema := plan.Schema()
	var cols []OutCol
	var exprs []expr.Expression
	for i, c := range schema {
		if c.Hidden {
			continue
		}
		if len(cols) == len(t.Columns) {
			return nil, sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
		}
		cols = append(cols, OutCol{DB: db, Table: alias, Name: t.Columns[len(cols)].Name, Ft: c.Ft})
		exprs = append(exprs, columnOf(schema, i))
	}
	if len(cols) != len(t.Columns) {
		return nil, sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
	}
	return &lnode{plan: &Projection{Child: plan, Exprs: exprs, Cols: cols}, cols: cols}, nil
}

// viewError turns the errors of a view's query that mean "something it
// names is gone or not accessible" into 1356; others pass.
func viewError(db string, t *catalog.TableInfo, err error) error {
	var e *sqlerr.Error
	if errors.As(err, &e) {
		switch e.Code {
		case mysql.ErrNoSuchTable, mysql.ErrBadField, mysql.ErrBadDB, mysql.ErrSpDoesNotExist,
			mysql.ErrTableaccessDenied, mysql.ErrColumnaccessDenied, mysql.ErrDBaccessDenied:
			return sqlerr.New(mysql.ErrViewInvalid, db, t.Name)
		}
	}
	return err
}
