// Package txnclient is the transaction coordinator: Percolator two-phase
// commit, async commit and one-phase commit over the regions that locate
// routes to, and the lock resolver that readers and writers use to decide
// other transactions' locks. It follows reference/transactions.md §5.
//
//	Client.Begin ─► Txn ──reads──► snapshot (start_ts) ─► KvGet/KvBatchGet/KvScan
//	                 │                  │ locks met
//	                 │                  ▼
//	                 │             LockResolver ─► CheckTxnStatus / ResolveLock /
//	                 │                             CheckSecondaryLocks
//	                 └──Commit──► committer ─► prewrite (all batches, parallel)
//	                                 ├─ 1PC: one batch, one region: done
//	                                 ├─ async: commit_ts = max(min_commit_ts): done,
//	                                 │         keys committed in the background
//	                                 └─ 2PC: commit_ts from the oracle, primary
//	                                          batch sync, secondaries background
//
// Client.BeginLazy (explicit BEGIN) asks the oracle for start_ts and
// returns; the snapshot waits for it at the first read, lock or commit
// with writes, so the round trip overlaps the client's next statement.
// The request leaves when BEGIN runs, so start_ts still follows every
// commit acknowledged before it. Client.BeginNewest (an autocommit point
// UPDATE / DELETE) does the same, but its Gets read the newest version
// meanwhile; its prewrite names, for each key read, the newest commit
// record the read saw, and fails if the key has a newer one (newest.go).
//
// Invariants:
//   - Writes are buffered in a sorted memBuffer until Commit; reads of keys
//     the transaction wrote are served from the buffer and never read back
//     from storage (storage has no exemption for a reader's own locks).
//   - The primary is the first key in sorted order (pessimistic txns: the
//     first key of the first LockKeys call); its batch is prewritten like
//     any other but committed first and alone (2PC).
//   - A prewrite failure rolls back every key (BatchRollback) and returns
//     the key error (errors.Is(err, kv.ErrWriteConflict), ...), except when
//     the outcome is undetermined: a lost reply of the primary commit (2PC)
//     or of any async/1PC prewrite returns kv.ErrResultUndetermined and
//     cleans nothing up.
//   - A transaction never re-executes its writes under a new start_ts:
//     conflicts go back to the caller.
//   - While a commit is in flight its primary's TTL is refreshed by a
//     heartbeat loop (ttlManager) every HeartbeatInterval; the loop is
//     stopped before Commit returns.
//   - A snapshot's resolved/committed lock sets only grow; they are only
//     valid for its start_ts.
//
// # Pessimistic transactions (pessimistic.go, reference §2.7, §5.4)
//
// After SetPessimistic, the caller runs each statement at a fresh
// for_update_ts (NewForUpdateTS), reads through ForUpdateView (a "current
// read"), and locks what it read or will write with LockKeys before the
// statement's writes count. LockKeys sends KvPessimisticLock region by
// region, the primary's first; the server parks a request behind another
// txn's lock (up to a second), after which the client resolves the holder
// if it is dead and asks again within the caller's wait budget
// (kv.ErrLockWaitTimeout past it). A write committed after for_update_ts
// answers a PessimisticRetry write conflict: the caller re-runs the
// statement at a newer for_update_ts. A wait cycle answers
// kv.DeadlockError. Locks carry ManagedLockTTL plus the txn's age and are
// kept alive by the ttlManager from the moment the primary is locked.
// A statement that locks every key it reads may read through
// LockingView instead (locking_view.go): a point read of a key neither
// buffered nor locked yet is a KvPessimisticLock with return_values, the
// lock and the current read in one round trip.
// Commit prewrites the buffered writes (and Op_Lock for keys locked but
// not written) with is_pessimistic_lock set for locked keys, so storage
// requires those locks instead of checking for newer writes; Rollback,
// and a Commit with nothing to write, release the locks.
//
// Lock order: Txn.mu, snapshot.mu, LockResolver.mu and statusCache.mu are
// leaves; none is held across an RPC.
package txnclient
