package session

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
)

// tableCollector gathers the ast.TableName nodes under a node, except
// references to the statement's common table expressions.
type tableCollector struct {
	names []*ast.TableName
	ctes  map[string]bool
}

func (c *tableCollector) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.WithClause:
		for _, cte := range x.CTEs {
			if c.ctes == nil {
				c.ctes = map[string]bool{}
			}
			c.ctes[cte.Name.L] = true
		}
	case *ast.TableName:
		if x.Schema.L == "" && c.ctes[x.Name.L] {
			return n, true
		}
		c.names = append(c.names, x)
	}
	return n, false
}

func (c *tableCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// tablesIn returns the tables named under n (which must not be nil, nor
// a nil pointer in an interface).
func tablesIn(n ast.Node) []*ast.TableName {
	c := &tableCollector{}
	n.Accept(c)
	return c.names
}

// without returns the names of all that are not (the same node as) one
// of skip.
func without(all, skip []*ast.TableName) []*ast.TableName {
	var out []*ast.TableName
	for _, t := range all {
		found := false
		for _, k := range skip {
			if t == k {
				found = true
				break
			}
		}
		if !found {
			out = append(out, t)
		}
	}
	return out
}

// otherTables returns the tables under stmt that are not targets.
func otherTables(stmt ast.StmtNode, targets []*ast.TableName) []*ast.TableName {
	return without(tablesIn(stmt), targets)
}

// tableSources maps the names a statement's FROM clause binds (alias or
// table name) to their tables.
func tableSources(refs *ast.TableRefsClause) map[string]*ast.TableName {
	out := map[string]*ast.TableName{}
	if refs == nil {
		return out
	}
	var walk func(n ast.ResultSetNode)
	walk = func(n ast.ResultSetNode) {
		switch x := n.(type) {
		case *ast.Join:
			walk(x.Left)
			if x.Right != nil {
				walk(x.Right)
			}
		case *ast.TableSource:
			if t, ok := x.Source.(*ast.TableName); ok {
				if x.AsName.L != "" {
					out[x.AsName.L] = t
				} else {
					out[t.Name.L] = t
				}
			}
		}
	}
	if refs.TableRefs != nil {
		walk(refs.TableRefs)
	}
	return out
}

// updateTargets returns the tables an UPDATE writes: every table of a
// single-table UPDATE; in a multi-table one, those its assignments name
// (all of them when an assignment is unqualified).
func updateTargets(st *ast.UpdateStmt) []*ast.TableName {
	if st.TableRefs == nil {
		return nil
	}
	srcs := tableSources(st.TableRefs)
	if len(srcs) <= 1 {
		return tablesIn(st.TableRefs)
	}
	var out []*ast.TableName
	seen := map[*ast.TableName]bool{}
	for _, a := range st.List {
		t, ok := srcs[a.Column.Table.L]
		if a.Column.Table.L == "" || !ok {
			return tablesIn(st.TableRefs)
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// deleteTargets returns the tables a DELETE removes rows from: the one
// table, or in a multi-table DELETE the tables (or aliases) it lists.
func deleteTargets(st *ast.DeleteStmt) []*ast.TableName {
	if st.TableRefs == nil {
		return nil
	}
	if !st.IsMultiTable || st.Tables == nil {
		return tablesIn(st.TableRefs)
	}
	srcs := tableSources(st.TableRefs)
	var out []*ast.TableName
	for _, t := range st.Tables.Tables {
		if src, ok := srcs[t.Name.L]; ok {
			out = append(out, src)
		} else {
			out = append(out, t)
		}
	}
	return out
}

// writeTargets returns the tables an INSERT or REPLACE, UPDATE or DELETE
// writes, with the statement's kind ("INSERT", "REPLACE", "UPDATE",
// "DELETE"); kind is "" for other statements.
func writeTargets(stmt ast.StmtNode) (targets []*ast.TableName, kind string) {
	switch st := stmt.(type) {
	case *ast.InsertStmt:
		kind = "INSERT"
		if st.IsReplace {
			kind = "REPLACE"
		}
		if st.Table == nil {
			return nil, kind
		}
		return tablesIn(st.Table), kind
	case *ast.UpdateStmt:
		return updateTargets(st), "UPDATE"
	case *ast.DeleteStmt:
		return deleteTargets(st), "DELETE"
	}
	return nil, ""
}
