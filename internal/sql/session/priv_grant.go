package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/auth"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// privOfParser maps the parser's privilege types to ours.
var privOfParser = map[mysql.PrivilegeType]privilege.Priv{
	mysql.SelectPriv: privilege.SelectPriv, mysql.InsertPriv: privilege.InsertPriv,
	mysql.UpdatePriv: privilege.UpdatePriv, mysql.DeletePriv: privilege.DeletePriv,
	mysql.CreatePriv: privilege.CreatePriv, mysql.DropPriv: privilege.DropPriv,
	mysql.IndexPriv: privilege.IndexPriv, mysql.AlterPriv: privilege.AlterPriv,
	mysql.SuperPriv: privilege.SuperPriv, mysql.CreateUserPriv: privilege.CreateUserPriv,
	mysql.GrantPriv: privilege.GrantPriv, mysql.UsagePriv: privilege.UsagePriv,
}

// grantLevel resolves a GRANT/REVOKE level to (db, table) as
// privilege.Account.Grant takes them; an unqualified level needs a
// current database (1046).
func (s *Session) grantLevel(l *ast.GrantLevel) (db, table string, err error) {
	switch l.Level {
	case ast.GrantLevelGlobal:
		return "", "", nil
	case ast.GrantLevelDB:
		db = l.DBName
	default:
		db, table = l.DBName, l.TableName
	}
	if db == "" {
		db = s.db
	}
	if db == "" {
		return "", "", sqlerr.New(sqlerr.ErrNoDB)
	}
	return strings.ToLower(db), strings.ToLower(table), nil
}

// privsOf converts a privilege list for the level: ALL becomes the
// level's ALL; a privilege the level does not take is MySQL's 1221 (DB)
// or 1144 (table); column lists and other privileges are not supported.
func privsOf(elems []*ast.PrivElem, db, table string) (privilege.Priv, error) {
	var p privilege.Priv
	for _, e := range elems {
		if len(e.Cols) > 0 {
			return 0, sqlerr.New(sqlerr.ErrNotSupportedYet, "column privileges")
		}
		if e.Priv == mysql.AllPriv {
			p |= privilege.LevelPrivs(db, table)
			continue
		}
		q, ok := privOfParser[e.Priv]
		if !ok {
			return 0, sqlerr.New(sqlerr.ErrNotSupportedYet, "the privilege "+strings.ToUpper(e.Priv.String()))
		}
		if q&^(privilege.LevelPrivs(db, table)|privilege.GrantPriv) != 0 {
			if table != "" {
				return 0, sqlerr.New(mysql.ErrIllegalGrantForTable)
			}
			return 0, sqlerr.New(mysql.ErrWrongUsage, "DB GRANT", "GLOBAL PRIVILEGES")
		}
		p |= q
	}
	return p, nil
}

// userOf is the account a GRANT/REVOKE/DROP names: CURRENT_USER() is
// the session's own account; a missing host is '%'.
func (s *Session) userOf(ctx context.Context, u *auth.UserIdentity) (user, host string) {
	if u.CurrentUser {
		a := s.account(ctx)
		return a.User, a.Host
	}
	if u.Hostname == "" {
		return u.Username, "%"
	}
	return u.Username, u.Hostname
}

// execGrant runs GRANT privs ON level TO users [WITH GRANT OPTION]. Every
// account must exist (MySQL 8: 1410); the change is one transaction.
func (s *Session) execGrant(ctx context.Context, st *ast.GrantStmt) (server.Result, error) {
	return s.changeGrants(ctx, st.Level, st.Privs, st.Users, st.WithGrant, true)
}

// execRevoke runs REVOKE privs ON level FROM users.
func (s *Session) execRevoke(ctx context.Context, st *ast.RevokeStmt) (server.Result, error) {
	return s.changeGrants(ctx, st.Level, st.Privs, st.Users, false, false)
}

func (s *Session) changeGrants(ctx context.Context, level *ast.GrantLevel, elems []*ast.PrivElem,
	users []*ast.UserSpec, withGrant, grant bool) (server.Result, error) {
	db, table, err := s.grantLevel(level)
	if err != nil {
		return nil, err
	}
	if grant && table != "" && !s.d.catalog.InfoSchema().TableExists(db, table) {
		return nil, sqlerr.New(sqlerr.ErrNoSuchTable, db, table)
	}
	p, err := privsOf(elems, db, table)
	if err != nil {
		return nil, err
	}
	if withGrant {
		p |= privilege.GrantPriv
	}
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	err = s.d.privs.Update(ctx, func(accts *privilege.Accounts) error {
		for _, spec := range users {
			user, host := s.userOf(ctx, spec.User)
			acc := accts.Get(user, host)
			if acc == nil {
				if grant {
					return sqlerr.New(mysql.ErrCantCreateUserWithGrant)
				}
				return sqlerr.New(mysql.ErrNonexistingGrant, user, host)
			}
			if grant {
				acc.Grant(db, table, p)
			} else {
				acc.Revoke(db, table, p)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &okResult{}, nil
}

// execShowGrants runs SHOW GRANTS [FOR user]: MySQL 8's GRANT lines of
// the account (the session's own when no user is named).
func (s *Session) execShowGrants(ctx context.Context, st *ast.ShowStmt) (server.Result, error) {
	var acc *privilege.Account
	if st.User == nil || st.User.CurrentUser {
		acc = s.account(ctx)
	} else {
		user, host := s.userOf(ctx, st.User)
		if acc = s.d.privs.Snapshot().Account(user, host); acc == nil {
			return nil, sqlerr.New(mysql.ErrNonexistingGrant, user, host)
		}
	}
	lines := privilege.ShowGrants(acc)
	rows := make([][]string, len(lines))
	for i, l := range lines {
		rows[i] = []string{l}
	}
	res := stringsResult([]string{"Grants for " + acc.User + "@" + acc.Host}, rows)
	for _, c := range res.cols {
		c.Length = 1024
	}
	return res, nil
}

// execPrivStmt runs the account statements: CREATE / ALTER / DROP USER,
// GRANT, REVOKE, SET PASSWORD and FLUSH PRIVILEGES.
func (s *Session) execPrivStmt(ctx context.Context, stmt ast.StmtNode) (server.Result, error) {
	switch st := stmt.(type) {
	case *ast.CreateUserStmt:
		return s.execCreateUser(ctx, st)
	case *ast.AlterUserStmt:
		return s.execAlterUser(ctx, st)
	case *ast.DropUserStmt:
		return s.execDropUser(ctx, st)
	case *ast.GrantStmt:
		return s.execGrant(ctx, st)
	case *ast.RevokeStmt:
		return s.execRevoke(ctx, st)
	case *ast.SetPwdStmt:
		// SET PASSWORD [FOR user] = 'pw' is ALTER USER ... IDENTIFIED BY.
		user := st.User
		if user == nil {
			user = &auth.UserIdentity{CurrentUser: true}
		}
		return s.execAlterUser(ctx, &ast.AlterUserStmt{Specs: []*ast.UserSpec{{User: user,
			AuthOpt: &ast.AuthOption{ByAuthString: true, AuthString: st.Password}}}})
	case *ast.FlushStmt:
		if st.Tp == ast.FlushPrivileges {
			// Accounts are always current within the refresh interval;
			// FLUSH PRIVILEGES makes this server current now.
			return &okResult{}, s.d.privs.Refresh(ctx)
		}
	}
	return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "this statement ("+stmtName(stmt)+")")
}
