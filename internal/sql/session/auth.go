package session

import (
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// Authenticate implements server.Backend. Until user management lands,
// the only account is root with an empty password (TiDB's default): any
// plugin's empty response is that password.
func (d *Domain) Authenticate(user, host, plugin string, salt, response []byte) error {
	if user == "root" && len(response) == 0 {
		return nil
	}
	return sqlerr.New(sqlerr.ErrAccessDenied, user, host, yesNo(len(response) > 0))
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}
