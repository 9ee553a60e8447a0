package session

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// authRefreshTimeout bounds the account refresh a login does.
const authRefreshTimeout = 5 * time.Second

// Authenticate implements server.Backend: the client must match a stored
// account (MySQL's host order) and answer the scramble with its password,
// under either plugin (both hashes are stored). Anything else is 1045.
// A refusal is decided on freshly loaded accounts (one read of the
// version key), so an account created on another server can log in at
// once; a success may use a cache up to one refresh interval old.
func (d *Domain) Authenticate(user, host, plugin string, salt, response []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), authRefreshTimeout)
	defer cancel()
	if err := d.privs.MaybeRefresh(ctx); err != nil {
		d.log.Warn("refresh accounts at login; using the cached ones", "err", err)
	}
	if d.login(user, host, plugin, salt, response) {
		return nil
	}
	// The cache may be up to an interval old: an account just created or
	// changed on another server deserves a fresh look before a refusal.
	if err := d.privs.Refresh(ctx); err == nil && d.login(user, host, plugin, salt, response) {
		return nil
	}
	return sqlerr.New(sqlerr.ErrAccessDenied, user, host, yesNo(len(response) > 0))
}

// login checks a login against the cached accounts.
func (d *Domain) login(user, host, plugin string, salt, response []byte) bool {
	acc := d.privs.Snapshot().MatchAccount(user, host)
	return acc != nil && checkPassword(acc, plugin, salt, response)
}

// checkPassword checks a scramble response against the account's hash
// for the plugin the client used.
func checkPassword(acc *privilege.Account, plugin string, salt, response []byte) bool {
	if plugin == server.PluginCachingSHA2Password {
		if len(acc.SHA2Hash) == 0 && len(acc.NativeHash) > 0 {
			return false // a password whose SHA-256 form is unknown (created from a native hash)
		}
		return server.CheckSHA2Password(salt, response, acc.SHA2Hash)
	}
	if len(acc.NativeHash) == 0 && len(acc.SHA2Hash) > 0 {
		return false
	}
	return server.CheckNativePassword(salt, response, acc.NativeHash)
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}
