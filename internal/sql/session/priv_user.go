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

// execCreateUser runs CREATE USER [IF NOT EXISTS]: all accounts or none
// (1396 names every one that exists; with IF NOT EXISTS they are notes).
func (s *Session) execCreateUser(ctx context.Context, st *ast.CreateUserStmt) (server.Result, error) {
	if st.IsCreateRole {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "roles")
	}
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	var warns []error
	err := s.d.privs.Update(ctx, func(accts *privilege.Accounts) error {
		warns = warns[:0]
		var failed []string
		for _, spec := range st.Specs {
			user, host := s.userOf(ctx, spec.User)
			if accts.Get(user, host) != nil {
				if st.IfNotExists {
					warns = append(warns, sqlerr.New(mysql.ErrUserAlreadyExists, "'"+user+"'@'"+host+"'"))
					continue
				}
				failed = append(failed, "'"+user+"'@'"+host+"'")
				continue
			}
			acc := &privilege.Account{User: user, Host: host, Plugin: defaultAuthPlugin}
			if err := setAuth(acc, spec.AuthOpt); err != nil {
				return err
			}
			accts.Put(acc)
		}
		if len(failed) > 0 {
			return sqlerr.New(sqlerr.ErrCannotUser, "CREATE USER", failedFor(failed))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.warnings = append(s.warnings, warns...)
	return &okResult{}, nil
}

// execAlterUser runs ALTER USER [IF EXISTS] ... IDENTIFIED ...; a missing
// account is 1396 (a note with IF EXISTS).
func (s *Session) execAlterUser(ctx context.Context, st *ast.AlterUserStmt) (server.Result, error) {
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	specs := st.Specs
	if st.CurrentAuth != nil {
		specs = []*ast.UserSpec{{User: &auth.UserIdentity{CurrentUser: true}, AuthOpt: st.CurrentAuth}}
	}
	var warns []error
	err := s.d.privs.Update(ctx, func(accts *privilege.Accounts) error {
		warns = warns[:0]
		var failed []string
		for _, spec := range specs {
			user, host := s.userOf(ctx, spec.User)
			acc := accts.Get(user, host)
			if acc == nil {
				if st.IfExists {
					warns = append(warns, sqlerr.New(sqlerr.ErrCannotUser, "ALTER USER", "'"+user+"'@'"+host+"'"))
					continue
				}
				failed = append(failed, "'"+user+"'@'"+host+"'")
				continue
			}
			if err := setAuth(acc, spec.AuthOpt); err != nil {
				return err
			}
		}
		if len(failed) > 0 {
			return sqlerr.New(sqlerr.ErrCannotUser, "ALTER USER", failedFor(failed))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.warnings = append(s.warnings, warns...)
	return &okResult{}, nil
}

// execDropUser runs DROP USER [IF EXISTS]: all accounts or none.
func (s *Session) execDropUser(ctx context.Context, st *ast.DropUserStmt) (server.Result, error) {
	if st.IsDropRole {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "roles")
	}
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	var warns []error
	err := s.d.privs.Update(ctx, func(accts *privilege.Accounts) error {
		warns = warns[:0]
		var failed []string
		for _, u := range st.UserList {
			user, host := s.userOf(ctx, u)
			if accts.Delete(user, host) {
				continue
			}
			if st.IfExists {
				warns = append(warns, sqlerr.New(sqlerr.ErrCannotUser, "DROP USER", "'"+user+"'@'"+host+"'"))
				continue
			}
			failed = append(failed, "'"+user+"'@'"+host+"'")
		}
		if len(failed) > 0 {
			return sqlerr.New(sqlerr.ErrCannotUser, "DROP USER", failedFor(failed))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.warnings = append(s.warnings, warns...)
	return &okResult{}, nil
}
