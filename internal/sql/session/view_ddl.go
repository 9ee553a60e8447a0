package session

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// alterViewStmt is ALTER VIEW, which the parser does not know: it is
// parsed as the CREATE VIEW it resembles (reparseView), remembering which
// characteristics the statement gave (the others keep their values).
type alterViewStmt struct {
	*ast.CreateViewStmt
	algorithm, definer, security bool
}

var (
	alterViewRE = regexp.MustCompile(`(?is)^\s*ALTER(\s+ALGORITHM\s*=\s*\w+)?(\s+DEFINER\s*=\s*(?:\S+|'[^']*'@'[^']*'))?(\s+SQL\s+SECURITY\s+\w+)?\s+VIEW\s`)
	// checkOptionRE is MySQL's WITH CHECK OPTION without CASCADED or
	// LOCAL (CASCADED), which the parser refuses.
	checkOptionRE = regexp.MustCompile(`(?is)\sWITH\s+CHECK\s+OPTION\s*;?\s*$`)
	// hasCheckOptionRE tells a CREATE VIEW that gave a check option (the
	// parser's CheckOption is CASCADED either way).
	hasCheckOptionRE = regexp.MustCompile(`(?is)\sWITH\s+(CASCADED\s+|LOCAL\s+)?CHECK\s+OPTION\s*;?\s*$`)
)

// reparseView parses what the parser refused when it is an ALTER VIEW or
// a view with WITH CHECK OPTION; ok is false for anything else.
func reparseView(sql string) (ast.StmtNode, bool) {
	text := checkOptionRE.ReplaceAllString(sql, " WITH CASCADED CHECK OPTION")
	m := alterViewRE.FindStringSubmatchIndex(text)
	if m != nil {
		i := m[0] + strings.Index(strings.ToUpper(text[m[0]:]), "ALTER")
		text = text[:i] + "CREATE" + text[i+len("ALTER"):]
	}
	if text == sql {
		return nil, false
	}
	stmt, err := parser.New().ParseOneStmt(text, "", "")
	if err != nil {
		return nil, false
	}
	cv, ok := stmt.(*ast.CreateViewStmt)
	if !ok {
		return nil, false
	}
	if m == nil {
		return cv, true
	}
	return &alterViewStmt{CreateViewStmt: cv, algorithm: m[2] >= 0, definer: m[4] >= 0, security: m[6] >= 0}, true
}

// execCreateView runs CREATE [OR REPLACE] VIEW and ALTER VIEW (alter
// non-nil). The SELECT is planned now, as in MySQL, so that a view never
// names a missing table or column when it is created; the catalog stores
// its canonical text and its columns.
func (s *Session) execCreateView(ctx context.Context, st *ast.CreateViewStmt, alter *alterViewStmt) (server.Result, error) {
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	db := st.ViewName.Schema.O
	if db == "" {
		db = s.db
	}
	if db == "" {
		return nil, sqlerr.New(sqlerr.ErrNoDB)
	}
	if infoschema.IsDB(db) {
		return nil, sqlerr.New(sqlerr.ErrDBAccessDenied, s.conn.User, s.conn.Host, infoschema.DBName)
	}
	def := &catalog.ViewDef{DB: db, Name: st.ViewName.Name.O, Mode: catalog.ViewCreate}
	switch {
	case alter != nil:
		def.Mode = catalog.ViewAlter
	case st.OrReplace:
		def.Mode = catalog.ViewReplace
	}
	acc := s.account(ctx)
	if err := s.checkViewPrivs(ctx, acc, st, def); err != nil {
		return nil, err
	}
	if err := checkViewSelect(st.Select); err != nil {
		return nil, err
	}
	if err := s.checkViewUse(ctx, st.Select); err != nil {
		return nil, err
	}
	q := s.newQueryCtx(nil)
	p, err := planner.Build(q, st.Select)
	if err != nil {
		return nil, err
	}
	cols := visibleCols(p.Schema())
	v := &catalog.ViewInfo{
		Algorithm: (&st.Algorithm).String(),
		Security:  (&st.Security).String(),
	}
	if st.Definer == nil || st.Definer.CurrentUser {
		v.DefinerUser, v.DefinerHost = acc.User, acc.Host
	} else {
		v.DefinerUser, v.DefinerHost = st.Definer.Username, st.Definer.Hostname
	}
	if hasCheckOptionRE.MatchString(st.Text()) {
		v.CheckOption = (&st.CheckOption).String()
	}
	if alter != nil {
		s.keepViewParts(db, def.Name, alter, v)
	}
	v.CharsetClient, _ = s.vars.Get("character_set_client")
	v.CollationConnection, _ = s.vars.Get("collation_connection")
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
		if len(c.Name) > 64 || c.Name == "" {
			names[i] = "Name_exp_" + strconv.Itoa(i+1) // MySQL's name for a long expression
		}
	}
	if len(st.Cols) > 0 {
		if len(st.Cols) != len(cols) {
			return nil, sqlerr.Newf(mysql.ErrViewWrongList, "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts")
		}
		for i, c := range st.Cols {
			names[i] = c.O
			v.Cols = append(v.Cols, c.O)
		}
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[strings.ToLower(n)] {
			return nil, sqlerr.New(sqlerr.ErrDupFieldName, n)
		}
		seen[strings.ToLower(n)] = true
	}
	planBranch := func(sel *ast.SelectStmt) ([]planner.OutCol, error) {
		p, err := planner.Build(s.newQueryCtx(nil), sel)
		if err != nil {
			return nil, err
		}
		return visibleCols(p.Schema()), nil
	}
	if v.Select, v.Definition, err = viewTexts(st.Select, cols, db, s.db, planBranch); err != nil {
		return nil, err
	}
	for i, c := range cols {
		def.Columns = append(def.Columns, &catalog.ColumnInfo{Name: names[i], FieldType: *viewColumnType(c.Ft)})
	}
	def.View = v
	if err := s.d.catalog.CreateView(ctx, def); err != nil {
		return nil, err
	}
	return &okResult{}, nil
}

// visibleCols drops the hidden columns of a plan's schema.
func visibleCols(schema []planner.OutCol) []planner.OutCol {
	var out []planner.OutCol
	for _, c := range schema {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// keepViewParts gives v the characteristics ALTER VIEW left out from
// the view as it is (MySQL keeps them).
func (s *Session) keepViewParts(db, name string, alter *alterViewStmt, v *catalog.ViewInfo) {
	old, err := s.d.catalog.InfoSchema().View(db, name)
	if err != nil {
		return // CreateView reports it
	}
	if !alter.algorithm {
		v.Algorithm = old.View.Algorithm
	}
	if !alter.definer {
		v.DefinerUser, v.DefinerHost = old.View.DefinerUser, old.View.DefinerHost
	}
	if !alter.security {
		v.Security = old.View.Security
	}
}

// viewColumnType is a view column's type: the query's, without key,
// auto-increment or on-update flags (a view has none).
func viewColumnType(ft *types.FieldType) *types.FieldType {
	out := ft.Clone()
	out.Flag &^= mysql.PriKeyFlag | mysql.UniqueKeyFlag | mysql.MultipleKeyFlag | mysql.AutoIncrementFlag |
		mysql.OnUpdateNowFlag
	return out
}

// checkViewPrivs: CREATE on the view (Strata's privileges have no CREATE
// VIEW; CREATE stands for it), DROP too to replace one, SELECT on what
// the query reads, and SUPER to name another account as DEFINER.
func (s *Session) checkViewPrivs(ctx context.Context, acc *privilege.Account, st *ast.CreateViewStmt, def *catalog.ViewDef) error {
	if acc.Global.Has(privilege.GlobalPrivs | privilege.GrantPriv) {
		return nil
	}
	need := privilege.CreatePriv
	if def.Mode != catalog.ViewCreate {
		need |= privilege.DropPriv
	}
	r := privReq{db: strings.ToLower(def.DB), table: strings.ToLower(def.Name), priv: need}
	if !acc.Verify(r.db, r.table, r.priv) {
		return s.denied(r, acc)
	}
	if st.Definer != nil && !st.Definer.CurrentUser && !acc.Global.Has(privilege.SuperPriv) &&
		(st.Definer.Username != acc.User || !strings.EqualFold(st.Definer.Hostname, acc.Host)) {
		return sqlerr.New(sqlerr.ErrSpecificAccessDenied, "SUPER or SET_USER_ID")
	}
	return s.checkPriv(ctx, st.Select)
}

// checkViewSelect refuses what a view's query may not contain: variables
// and parameters (1351), SELECT ... INTO.
func checkViewSelect(sel ast.StmtNode) error {
	if st, ok := sel.(*ast.SelectStmt); ok && st.SelectIntoOpt != nil {
		return sqlerr.New(mysql.ErrViewSelectClause, "INTO")
	}
	if len(expr.ParamMarkers(sel)) > 0 {
		return sqlerr.New(mysql.ErrViewSelectVariable)
	}
	c := &variableFinder{}
	sel.Accept(c)
	if c.found {
		return sqlerr.New(mysql.ErrViewSelectVariable)
	}
	return nil
}

type variableFinder struct{ found bool }

func (f *variableFinder) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.VariableExpr); ok {
		f.found = true
	}
	return n, f.found
}

func (f *variableFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }
