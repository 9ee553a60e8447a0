package session

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/planner"
)

// A view's query is stored as text in a canonical form close to MySQL's
// (lower-case keywords, back-quoted names, every select field named with
// AS, the wildcards of the outermost SELECT expanded to the columns they
// named when the view was defined, so that a column added to a table
// later does not change the view). It is kept twice: with the tables of
// the view's own database unqualified (the query as planned and as SHOW
// CREATE VIEW prints it there), and with every table qualified (as
// information_schema.VIEWS shows it).

// viewFieldsMarker stands for the select list while the rest of a SELECT
// is restored, so that the list can be written as MySQL does ("AS"
// upper-case) around the parser's lower-case keywords.
const viewFieldsMarker = "__strata_view_fields_"

const viewRestoreFlags = format.RestoreStringSingleQuotes | format.RestoreKeyWordLowercase |
	format.RestoreNameBackQuotes | format.RestoreStringWithoutCharset

// viewTexts rewrites sel (already planned: cols are its visible output
// columns) and returns its text for the view's database viewDB, and its
// fully qualified text. Unqualified table names in sel are those of
// curDB, the database current at definition. The branches of a set
// operation are named each by its own columns, which plan gives.
func viewTexts(sel ast.StmtNode, cols []planner.OutCol, viewDB, curDB string,
	plan func(*ast.SelectStmt) ([]planner.OutCol, error)) (compact, qualified string, err error) {
	var branches []*ast.SelectStmt
	var generated []generatedRef
	switch st := sel.(type) {
	case *ast.SelectStmt:
		branches = []*ast.SelectStmt{st}
		generated = nameFields(st, cols)
	case *ast.SetOprStmt:
		if st.SelectList != nil {
			branches = setOprBranches(st.SelectList, nil)
		}
		for _, b := range branches {
			bcols, err := plan(b)
			if err != nil {
				return "", "", err
			}
			generated = append(generated, nameFields(b, bcols)...)
		}
	}
	tables := tablesIn(sel)
	for _, tn := range tables {
		if tn.Schema.O == "" {
			tn.Schema = ast.NewCIStr(curDB)
		}
	}
	aliases := fromAliases(sel)
	restore := func(qualify bool) (string, error) {
		for _, tn := range tables {
			if strings.EqualFold(tn.Schema.O, viewDB) && !qualify {
				tn.Schema = ast.NewCIStr("")
			} else if tn.Schema.O == "" {
				tn.Schema = ast.NewCIStr(viewDB)
			}
		}
		for _, g := range generated {
			g.ref.Schema = ast.NewCIStr("")
			if qualify && g.db != "" && !aliases[strings.ToLower(g.ref.Table.O)] {
				g.ref.Schema = ast.NewCIStr(g.db)
			}
		}
		return restoreView(sel, branches)
	}
	if compact, err = restore(false); err != nil {
		return "", "", err
	}
	qualified, err = restore(true)
	return compact, qualified, err
}

// generatedRef is a column reference viewTexts wrote for a wildcard or an
// unqualified column, with the database of its table ("" for a derived
// table's).
type generatedRef struct {
	ref *ast.ColumnName
	db  string
}

// nameFields expands the wildcards of st's select list to the columns
// they stand for, qualifies plain column references by their table and
// names every field (AS): cols are st's visible output columns. A list
// whose wildcards cannot be matched to cols is left as written.
func nameFields(st *ast.SelectStmt, cols []planner.OutCol) []generatedRef {
	if st.Fields == nil {
		return nil
	}
	fields := st.Fields.Fields
	// How many columns each field stands for.
	counts := make([]int, len(fields))
	rest, bare := len(cols), -1
	for i, f := range fields {
		switch {
		case f.WildCard == nil:
			counts[i] = 1
		case f.WildCard.Table.O == "":
			if bare >= 0 {
				return nil
			}
			bare = i
			continue
		default:
			n := 0
			for _, c := range cols {
				if strings.EqualFold(c.Table, f.WildCard.Table.O) {
					n++
				}
			}
			counts[i] = n
		}
		rest -= counts[i]
	}
	if bare >= 0 {
		if rest < 0 {
			return nil
		}
		counts[bare] = rest
	} else if rest != 0 {
		return nil
	}
	var out []*ast.SelectField
	var gen []generatedRef
	k := 0
	for i, f := range fields {
		if f.WildCard == nil {
			c := cols[k]
			if ref, ok := f.Expr.(*ast.ColumnNameExpr); ok && ref.Name.Table.O == "" && c.Table != "" {
				ref.Name.Table = ast.NewCIStr(c.Table)
				gen = append(gen, generatedRef{ref: ref.Name, db: c.DB})
			}
			if f.AsName.O == "" {
				f.AsName = ast.NewCIStr(c.Name)
			}
			out = append(out, f)
			k++
			continue
		}
		for j := 0; j < counts[i]; j++ {
			c := cols[k]
			ref := &ast.ColumnName{Table: ast.NewCIStr(c.Table), Name: ast.NewCIStr(c.Name)}
			gen = append(gen, generatedRef{ref: ref, db: c.DB})
			out = append(out, &ast.SelectField{Expr: &ast.ColumnNameExpr{Name: ref}, AsName: ast.NewCIStr(c.Name)})
			k++
		}
	}
	st.Fields.Fields = out
	return gen
}

// fromAliases returns the lower-case aliases of the tables in sel's FROM
// clauses (names that are not tables and take no database).
func fromAliases(sel ast.Node) map[string]bool {
	c := &aliasCollector{names: map[string]bool{}}
	sel.Accept(c)
	return c.names
}

type aliasCollector struct{ names map[string]bool }

func (c *aliasCollector) Enter(n ast.Node) (ast.Node, bool) {
	if ts, ok := n.(*ast.TableSource); ok && ts.AsName.L != "" {
		c.names[ts.AsName.L] = true
	}
	return n, false
}

func (c *aliasCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// setOprBranches appends the SELECTs of a set operation's list, nested
// lists included, to out.
func setOprBranches(l *ast.SetOprSelectList, out []*ast.SelectStmt) []*ast.SelectStmt {
	for _, n := range l.Selects {
		switch x := n.(type) {
		case *ast.SelectStmt:
			out = append(out, x)
		case *ast.SetOprSelectList:
			out = setOprBranches(x, out)
		}
	}
	return out
}

// restoreView prints sel, the select lists of branches (sel itself, or
// the SELECTs of a set operation) as "expr AS `name`,...".
func restoreView(sel ast.StmtNode, branches []*ast.SelectStmt) (string, error) {
	lists := make([]string, len(branches))
	saved := make([][]*ast.SelectField, len(branches))
	defer func() {
		for i, b := range branches {
			if saved[i] != nil {
				b.Fields.Fields = saved[i]
			}
		}
	}()
	for i, b := range branches {
		if b.Fields == nil {
			continue
		}
		list, err := restoreFields(b.Fields.Fields)
		if err != nil {
			return "", err
		}
		lists[i], saved[i] = list, b.Fields.Fields
		marker := &ast.ColumnName{Name: ast.NewCIStr(viewFieldsMarker + strconv.Itoa(i))}
		b.Fields.Fields = []*ast.SelectField{{Expr: &ast.ColumnNameExpr{Name: marker}}}
	}
	text, err := restoreNode(sel)
	if err != nil {
		return "", err
	}
	for i := range branches {
		if saved[i] != nil {
			text = strings.Replace(text, catalog.QuoteIdent(viewFieldsMarker+strconv.Itoa(i)), lists[i], 1)
		}
	}
	return text, nil
}

// restoreFields prints a select list as MySQL does: "expr AS `name`,...".
func restoreFields(fields []*ast.SelectField) (string, error) {
	var list strings.Builder
	for i, f := range fields {
		if i > 0 {
			list.WriteString(",")
		}
		if f.WildCard != nil || f.Expr == nil {
			s, err := restoreNode(f)
			if err != nil {
				return "", err
			}
			list.WriteString(s)
			continue
		}
		s, err := restoreNode(f.Expr)
		if err != nil {
			return "", err
		}
		list.WriteString(s)
		if f.AsName.O != "" {
			list.WriteString(" AS " + catalog.QuoteIdent(f.AsName.O))
		}
	}
	return list.String(), nil
}

func restoreNode(n ast.Node) (string, error) {
	var b strings.Builder
	if err := n.Restore(format.NewRestoreCtx(viewRestoreFlags, &b)); err != nil {
		return "", err
	}
	return b.String(), nil
}
