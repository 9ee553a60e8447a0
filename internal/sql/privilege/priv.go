package privilege

import "strings"

// Priv is a set of privileges (a bit set). The zero value is USAGE: no
// privilege at all, only the right to log in.
type Priv uint32

// The privileges Strata checks.
const (
	SelectPriv Priv = 1 << iota
	InsertPriv
	UpdatePriv
	DeletePriv
	CreatePriv
	DropPriv
	IndexPriv
	AlterPriv
	SuperPriv
	CreateUserPriv
	// GrantPriv is GRANT OPTION: the right to grant the privileges one
	// holds at the same level. ALL [PRIVILEGES] does not include it.
	GrantPriv
)

// UsagePriv is no privilege at all (GRANT USAGE).
const UsagePriv Priv = 0

// TablePrivs are the privileges that apply to a table (and so to a
// database and globally): what ALL means at table level.
const TablePrivs = SelectPriv | InsertPriv | UpdatePriv | DeletePriv | CreatePriv | DropPriv | IndexPriv | AlterPriv

// DBPrivs are the privileges grantable on db.*: what ALL means there.
const DBPrivs = TablePrivs

// GlobalPrivs are the privileges grantable on *.*: what ALL means there.
const GlobalPrivs = TablePrivs | SuperPriv | CreateUserPriv

// privNames lists every privilege in MySQL's SHOW GRANTS order.
var privNames = []struct {
	p    Priv
	name string
}{
	{SelectPriv, "SELECT"}, {InsertPriv, "INSERT"}, {UpdatePriv, "UPDATE"}, {DeletePriv, "DELETE"},
	{CreatePriv, "CREATE"}, {DropPriv, "DROP"}, {IndexPriv, "INDEX"}, {AlterPriv, "ALTER"},
	{SuperPriv, "SUPER"}, {CreateUserPriv, "CREATE USER"}, {GrantPriv, "GRANT OPTION"},
}

// Has reports whether p holds every privilege of q.
func (p Priv) Has(q Priv) bool { return p&q == q }

// Names returns the names of the privileges in p, in SHOW GRANTS order.
func (p Priv) Names() []string {
	var out []string
	for _, n := range privNames {
		if p.Has(n.p) {
			out = append(out, n.name)
		}
	}
	return out
}

// String returns p as a GRANT list ("SELECT, INSERT"; "USAGE" when empty).
func (p Priv) String() string {
	if p == 0 {
		return "USAGE"
	}
	return strings.Join(p.Names(), ", ")
}

// ParsePriv returns the privilege named name ("SELECT", "CREATE USER",
// "ALL", "ALL PRIVILEGES", "USAGE", "GRANT OPTION"; any case). ALL is
// returned as GlobalPrivs; the caller narrows it to the grant's level.
func ParsePriv(name string) (Priv, bool) {
	name = strings.ToUpper(strings.Join(strings.Fields(name), " "))
	switch name {
	case "ALL", "ALL PRIVILEGES":
		return GlobalPrivs, true
	case "USAGE":
		return UsagePriv, true
	}
	for _, n := range privNames {
		if n.name == name {
			return n.p, true
		}
	}
	return 0, false
}
