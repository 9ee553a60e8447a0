package session

import (
	"context"
	"encoding/hex"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/auth"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// defaultAuthPlugin is the plugin of an account created without WITH.
const defaultAuthPlugin = privilege.PluginNativePassword

// setAuth applies IDENTIFIED [WITH plugin] [BY 'pw' | AS 'hash'] to acc.
// A nil option leaves acc as is (a new account: empty password).
func setAuth(acc *privilege.Account, opt *ast.AuthOption) error {
	if opt == nil {
		return nil
	}
	plugin := strings.ToLower(opt.AuthPlugin)
	switch plugin {
	case "":
		if acc.Plugin == "" {
			acc.Plugin = defaultAuthPlugin
		}
	case privilege.PluginNativePassword, privilege.PluginCachingSHA2Password:
		acc.Plugin = plugin
	default:
		return sqlerr.New(mysql.ErrPluginIsNotLoaded, opt.AuthPlugin)
	}
	switch {
	case opt.ByAuthString:
		acc.NativeHash = server.NativePasswordHash(opt.AuthString)
		acc.SHA2Hash = server.SHA2PasswordHash(opt.AuthString)
	case opt.ByHashString:
		// Only mysql_native_password's "*HEX" form is understood; the
		// account then cannot use caching_sha2_password's fast path.
		h, err := hex.DecodeString(strings.TrimPrefix(opt.HashString, "*"))
		if acc.Plugin != privilege.PluginNativePassword || err != nil || (len(h) != 20 && len(h) != 0) {
			return sqlerr.New(sqlerr.ErrNotSupportedYet, "IDENTIFIED AS with this hash")
		}
		acc.NativeHash, acc.SHA2Hash = h, nil
	}
	return nil
}

// failedFor is 1396's list of accounts: 'u'@'h','v'@'%'.
func failedFor(names []string) string { return strings.Join(names, ",") }

// changeUsers runs one CREATE / ALTER / DROP USER over users, all or
// nothing: change applies the statement to one account and reports
// whether it applied (false: the account exists for CREATE, is missing
// for ALTER and DROP). Accounts it did not apply to fail the statement
// with 1396 naming them all, or, when tolerate (IF [NOT] EXISTS), become
// notes with noteCode.
func (s *Session) changeUsers(ctx context.Context, op string, users []*auth.UserIdentity, tolerate bool, noteCode uint16,
	change func(accts *privilege.Accounts, i int, user, host string) (applied bool, err error)) (server.Result, error) {
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	var warns []error
	err := s.d.privs.Update(ctx, func(accts *privilege.Accounts) error {
		warns = warns[:0]
		var failed []string
		for i, u := range users {
			user, host := s.userOf(ctx, u)
			applied, err := change(accts, i, user, host)
			if err != nil {
				return err
			}
			if applied {
				continue
			}
			name := "'" + user + "'@'" + host + "'"
			if tolerate {
				if noteCode == sqlerr.ErrCannotUser {
					warns = append(warns, sqlerr.New(noteCode, op, name))
				} else {
					warns = append(warns, sqlerr.New(noteCode, name))
				}
				continue
			}
			failed = append(failed, name)
		}
		if len(failed) > 0 {
			return sqlerr.New(sqlerr.ErrCannotUser, op, failedFor(failed))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.warnings = append(s.warnings, warns...)
	return &okResult{}, nil
}

// execCreateUser runs CREATE USER [IF NOT EXISTS] (1396 names every
// account that exists; with IF NOT EXISTS they are notes).
func (s *Session) execCreateUser(ctx context.Context, st *ast.CreateUserStmt) (server.Result, error) {
	if st.IsCreateRole {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "roles")
	}
	users := make([]*auth.UserIdentity, len(st.Specs))
	for i, spec := range st.Specs {
		users[i] = spec.User
	}
	return s.changeUsers(ctx, "CREATE USER", users, st.IfNotExists, mysql.ErrUserAlreadyExists,
		func(accts *privilege.Accounts, i int, user, host string) (bool, error) {
			if accts.Get(user, host) != nil {
				return false, nil
			}
			acc := &privilege.Account{User: user, Host: host, Plugin: defaultAuthPlugin}
			if err := setAuth(acc, st.Specs[i].AuthOpt); err != nil {
				return false, err
			}
			accts.Put(acc)
			return true, nil
		})
}

// execAlterUser runs ALTER USER [IF EXISTS] ... IDENTIFIED ...; a missing
// account is 1396 (a note with IF EXISTS).
func (s *Session) execAlterUser(ctx context.Context, st *ast.AlterUserStmt) (server.Result, error) {
	specs := st.Specs
	if st.CurrentAuth != nil {
		specs = []*ast.UserSpec{{User: &auth.UserIdentity{CurrentUser: true}, AuthOpt: st.CurrentAuth}}
	}
	users := make([]*auth.UserIdentity, len(specs))
	for i, spec := range specs {
		users[i] = spec.User
	}
	return s.changeUsers(ctx, "ALTER USER", users, st.IfExists, sqlerr.ErrCannotUser,
		func(accts *privilege.Accounts, i int, user, host string) (bool, error) {
			acc := accts.Get(user, host)
			if acc == nil {
				return false, nil
			}
			return true, setAuth(acc, specs[i].AuthOpt)
		})
}

// execDropUser runs DROP USER [IF EXISTS]: all accounts or none.
func (s *Session) execDropUser(ctx context.Context, st *ast.DropUserStmt) (server.Result, error) {
	if st.IsDropRole {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "roles")
	}
	return s.changeUsers(ctx, "DROP USER", st.UserList, st.IfExists, sqlerr.ErrCannotUser,
		func(accts *privilege.Accounts, _ int, user, host string) (bool, error) {
			return accts.Delete(user, host), nil
		})
}
