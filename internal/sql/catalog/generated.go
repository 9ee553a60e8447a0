package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Generated columns. Both kinds are computed when a row is written and
// stored in the row value: a STORED column as MySQL stores it, a VIRTUAL
// one too (MySQL computes it on read; storing it is Strata's choice).
// Reads therefore always see the values of the row as last written, and
// every write path (INSERT, UPDATE, ON DUPLICATE KEY UPDATE, REPLACE,
// FK cascades, ADD COLUMN's backfill) recomputes all generated columns
// from the row's other columns before writing. Indexes on generated
// columns, virtual or stored, are ordinary indexes over the stored value.

// IsGenerated reports whether c is a generated column.
func (c *ColumnInfo) IsGenerated() bool { return c.GeneratedExpr != "" }

// HasGenerated reports whether t (initialised) has generated columns.
func (t *TableInfo) HasGenerated() bool { return len(t.exprs.gen) > 0 }

// tableExprs caches the parsed expressions of a table's generated
// columns and CHECK constraints (filled by init, read-only after).
type tableExprs struct {
	gen    map[int64]ast.ExprNode // by column ID
	checks []ast.ExprNode         // parallel to TableInfo.Checks
}

// initExprs parses the stored expression texts.
func (t *TableInfo) initExprs() error {
	t.exprs = tableExprs{}
	for _, c := range t.Columns {
		if !c.IsGenerated() {
			continue
		}
		n, err := parseExprText(c.GeneratedExpr)
		if err != nil {
			return err
		}
		if t.exprs.gen == nil {
			t.exprs.gen = make(map[int64]ast.ExprNode)
		}
		t.exprs.gen[c.ID] = n
	}
	for _, ck := range t.Checks {
		n, err := parseExprText(ck.Expr)
		if err != nil {
			return err
		}
		t.exprs.checks = append(t.exprs.checks, n)
	}
	return nil
}

// exprScan collects what an expression of a generated column or CHECK
// constraint refers to.
type exprScan struct {
	cols     []string
	fn       string // first disallowed function, by MySQL's name
	other    bool   // a subquery, aggregate, window function, DEFAULT(), VALUES(), parameter
	variable bool   // a user or system variable
}

// disallowedFuncs maps the functions MySQL refuses in generated columns
// and CHECK constraints (non-deterministic or session-dependent) to the
// name its error message uses.
var disallowedFuncs = map[string]string{
	"now": "now", "current_timestamp": "now", "localtime": "now", "localtimestamp": "now",
	"sysdate": "sysdate", "curdate": "curdate", "current_date": "curdate", "curtime": "curtime",
	"current_time": "curtime", "utc_date": "utc_date", "utc_time": "utc_time",
	"utc_timestamp": "utc_timestamp", "rand": "rand", "uuid": "uuid", "uuid_short": "uuid_short",
	"connection_id": "connection_id", "current_user": "current_user", "user": "user",
	"session_user": "user", "system_user": "user", "database": "database", "schema": "database",
	"found_rows": "found_rows", "row_count": "row_count", "last_insert_id": "last_insert_id",
	"get_lock": "get_lock", "release_lock": "release_lock", "release_all_locks": "release_all_locks",
	"is_free_lock": "is_free_lock", "is_used_lock": "is_used_lock", "sleep": "sleep",
	"benchmark": "benchmark", "load_file": "load_file", "version": "version", "current_role": "current_role",
	"icu_version": "icu_version", "master_pos_wait": "master_pos_wait", "nextval": "nextval",
}

func (s *exprScan) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.ColumnNameExpr:
		s.cols = append(s.cols, x.Name.Name.O)
	case *ast.FuncCallExpr:
		if name, ok := disallowedFuncs[x.FnName.L]; ok && s.fn == "" {
			s.fn = name
		}
		if x.FnName.L == "unix_timestamp" && len(x.Args) == 0 && s.fn == "" {
			s.fn = "unix_timestamp"
		}
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.AggregateFuncExpr, *ast.WindowFuncExpr,
		*ast.DefaultExpr, *ast.ValuesExpr, ast.ParamMarkerExpr:
		s.other = true
	case *ast.VariableExpr:
		s.variable = true
	}
	return n, false
}

func (s *exprScan) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func scanExpr(n ast.ExprNode) *exprScan {
	s := &exprScan{}
	n.Accept(s)
	return s
}

// setGenerated records a generated column's expression (from its
// definition's GENERATED ALWAYS AS option).
func setGenerated(col *ColumnInfo, o *ast.ColumnOption) {
	col.GeneratedExpr = ExprText(o.Expr)
	col.GeneratedStored = o.Stored
}

// checkGenerated validates generated column col of t (complete, in its
// final column order) as MySQL does when the table is created or the
// column added: disallowed functions (3763, 3102), unknown columns
// (1054), references to later generated columns (3107) or to the
// AUTO_INCREMENT column (3109), and the expression must build.
func checkGenerated(t *TableInfo, col *ColumnInfo) error {
	n, err := parseExprText(col.GeneratedExpr)
	if err != nil {
		return err
	}
	if col.AutoIncrement || col.HasDefault {
		what := "DEFAULT"
		if col.AutoIncrement {
			what = "AUTO_INCREMENT"
		}
		return sqlerr.New(mysql.ErrWrongUsage, what, "generated column")
	}
	s := scanExpr(n)
	if s.fn != "" {
		return sqlerr.New(sqlerr.ErrGeneratedColumnNamedFunction, col.Name, s.fn)
	}
	if s.other || s.variable {
		return sqlerr.New(mysql.ErrGeneratedColumnFunctionIsNotAllowed, col.Name)
	}
	for _, name := range s.cols {
		ref := t.Column(name)
		if ref == nil || ref.Hidden {
			return sqlerr.New(mysql.ErrBadField, name, "generated column function")
		}
		if ref.IsGenerated() && ref.Offset >= col.Offset {
			return sqlerr.New(mysql.ErrGeneratedColumnNonPrior)
		}
		if ref.AutoIncrement {
			return sqlerr.New(mysql.ErrGeneratedColumnRefAutoInc, col.Name)
		}
	}
	_, err = expr.Build(nil, n, t.exprSchema())
	return err
}

// generatedDependents names a generated column of t that reads column
// name, or "".
func generatedDependents(t *TableInfo, name string) string {
	for _, c := range t.Columns {
		if c.IsGenerated() && !strings.EqualFold(c.Name, name) && exprReads(c.GeneratedExpr, name) {
			return c.Name
		}
	}
	return ""
}

// exprReads reports whether stored expression text reads column name.
func exprReads(text, name string) bool {
	n, err := parseExprText(text)
	if err != nil {
		return false
	}
	for _, ref := range scanExpr(n).cols {
		if strings.EqualFold(ref, name) {
			return true
		}
	}
	return false
}

// exprSchema resolves the names of t's columns to their offsets.
func (t *TableInfo) exprSchema() *expr.Columns {
	cols := make([]expr.SchemaColumn, len(t.Columns))
	for i, c := range t.Columns {
		cols[i] = expr.SchemaColumn{Table: t.Name, Name: c.Name, Ft: &c.FieldType}
		if c.Hidden {
			cols[i].Name = "\x00" + c.Name
		}
	}
	return &expr.Columns{Cols: cols, Clause: "generated column function"}
}

// GenColumn is a generated column with its expression compiled over rows
// of its table (column offsets).
type GenColumn struct {
	Col  *ColumnInfo
	Expr expr.Expression
}

// CompileGenerated builds the expressions of t's generated columns, in
// column order (the order they are computed in), for one statement.
func (t *TableInfo) CompileGenerated(ctx expr.BuildContext) ([]GenColumn, error) {
	var out []GenColumn
	schema := t.exprSchema()
	for _, c := range t.Columns {
		n, ok := t.exprs.gen[c.ID]
		if !ok {
			continue
		}
		e, err := expr.Build(ctx, n, schema)
		if err != nil {
			return nil, err
		}
		out = append(out, GenColumn{Col: c, Expr: e})
	}
	return out, nil
}

// RowChunk turns a row of datums into a chunk.Row over which the table's
// compiled expressions evaluate.
type RowChunk struct{ chk *chunk.Chunk }

// NewRowChunk returns a RowChunk for rows of t.
func (t *TableInfo) NewRowChunk() *RowChunk {
	fts := make([]*types.FieldType, len(t.Columns))
	for i, c := range t.Columns {
		fts[i] = &c.FieldType
	}
	return &RowChunk{chk: chunk.New(fts, 1)}
}

// Row loads row and returns it as a chunk.Row (valid until the next
// call).
func (r *RowChunk) Row(row []types.Datum) chunk.Row {
	r.chk.Reset()
	for i := range row {
		r.chk.AppendDatum(i, &row[i])
	}
	return r.chk.GetRow(0)
}

// FillGenerated computes row's generated columns in column order (a
// later one reads the new values of earlier ones), converting each value
// to its column with conv.
func FillGenerated(ctx expr.EvalContext, gens []GenColumn, rc *RowChunk, row []types.Datum,
	conv func(c *ColumnInfo, d types.Datum) (types.Datum, error)) error {
	for _, g := range gens {
		d, err := g.Expr.Eval(ctx, rc.Row(row))
		if err != nil {
			return err
		}
		v, err := conv(g.Col, d.Clone())
		if err != nil {
			return err
		}
		row[g.Col.Offset] = v.Clone()
	}
	return nil
}

// notExpr wraps n in NOT (a CHECK is violated when NOT expr is true).
func notExpr(n ast.ExprNode) ast.ExprNode {
	return &ast.UnaryOperationExpr{Op: opcode.Not, V: &ast.ParenthesesExpr{Expr: n}}
}
