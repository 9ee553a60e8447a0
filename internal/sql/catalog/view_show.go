package catalog

import "strings"

// ShowCreateView is SHOW CREATE VIEW's "Create View" column for view t of
// database db, in MySQL 8's form:
//
//	CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`%` SQL SECURITY DEFINER VIEW `v` AS select ...
//
// From the view's own database (qualified false) names in it are left
// unqualified; from another one the view and its tables carry their
// database, as MySQL prints them.
func ShowCreateView(db string, t *TableInfo, qualified bool) string {
	v := t.View
	var b strings.Builder
	b.WriteString("CREATE ALGORITHM=" + v.Algorithm + " DEFINER=" + QuoteIdent(v.DefinerUser) + "@" +
		QuoteIdent(v.DefinerHost) + " SQL SECURITY " + v.Security + " VIEW ")
	sel := v.Select
	if qualified {
		b.WriteString(QuoteIdent(db) + ".")
		sel = v.Definition
	}
	b.WriteString(QuoteIdent(t.Name))
	if len(v.Cols) > 0 {
		b.WriteString(" (")
		for i, c := range v.Cols {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(QuoteIdent(c))
		}
		b.WriteString(")")
	}
	b.WriteString(" AS " + sel)
	if v.CheckOption != "" {
		b.WriteString(" WITH " + v.CheckOption + " CHECK OPTION")
	}
	return b.String()
}
