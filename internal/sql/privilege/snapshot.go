package privilege

import (
	"cmp"
	"slices"
)

// Snapshot is an immutable view of every account, as loaded at one
// version of the store. It is safe for concurrent use.
type Snapshot struct {
	version uint64
	byID    map[string]*Account
	// byUser lists the accounts of each user name in matching order
	// (most specific host first).
	byUser map[string][]*Account
	// anon lists the anonymous accounts (user ''), in matching order.
	anon []*Account
}

// newSnapshot indexes accounts (which it takes ownership of).
func newSnapshot(version uint64, accounts []*Account) *Snapshot {
	s := &Snapshot{version: version, byID: make(map[string]*Account, len(accounts)), byUser: map[string][]*Account{}}
	for _, a := range accounts {
		s.byID[id(a.User, a.Host)] = a
		if a.User == "" {
			s.anon = append(s.anon, a)
		} else {
			s.byUser[a.User] = append(s.byUser[a.User], a)
		}
	}
	order := func(x, y *Account) int {
		if c := cmp.Compare(hostRank(x.Host), hostRank(y.Host)); c != 0 {
			return c
		}
		return cmp.Compare(x.Host, y.Host)
	}
	for _, l := range s.byUser {
		slices.SortFunc(l, order)
	}
	slices.SortFunc(s.anon, order)
	return s
}

// Version is the store version the snapshot was loaded at.
func (s *Snapshot) Version() uint64 { return s.version }

// Account returns the account user@host where host is the account's
// host pattern (exact lookup), or nil.
func (s *Snapshot) Account(user, host string) *Account { return s.byID[id(user, host)] }

// Accounts returns every account, sorted by user then host.
func (s *Snapshot) Accounts() []*Account {
	out := make([]*Account, 0, len(s.byID))
	for _, a := range s.byID {
		out = append(out, a)
	}
	slices.SortFunc(out, func(x, y *Account) int {
		if c := cmp.Compare(x.User, y.User); c != 0 {
			return c
		}
		return cmp.Compare(x.Host, y.Host)
	})
	return out
}

// MatchAccount returns the account a client user connecting from host
// logs in as, as MySQL picks it: among the accounts whose host pattern
// matches, the most specific host first; a named user before the
// anonymous user. nil if none matches.
func (s *Snapshot) MatchAccount(user, host string) *Account {
	for _, a := range s.byUser[user] {
		if MatchHost(a.Host, host) {
			return a
		}
	}
	for _, a := range s.anon {
		if MatchHost(a.Host, host) {
			return a
		}
	}
	return nil
}

// RequestVerification reports whether user, connecting from host, holds
// priv on db.table (table empty: on db.*; db empty: globally). host is
// either the account's own host pattern or a client address, which is
// matched as at login.
func (s *Snapshot) RequestVerification(user, host, db, table string, priv Priv) bool {
	a := s.Account(user, host)
	if a == nil {
		a = s.MatchAccount(user, host)
	}
	return a != nil && a.Verify(db, table, priv)
}
