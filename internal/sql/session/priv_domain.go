package session

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/sql/privilege"
)

// initPrivileges creates the account store and loads it.
func (d *Domain) initPrivileges(ctx context.Context) error {
	d.privs = privilege.NewStore(d.begin, privilege.Options{})
	if err := d.privs.Refresh(ctx); err != nil {
		return fmt.Errorf("load accounts: %w", err)
	}
	return nil
}

// Privileges returns the account store.
func (d *Domain) Privileges() *privilege.Store { return d.privs }

// account returns the account this session is logged in as, matched
// again against the current accounts (a dropped account has no
// privileges; a changed one takes effect at the next statement).
func (s *Session) account(ctx context.Context) *privilege.Account {
	if err := s.d.privs.MaybeRefresh(ctx); err != nil {
		s.d.log.Warn("refresh accounts", "err", err)
	}
	if a := s.d.privs.Snapshot().MatchAccount(s.conn.User, s.conn.Host); a != nil {
		return a
	}
	return &privilege.Account{User: s.conn.User, Host: s.conn.Host}
}
