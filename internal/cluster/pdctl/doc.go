// Package pdctl is the library behind `strata ctl`: a client of PD's HTTP
// API (/pd/api/v1/...) that tries each given PD address in turn and
// follows a follower's redirect to the leader, and the renderers that turn
// its JSON (the shapes of internal/pd/server's http_types.go) into tables
// for people.
//
// Keys are shown decoded where Strata's layout is recognised (t{table}_r
// {handle}, t{table}_i{index} followed by the index values, metadata keys
// under m), as a quoted string when printable, and in upper-case hex
// otherwise; an empty start key is -inf and an empty end key +inf.
//
// Errors have identity: ErrUnreachable when no PD address answered at
// all, *APIError when PD answered with an error status.
package pdctl
