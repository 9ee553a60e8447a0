// Package privilege keeps the user accounts of a cluster and answers
// privilege checks.
//
// # Accounts
//
// An Account is a user name, a host pattern ('%' and '_' wildcards, as
// MySQL's user table), an auth plugin with the password's hashes, and
// privileges at three levels: global (*.*), database (db.*) and table
// (db.tbl). Both hashes a login can be checked against are stored
// whatever the plugin: SHA1(SHA1(pw)) for mysql_native_password and
// SHA256(SHA256(pw)) for caching_sha2_password's fast path; the empty
// password stores neither.
//
// # Storage
//
//	m Users h "user@host" -> Account as JSON
//	m UsersVersion s      -> 8-byte big-endian counter
//
// Every change (Store.Update) rewrites the accounts it touched and bumps
// the version in one transaction, retrying write conflicts with other
// servers' changes. Until the first change the version key is absent and
// the cluster implicitly holds the bootstrap accounts (root@'%', empty
// password, ALL PRIVILEGES WITH GRANT OPTION); the first change writes
// them out with its own. So bootstrapping writes nothing, and two servers
// starting together cannot race.
//
// # Cache
//
// Store caches an immutable Snapshot. Refresh reads the version key and
// reloads only when it moved; MaybeRefresh does so at most once per
// RefreshInterval on the caller's clock, so statements keep every server
// within about an interval of every change without a goroutine.
//
// # Matching and checks
//
// A login picks the first account, in MySQL's order, whose host pattern
// matches the client: a named user's accounts before the anonymous
// user's, literal hosts before patterns, longer literal prefixes before
// shorter, '%' last. Privileges add up across levels (global | database |
// table); ALL at a level means the privileges grantable there, and never
// includes GRANT OPTION.
//
// # Locks
//
// Store.mu serializes Refresh and Update; methods ending in Locked need it
// held. Snapshot() reads an atomic pointer and never blocks.
package privilege
