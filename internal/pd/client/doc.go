// Package client is the PD client that storage nodes and SQL servers use:
// timestamps, ids, store and region metadata, region heartbeats.
//
//	callers ──GetTS──► tsoCh ──► tsoLoop ×TSOStreams ──TsoRequest{count=n}──► leader
//	         (many)              (each: one batch on the wire at a time,
//	                              on its own stream; the next gathering)
//	callers ──unary──► do(): leaderConn ─► RPC ─► NOT_LEADER / transport
//	                        error: forget the leader, back off, discover
//	                        (GetMembers over the known members), retry
//
// # Leader discovery
//
// New and every call after a failure ask the members (the addresses given
// to New, then the client URLs the members list) with GetMembers, one
// after another, and use the first leader named. Every call retries across
// leader changes until its context ends; a PD error other than NOT_LEADER
// is returned at once as an *Error, which matches the package's sentinels
// with errors.Is (ErrNotBootstrapped, ErrStaleRegion, ...). Retried calls
// that are not idempotent are harmless: a retried AllocID wastes ids
// (never reuses them), a retried Bootstrap may report
// ErrAlreadyBootstrapped for its own first attempt.
//
// # Timestamps
//
// GetTS (and GetTimestamp, for txnclient.Oracle) enqueues the caller; a
// TSO loop takes every waiting caller (up to Options.MaxTSOBatch), asks
// the leader for that many timestamps on its long-lived Tso stream and
// hands them out in order. SetTSOStreams (tidb_tso_client_rpc_mode) sets
// how many loops serve, so how many requests may be on the wire at once:
// with one, callers arriving during a round trip wait for it to end before
// theirs leaves. Invariant: a timestamp returned to a caller is
// greater than every timestamp returned before that caller asked, because
// the batch is requested after the caller enqueued and PD's TSO only moves
// up (also across leader changes). A batch whose stream breaks is asked
// again on the new leader; callers whose context ends are dropped.
//
// # Region lookups
//
// Client implements locate.RegionSource (RegionByKey, RegionBeforeKey,
// StoreAddr) so the SQL side's region cache reads regions from PD: a
// region comes with its leader (its first peer while PD knows none) and
// the leader's store address, from a store cache filled on a miss.
//
// # Lock order
//
// discoverSem (a one-slot semaphore, so waiting for it respects the
// caller's context) → mu. The TSO loop and each HeartbeatStream run in their own
// goroutine and take mu only through leaderConn and invalidate.
package client
