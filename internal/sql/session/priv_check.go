package session

// Privilege checks. execStmt (and ExecutePrepared) call checkPriv before
// running a statement: the session's account is matched again against the
// cached accounts (privilege.Store, refreshed at most once a second), so
// GRANT, REVOKE and DROP USER reach open sessions at their next statement.
// An account with every global privilege returns at once; otherwise the
// statement's AST is walked for the tables it names (qualified, or in the
// current database) and each is resolved across the global, database and
// table levels. UseDB checks the database itself (USE, COM_INIT_DB and the
// handshake's database).

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// privReq is one privilege a statement needs: on db.table, on db.* when
// table is empty, globally when db is empty too.
type privReq struct {
	db, table string
	priv      privilege.Priv
}

// checkPriv returns the access-denied error for the first privilege stmt
// needs that the session's account lacks, or nil. An account with every
// global privilege (root) skips the walk.
func (s *Session) checkPriv(ctx context.Context, stmt ast.StmtNode) error {
	return s.checkStmtFor(s.account(ctx), stmt)
}

// checkStmtFor is checkPriv for the account acc.
func (s *Session) checkStmtFor(acc *privilege.Account, stmt ast.StmtNode) error {
	if err := s.checkInfoSchemaWrite(stmt); err != nil {
		return err
	}
	if acc.Global.Has(privilege.GlobalPrivs | privilege.GrantPriv) {
		return nil
	}
	switch st := stmt.(type) {
	case *ast.KillStmt:
		return s.checkKill(acc, st)
	case *ast.AlterUserStmt:
		if s.altersOnlySelf(st) {
			return nil
		}
	case *ast.ShowStmt:
		if err := s.checkShow(acc, st); err != nil {
			return err
		}
	}
	reqs, err := s.stmtPrivs(stmt)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if isSystemDB(r.db) || acc.Verify(r.db, r.table, r.priv) {
			continue
		}
		return s.denied(r, acc)
	}
	return nil
}

// isSystemDB reports whether db is readable by everyone (its rows are
// filtered or describe only what one may see anyway).
func isSystemDB(db string) bool {
	return strings.EqualFold(db, "information_schema") || strings.EqualFold(db, "performance_schema")
}

// denied is MySQL's error for a missing privilege: 1227 for a global one,
// 1044 for a database, 1142 for a table.
func (s *Session) denied(r privReq, acc *privilege.Account) error {
	missing := r.priv &^ acc.At(r.db, r.table) &^ acc.At(r.db, "") &^ acc.Global
	if missing == 0 {
		missing = r.priv
	}
	name := missing.Names()[0]
	switch {
	case r.db == "":
		return sqlerr.New(sqlerr.ErrSpecificAccessDenied, name)
	case r.table == "":
		return sqlerr.New(sqlerr.ErrDBAccessDenied, s.conn.User, s.conn.Host, r.db)
	}
	if name == "GRANT OPTION" {
		name = "GRANT"
	}
	return sqlerr.New(sqlerr.ErrTableaccessDenied, name, s.conn.User, s.conn.Host, r.table)
}

// checkUse is the check of USE db, COM_INIT_DB and the handshake's
// database (UseDB calls it): some privilege on db or its tables (1044).
func (s *Session) checkUse(ctx context.Context, db string) error {
	acc := s.account(ctx)
	if acc.Global.Has(privilege.GlobalPrivs | privilege.GrantPriv) {
		return nil
	}
	return s.checkAnyOnDB(acc, db)
}

// checkAnyOnDB is USE db's check: some privilege on db or its tables.
func (s *Session) checkAnyOnDB(acc *privilege.Account, db string) error {
	if db == "" || isSystemDB(db) || acc.HasAnyOn(db) {
		return nil
	}
	return sqlerr.New(sqlerr.ErrDBAccessDenied, s.conn.User, s.conn.Host, db)
}

// checkKill: SUPER, or the connection belongs to the same user (1095).
// An unknown id is left to KILL itself (1094).
func (s *Session) checkKill(acc *privilege.Account, st *ast.KillStmt) error {
	if acc.Global.Has(privilege.SuperPriv) {
		return nil
	}
	s.d.mu.Lock()
	o, ok := s.d.sessions[uint32(st.ConnectionID)]
	s.d.mu.Unlock()
	if !ok || st.ConnectionID > uint64(^uint32(0)) || o.conn.User == s.conn.User {
		return nil
	}
	return sqlerr.New(sqlerr.ErrKillDenied, st.ConnectionID)
}

// checkShow covers the SHOW statements that reveal a database's contents.
func (s *Session) checkShow(acc *privilege.Account, st *ast.ShowStmt) error {
	switch st.Tp {
	case ast.ShowTables, ast.ShowTableStatus:
		db := st.DBName
		if db == "" {
			db = s.db
		}
		return s.checkAnyOnDB(acc, db)
	case ast.ShowCreateDatabase:
		return s.checkAnyOnDB(acc, st.DBName)
	}
	return nil
}

// stmtPrivs lists the privileges stmt needs.
func (s *Session) stmtPrivs(stmt ast.StmtNode) ([]privReq, error) {
	var reqs []privReq
	onTables := func(names []*ast.TableName, p privilege.Priv) {
		for _, t := range names {
			if db := s.tableDB(t); db != "" {
				reqs = append(reqs, privReq{db: db, table: t.Name.L, priv: p})
			}
		}
	}
	global := func(p privilege.Priv) { reqs = append(reqs, privReq{priv: p}) }
	switch st := stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		onTables(tablesIn(st), privilege.SelectPriv)
	case *ast.ExplainStmt:
		return s.stmtPrivs(st.Stmt)
	case *ast.InsertStmt:
		target := privilege.InsertPriv
		if st.IsReplace {
			target |= privilege.DeletePriv
		}
		if len(st.OnDuplicate) > 0 {
			target |= privilege.UpdatePriv
		}
		targets := tablesIn(st.Table)
		onTables(targets, target)
		onTables(otherTables(st, targets), privilege.SelectPriv)
	case *ast.UpdateStmt:
		targets := updateTargets(st)
		onTables(targets, privilege.UpdatePriv)
		onTables(otherTables(st, targets), privilege.SelectPriv)
	case *ast.DeleteStmt:
		targets := deleteTargets(st)
		onTables(targets, privilege.DeletePriv)
		// Not the whole statement: a multi-table DELETE's list names
		// aliases, not tables.
		var rest []*ast.TableName
		if st.TableRefs != nil {
			rest = tablesIn(st.TableRefs)
		}
		if st.Where != nil {
			rest = append(rest, tablesIn(st.Where)...)
		}
		if st.Order != nil {
			rest = append(rest, tablesIn(st.Order)...)
		}
		onTables(without(rest, targets), privilege.SelectPriv)
	case *ast.CreateDatabaseStmt:
		reqs = append(reqs, privReq{db: st.Name.L, priv: privilege.CreatePriv})
	case *ast.DropDatabaseStmt:
		reqs = append(reqs, privReq{db: st.Name.L, priv: privilege.DropPriv})
	case *ast.CreateTableStmt:
		onTables([]*ast.TableName{st.Table}, privilege.CreatePriv)
		if st.ReferTable != nil {
			onTables([]*ast.TableName{st.ReferTable}, privilege.SelectPriv)
		}
	case *ast.DropTableStmt:
		onTables(st.Tables, privilege.DropPriv)
	case *ast.TruncateTableStmt:
		onTables([]*ast.TableName{st.Table}, privilege.DropPriv)
	case *ast.RenameTableStmt:
		for _, tt := range st.TableToTables {
			onTables([]*ast.TableName{tt.OldTable}, privilege.AlterPriv|privilege.DropPriv)
			onTables([]*ast.TableName{tt.NewTable}, privilege.CreatePriv|privilege.InsertPriv)
		}
	case *ast.CreateIndexStmt:
		onTables([]*ast.TableName{st.Table}, privilege.IndexPriv)
	case *ast.DropIndexStmt:
		onTables([]*ast.TableName{st.Table}, privilege.IndexPriv)
	case *ast.AlterTableStmt:
		onTables([]*ast.TableName{st.Table}, privilege.AlterPriv)
	case *ast.CreateUserStmt, *ast.DropUserStmt, *ast.AlterUserStmt:
		global(privilege.CreateUserPriv)
	case *ast.SetPwdStmt:
		if st.User != nil && !st.User.CurrentUser && st.User.Username != s.conn.User {
			global(privilege.CreateUserPriv)
		}
	case *ast.FlushStmt:
		global(privilege.SuperPriv) // MySQL's RELOAD, which Strata folds into SUPER
	case *ast.GrantStmt:
		return s.grantPrivs(st.Level, st.Privs)
	case *ast.RevokeStmt:
		return s.grantPrivs(st.Level, st.Privs)
	case *ast.SetStmt:
		for _, v := range st.Variables {
			if v.IsSystem && v.IsGlobal {
				global(privilege.SuperPriv)
				break
			}
		}
	case *ast.ShowStmt:
		switch st.Tp {
		case ast.ShowColumns, ast.ShowCreateTable, ast.ShowIndex:
			if st.Table != nil {
				onTables([]*ast.TableName{st.Table}, privilege.SelectPriv)
			}
		case ast.ShowGrants:
			if st.User != nil && !st.User.CurrentUser && st.User.Username != s.conn.User {
				global(privilege.CreateUserPriv)
			}
		}
	}
	return reqs, nil
}

// grantPrivs is what GRANT and REVOKE need: GRANT OPTION at the level and
// every privilege they hand out (MySQL's rule: one grants only what one
// holds).
func (s *Session) grantPrivs(level *ast.GrantLevel, elems []*ast.PrivElem) ([]privReq, error) {
	db, table, err := s.grantLevel(level)
	if err != nil {
		return nil, err
	}
	p, err := privsOf(elems, db, table)
	if err != nil {
		return nil, err
	}
	return []privReq{{db: db, table: table, priv: p | privilege.GrantPriv}}, nil
}

// tableDB is the database a table name refers to: its qualifier or the
// current database ("" when neither: the statement fails with 1046).
func (s *Session) tableDB(t *ast.TableName) string {
	if t.Schema.L != "" {
		return t.Schema.L
	}
	return strings.ToLower(s.db)
}

// altersOnlySelf reports whether ALTER USER changes only the session's
// own account (which needs no privilege, as in MySQL).
func (s *Session) altersOnlySelf(st *ast.AlterUserStmt) bool {
	if st.CurrentAuth != nil {
		return true
	}
	for _, spec := range st.Specs {
		if !spec.User.CurrentUser && spec.User.Username != s.conn.User {
			return false
		}
	}
	return len(st.Specs) > 0
}
