package privilege

import (
	"maps"
	"slices"
	"strings"
)

// ShowGrants returns the GRANT statements that recreate a's privileges,
// as MySQL 8's SHOW GRANTS prints them: the global line first (USAGE when
// there is nothing global), then database lines, then table lines, each
// sorted by name.
func ShowGrants(a *Account) []string {
	to := " TO " + quoteIdent(a.User) + "@" + quoteIdent(a.Host)
	line := func(p, all Priv, on string) string {
		list := (p &^ GrantPriv).String()
		if p.Has(all) {
			list = "ALL PRIVILEGES"
		}
		s := "GRANT " + list + " ON " + on + to
		if p.Has(GrantPriv) {
			s += " WITH GRANT OPTION"
		}
		return s
	}
	out := []string{line(a.Global, GlobalPrivs, "*.*")}
	for _, db := range slices.Sorted(maps.Keys(a.DBs)) {
		out = append(out, line(a.DBs[db], DBPrivs, quoteIdent(db)+".*"))
	}
	for _, k := range slices.Sorted(maps.Keys(a.Tables)) {
		db, tbl := SplitTableKey(k)
		out = append(out, line(a.Tables[k], TablePrivs, quoteIdent(db)+"."+quoteIdent(tbl)))
	}
	return out
}

// quoteIdent quotes s with backticks, doubling any inside.
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
