package session

// The session side of information_schema: the statement's queryCtx is
// the executors' MemTables hook, answering with rows built from the
// statement's schema snapshot, the session's account and the Domain's
// sessions.

import (
	"context"
	"sort"
	"strings"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Rows implements exec.MemTables: the rows of an information_schema
// table as the session's user may see them.
func (q *queryCtx) Rows(ctx context.Context, db, table string) ([][]types.Datum, error) {
	if !infoschema.IsDB(db) {
		return nil, sqlerr.New(sqlerr.ErrNoSuchTable, db, table)
	}
	return infoschema.Rows(q.s.infoSource(ctx, q.is), table)
}

// infoSource is what information_schema's rows are built from.
func (s *Session) infoSource(ctx context.Context, is *catalog.InfoSchema) *infoschema.Source {
	acc := s.account(ctx)
	src := &infoschema.Source{Schema: is, Account: acc, Accounts: []*privilege.Account{acc}}
	// MySQL shows every account's grants to those who may read the grant
	// tables (SELECT on mysql.*, which Strata folds into global SELECT).
	if acc.Global.Has(privilege.SelectPriv) {
		src.Accounts = s.d.privs.Snapshot().Accounts()
	}
	// PROCESSLIST: every session for an account with SUPER (MySQL's
	// PROCESS), else the user's own.
	src.Processes = s.d.processes(func(o *Session) bool {
		return acc.Global.Has(privilege.SuperPriv) || o.conn.User == s.conn.User
	})
	src.Charsets, src.Collations = knownCharsets()
	src.TableRows = s.d.tableRows
	return src
}

// charsetDescriptions are MySQL 8's descriptions where the parser's
// differ.
var charsetDescriptions = map[string]string{
	"latin1": "cp1252 West European", "binary": "Binary pseudo charset", "gbk": "GBK Simplified Chinese",
}

var (
	charsetsOnce sync.Once
	charsetList  []infoschema.CharsetInfo
	collList     []infoschema.CollationInfo
)

// knownCharsets are the character sets and collations Strata accepts
// (sysvar's lists), described from the parser's tables; utf8 and utf8mb3
// are one charset.
func knownCharsets() ([]infoschema.CharsetInfo, []infoschema.CollationInfo) {
	charsetsOnce.Do(func() {
		for name, def := range sysvar.Charsets {
			if name == "utf8mb3" {
				continue
			}
			cs, err := charset.GetCharsetInfo(name)
			if err != nil {
				continue
			}
			desc := charsetDescriptions[name]
			if desc == "" {
				desc = cs.Desc
			}
			charsetList = append(charsetList, infoschema.CharsetInfo{Name: name, DefaultCollation: def,
				Description: desc, MaxLen: cs.Maxlen})
		}
		sort.Slice(charsetList, func(i, j int) bool {
			return catalog.DisplayCharset(charsetList[i].Name) < catalog.DisplayCharset(charsetList[j].Name)
		})
		for id, name := range mysql.Collations {
			cs, ok := sysvar.CollationCharset(name)
			if !ok || cs == "utf8mb3" {
				continue
			}
			c, err := charset.GetCollationByName(name)
			if err != nil {
				continue
			}
			collList = append(collList, infoschema.CollationInfo{Name: name, Charset: cs, ID: int(id),
				Default: sysvar.Charsets[cs] == name, Sortlen: c.Sortlen,
				PadSpace: c.PadAttribute == charset.PadSpace && !strings.Contains(name, "_0900_")})
		}
		sort.Slice(collList, func(i, j int) bool {
			return catalog.DisplayCollation(collList[i].Name) < catalog.DisplayCollation(collList[j].Name)
		})
	})
	return charsetList, collList
}

// checkInfoSchemaWrite refuses statements that write to or define
// objects in information_schema, as MySQL does for everyone, root
// included: 1044 access denied to the database.
func (s *Session) checkInfoSchemaWrite(stmt ast.StmtNode) error {
	var targets []*ast.TableName
	switch st := stmt.(type) {
	case *ast.InsertStmt, *ast.UpdateStmt, *ast.DeleteStmt:
		// Every statement's check: the targets only when some name of
		// the clauses they come from is information_schema's.
		if !s.namesInfoSchema(writeClauses(st)...) {
			return nil
		}
		targets, _ = writeTargets(st)
	case *ast.CreateTableStmt:
		targets = []*ast.TableName{st.Table}
	case *ast.DropTableStmt:
		targets = st.Tables
	case *ast.TruncateTableStmt:
		targets = []*ast.TableName{st.Table}
	case *ast.AlterTableStmt:
		targets = []*ast.TableName{st.Table}
	case *ast.CreateIndexStmt:
		targets = []*ast.TableName{st.Table}
	case *ast.DropIndexStmt:
		targets = []*ast.TableName{st.Table}
	case *ast.RenameTableStmt:
		for _, tt := range st.TableToTables {
			targets = append(targets, tt.OldTable, tt.NewTable)
		}
	case *ast.CreateDatabaseStmt:
		return s.denyInfoSchema(st.Name.O)
	case *ast.DropDatabaseStmt:
		return s.denyInfoSchema(st.Name.O)
	default:
		return nil
	}
	for _, t := range targets {
		if err := s.denyInfoSchema(s.tableDB(t)); err != nil {
			return err
		}
	}
	return nil
}

// writeClauses are the parts of a DML statement that name its targets
// (writeTargets picks them from these).
func writeClauses(stmt ast.StmtNode) []ast.Node {
	switch st := stmt.(type) {
	case *ast.InsertStmt:
		if st.Table != nil {
			return []ast.Node{st.Table}
		}
	case *ast.UpdateStmt:
		if st.TableRefs != nil {
			return []ast.Node{st.TableRefs}
		}
	case *ast.DeleteStmt:
		switch {
		case st.TableRefs == nil:
		case st.Tables == nil:
			return []ast.Node{st.TableRefs}
		default: // a multi-table DELETE's list
			return []ast.Node{st.TableRefs, st.Tables}
		}
	}
	return nil
}

// namesInfoSchema reports whether a table name under the nodes is in
// information_schema (unqualified ones are in the current database).
func (s *Session) namesInfoSchema(nodes ...ast.Node) bool {
	curIS := infoschema.IsDB(s.db)
	for _, n := range nodes {
		if tn := singleTable(n); tn != nil { // the common case, without a walk
			if inInfoSchema(tn, curIS) {
				return true
			}
			continue
		}
		f := &infoSchemaFinder{curIS: curIS}
		if n.Accept(f); f.found {
			return true
		}
	}
	return false
}

// inInfoSchema reports whether tn names a table of information_schema
// (curIS: the current database is).
func inInfoSchema(tn *ast.TableName, curIS bool) bool {
	return (tn.Schema.L == "" && curIS) || infoschema.IsDB(tn.Schema.L)
}

// singleTable returns the table of a FROM clause that is one table, or
// nil.
func singleTable(n ast.Node) *ast.TableName {
	refs, ok := n.(*ast.TableRefsClause)
	if !ok || refs.TableRefs == nil || refs.TableRefs.Right != nil {
		return nil
	}
	if ts, ok := refs.TableRefs.Left.(*ast.TableSource); ok {
		tn, _ := ts.Source.(*ast.TableName)
		return tn
	}
	return nil
}

type infoSchemaFinder struct{ curIS, found bool }

func (f *infoSchemaFinder) Enter(n ast.Node) (ast.Node, bool) {
	if tn, ok := n.(*ast.TableName); ok && inInfoSchema(tn, f.curIS) {
		f.found = true
	}
	return n, f.found
}

func (f *infoSchemaFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

func (s *Session) denyInfoSchema(db string) error {
	if infoschema.IsDB(db) {
		return sqlerr.New(sqlerr.ErrDBAccessDenied, s.conn.User, s.conn.Host, infoschema.DBName)
	}
	return nil
}
