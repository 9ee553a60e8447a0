package privilege

import (
	"strings"
)

// Auth plugins an account may name.
const (
	PluginNativePassword      = "mysql_native_password"
	PluginCachingSHA2Password = "caching_sha2_password"
)

// Account is one row of the user table: who may log in from where, with
// which password, holding which privileges. It is stored as JSON.
//
// Both password hashes are kept whatever the account's plugin, so a
// client may log in with either plugin: NativeHash is SHA1(SHA1(pw)) and
// SHA2Hash is SHA256(SHA256(pw)); both are empty for the empty password.
type Account struct {
	User string `json:"user"`
	// Host is the host pattern: an exact host, or a pattern with '%'
	// (any run of characters) and '_' (one character).
	Host       string `json:"host"`
	Plugin     string `json:"plugin"`
	NativeHash []byte `json:"native_hash,omitempty"`
	SHA2Hash   []byte `json:"sha2_hash,omitempty"`
	// Global are the privileges on *.*.
	Global Priv `json:"global"`
	// DBs are the privileges on db.*, keyed by lower-case database name.
	DBs map[string]Priv `json:"dbs,omitempty"`
	// Tables are the privileges on db.table, keyed by TableKey.
	Tables map[string]Priv `json:"tables,omitempty"`
}

// Name returns the account as MySQL prints it: 'user'@'host'.
func (a *Account) Name() string { return "'" + a.User + "'@'" + a.Host + "'" }

// id is the key of an account in the store and the snapshot.
func id(user, host string) string { return user + "@" + strings.ToLower(host) }

// TableKey is the key of db.table in Account.Tables.
func TableKey(db, table string) string { return strings.ToLower(db) + "." + strings.ToLower(table) }

// SplitTableKey splits a TableKey into database and table.
func SplitTableKey(k string) (db, table string) {
	db, table, _ = strings.Cut(k, ".")
	return db, table
}

// Clone returns a deep copy of a.
func (a *Account) Clone() *Account {
	c := *a
	c.NativeHash = append([]byte(nil), a.NativeHash...)
	c.SHA2Hash = append([]byte(nil), a.SHA2Hash...)
	c.DBs = make(map[string]Priv, len(a.DBs))
	for k, v := range a.DBs {
		c.DBs[k] = v
	}
	c.Tables = make(map[string]Priv, len(a.Tables))
	for k, v := range a.Tables {
		c.Tables[k] = v
	}
	return &c
}

// Verify reports whether a holds priv on db.table (table may be empty for
// a database-level request; db empty for a global one). Privileges add up
// across levels: global, then database, then table.
func (a *Account) Verify(db, table string, priv Priv) bool {
	have := a.Global
	if have.Has(priv) {
		return true
	}
	if db != "" {
		have |= a.DBs[strings.ToLower(db)]
		if table != "" && have&priv != priv {
			have |= a.Tables[TableKey(db, table)]
		}
	}
	return have.Has(priv)
}

// HasAnyOn reports whether a holds any privilege on db or on any of its
// tables (what USE db requires).
func (a *Account) HasAnyOn(db string) bool {
	if a.Global&^GrantPriv != 0 || a.DBs[strings.ToLower(db)] != 0 {
		return true
	}
	prefix := strings.ToLower(db) + "."
	for k, v := range a.Tables {
		if v != 0 && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// Grant adds priv to a at the level: db == "" is global, table == "" is
// db.*, otherwise db.table. Privileges that do not apply at the level
// (SUPER on a database, say) are dropped, so ALL (GlobalPrivs) narrows to
// the level's ALL.
func (a *Account) Grant(db, table string, priv Priv) {
	priv &= LevelPrivs(db, table) | GrantPriv
	switch {
	case db == "":
		a.Global |= priv
	case table == "":
		if a.DBs == nil {
			a.DBs = map[string]Priv{}
		}
		a.DBs[strings.ToLower(db)] |= priv
	default:
		if a.Tables == nil {
			a.Tables = map[string]Priv{}
		}
		a.Tables[TableKey(db, table)] |= priv
	}
}

// Revoke removes priv from a at the level (as in Grant); a level left
// without privileges disappears.
func (a *Account) Revoke(db, table string, priv Priv) {
	switch {
	case db == "":
		a.Global &^= priv
	case table == "":
		k := strings.ToLower(db)
		if _, ok := a.DBs[k]; !ok {
			return
		}
		if a.DBs[k] &^= priv; a.DBs[k] == 0 {
			delete(a.DBs, k)
		}
	default:
		k := TableKey(db, table)
		if _, ok := a.Tables[k]; !ok {
			return
		}
		if a.Tables[k] &^= priv; a.Tables[k] == 0 {
			delete(a.Tables, k)
		}
	}
}

// At returns the privileges a holds exactly at the level (as in Grant).
func (a *Account) At(db, table string) Priv {
	switch {
	case db == "":
		return a.Global
	case table == "":
		return a.DBs[strings.ToLower(db)]
	}
	return a.Tables[TableKey(db, table)]
}

// LevelPrivs returns the privileges grantable at the level (as in Grant),
// GRANT OPTION aside: what ALL means there.
func LevelPrivs(db, table string) Priv {
	switch {
	case db == "":
		return GlobalPrivs
	case table == "":
		return DBPrivs
	}
	return TablePrivs
}
