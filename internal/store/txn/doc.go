// Package txn is the storage node's command layer: it runs the
// transactional commands of kvrpcpb.TikvServer over the Percolator MVCC of
// package mvcc and an engine.Engine, one store at a time.
//
// # Per-command pipeline
//
//	request ──validate──► latches(keys) ──► snapshot ──► mvcc actions ──► engine.Write
//	                                                        │                 │
//	                                memory locks (async/1PC)┘   release ◄─────┘
//	                                                        then latches released
//
// Reads take no latches: they raise max_ts to their read ts (unless it is
// MaxUint64), check the in-memory lock table for their key or range, and
// only then open a snapshot (reference §2.0, §2.1).
//
// # Components
//
//   - Latches (latches.go): keys hash to slots; a command holds all its
//     slots while it runs, so two commands touching the same key never
//     overlap. Slots are taken in ascending order (no deadlock) and each slot
//     wakes its waiters in FIFO order (no starvation).
//   - ConcurrencyManager (concurrency.go): an atomic max_ts and an ordered
//     in-memory lock table (a btree by user key). An async-commit or 1PC
//     prewrite takes a key's slot in the table, then, in one critical
//     section, reads max_ts, computes min_commit_ts and publishes its lock.
//     A reader raises max_ts before checking the table, so it either sees
//     the lock or the lock's min_commit_ts is above its read ts.
//   - Storage (storage.go, cmd_*.go): one file per command.
//   - In-memory pessimistic locks (mem_pessimistic.go): over a raftstore
//     (a LeaderTermer) a pessimistic lock stays in the region leader's
//     memory, tagged with the region and the leader's term; a write
//     command sees it through mvcc.Reader's lock overlay, and the batch a
//     command writes is split in two: lock puts and deletes of memory
//     locks change the table, the rest goes through raft, refused if the
//     term moved since the request was routed. A leader transfer first
//     writes the table's locks through raft (HandoffLocks), leaving out
//     those a write in flight replaces; from then on the term's lock
//     changes go through raft.
//   - The newest-write record (newest_writes.go): for recently read keys,
//     the newest write record kvdb holds, consulted by mvcc.Reader
//     (mvcc.NewestWrites) for point reads and the newer-version checks of
//     prewrites and pessimistic locks, which then cost a map lookup
//     instead of a seek through every level holding a version. Entries
//     come only from seeks of a snapshot; every engine write of a write
//     record (each raft apply on every replica, through the apply
//     observer; over an engine without one, the command's own) marks its
//     keys pending before it lands and updates their entries after, and a
//     seek's answer is refused if
//     a write ended since the reader's token (taken before its snapshot)
//     or is touching the key. A raft snapshot's install or a peer's
//     destroy forgets everything.
//
// # Invariants
//
//   - A command validates its whole request before it writes anything, and
//     writes all its modifications as one engine batch; a prewrite meeting
//     any lock writes nothing.
//   - An in-memory pessimistic lock is seen only by commands routed to its
//     region in the term it was taken in; every raft write of such a
//     command commits in that term or not at all. A txn whose lock was
//     lost with its leader fails at prewrite if the key was written since
//     it began (the amend check), as after a lock lost in a crash.
//   - A newest-write entry is the key's newest record in kvdb whenever it
//     answers: no write of the key is pending then, and every write that
//     ended since the entry was made has updated it.
//   - Memory locks are released only after the engine write that makes the
//     real locks (or 1PC commit records) visible has been applied, and
//     before the latches are released.
//   - Commands that may write a protected rollback raise max_ts to the
//     rolled-back start_ts first (Cleanup, CheckTxnStatus,
//     CheckSecondaryLocks), so no calculated commit_ts lands on it.
//
// # Not here yet
//
//   - Region checks and the MaxTimestampNotSynced guard after a leader
//     change: the server layer wraps Storage (it can seed max_ts through
//     ConcurrencyManager().UpdateMaxTS).
//   - A cluster-wide deadlock detector: lockWaiters sees the waits of one
//     store; a cycle across stores ends by the wait timeout.
//   - ResolveLock without keys scans the whole store's lock space, not a
//     region's.
//   - ScanLock does not list in-memory pessimistic locks (GC does not
//     need them: a pessimistic lock hides no value). A split does not
//     move them to the new region's table as TiKV does: the leader writes
//     them through raft before it proposes the split (HandoffLocks), as
//     before a leader transfer, and the new region finds them in the
//     engine. The region's lock changes go through raft until the split
//     ended, or for the rest of the term when a transfer's hand-off came
//     too (a split the transfer refuses ends before the transfer does).
//
// # Lock order
//
// latch slots (ascending) → memory-lock key owner (KeyGuard) →
// ConcurrencyManager.mu → keyHandle.mu; newestWrites.mu is a leaf, held
// only around its own maps. ConcurrencyManager.mu is never
// held while waiting for a key owner; readers take only
// ConcurrencyManager.mu, then keyHandle.mu, one at a time.
package txn
