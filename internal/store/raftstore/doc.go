// Package raftstore is a storage node's multi-raft: every region with a
// replica on this store is a raft group (one go.etcd.io/raft RawNode per
// peer), driven by a few raft loops and applied by a few apply workers,
// over two Pebble instances — raftdb for raft logs and raft state, kvdb
// for the data (the MVCC key spaces of store/mvcc) and each region's
// applied state. The Store implements engine.Engine, so store/txn runs
// unchanged on top of it (TiKV's RaftKv): a read takes a linearizable
// kvdb snapshot, a write proposes its batch and returns once applied.
//
//	gRPC (kvrpc)          Route: store, region, epoch, leader, max_ts
//	     │                         │
//	store/txn.Storage ── Snapshot ─┤ lease valid? kvdb snapshot
//	     │                         └ else ReadIndex round, wait applied
//	     └─ Write ─► proposal ─► peer mailbox ─► raft loop (N = store-pool-size)
//	                                  │ per round: drain mailboxes, Step/Propose,
//	                                  │ Ready of every busy peer (raft's
//	                                  │ AsyncStorageWrites) → ONE raftdb batch;
//	                                  │ send appends and heartbeats at once
//	                                  ├─► raft writer (one per store): every
//	                                  │   round queued → ONE fsync
//	                                  │   (raftstore.sync-log); then sends the
//	                                  │   acks and votes, and hands the peer
//	                                  │   its own (MsgStorageAppendResp)
//	                                  ▼
//	                      apply worker (N = apply-pool-size)
//	                        many peers' committed entries → ONE kvdb batch
//	                        with their apply states; then answers
//
// # Invariants
//
//   - Persist before send: an append's responses (acks, votes) leave only
//     after the writer made it durable (acks promise durability); a
//     leader counts its own log toward a quorum only then, and raft hands
//     out committed entries only once they are durable here. Appends of
//     one peer are written in the order raft produced them. Raft-state
//     writes outside the rounds (a peer destroyed, a split's new peer)
//     flush the writer first.
//   - Atomic apply: data and the region's RaftApplyState go into kvdb in
//     one batch, so a restart replays exactly the entries after it
//     (raft redelivers (applied, commit]; already applied ones are
//     skipped by index).
//   - The raft log is truncated (CompactLog) only after kvdb holds the
//     compacted entries durably (the apply of CompactLog syncs kvdb), so
//     the unsynced apply writes are never the only copy.
//   - Deterministic apply: every replica decides from replicated state
//     only — a write whose epoch version changed since it was proposed,
//     a conf change whose conf_ver changed, a split with a stale epoch are
//     rejected identically everywhere (reference §2, §3).
//   - Epoch rules (reference §3): writes check version, conf changes
//     conf_ver (+1 per change), splits both (version + number of new
//     regions, shared by parent and children; the parent keeps the right
//     end). Route refuses a request whose version is not current
//     (EpochNotMatch with the regions now here).
//   - A proposal is answered once: with its apply result when its entry
//     applies in the term it was proposed in; StaleCommand (certainly not
//     applied) when an entry of a newer term applies first; and
//     UndeterminedResult (it may still apply; clients treat it as a lost
//     reply) when the store stops, or when the leader stepped down and,
//     two election timeouts later, has applied neither.
//     A step-down alone answers nothing: the next leader's log, which
//     this peer goes on applying, decides each proposal. Leadership is
//     handed only to a voter replicating within 128 entries of the commit
//     index, since raft drops proposals until the transferee won. Before
//     it, the leader proposes its in-memory pessimistic locks (the
//     LockHandoff) and starts the transfer once that entry applied and
//     the writes replacing the locks the hand-off left out have answered
//     (at most HandoffWait), so no lock is lost to a dropped proposal.
//   - A leader does not send an append without entries to a follower
//     that already has everything before it (it would only carry the new
//     commit index, which the next append or heartbeat carries too).
//     A leader's appends of one round to one follower, each starting where
//     the previous ended, leave as one append (one step, one reply); the
//     loop yields once when woken so that a round takes the proposals
//     runnable then.
//   - Reads: a leader serves from kvdb while its lease holds (granted by a
//     quorum's acknowledgement of a proposal or ReadIndex sent at t, until
//     t + election timeout − 2 ticks; PreVote and CheckQuorum keep rivals
//     out meanwhile) and it has applied an entry of its own term; else a
//     ReadIndex round confirms leadership and the read waits until the
//     peer applied up to the read index and an entry of its own term (a
//     lone voter's ReadIndex is its commit index at once, which after a
//     restart can lag the log tail the new term's entry commits). Leader
//     transfer voids the lease.
//   - A new leader raises max_ts from PD's TSO before it accepts
//     async-commit or 1PC prewrites (MaxTimestampNotSynced until then).
//   - A region starts its log at index 5, term 5 (bootstrap, split): an
//     empty peer created by a message rejects appends and gets a snapshot.
//   - Peers created by a raft message (uninitialized) only come from a
//     vote, a heartbeat with commit 0 or a snapshot, and only when no
//     initialized region here overlaps the message's range; a split
//     replaces such a peer keeping its hard state. A vote request for a
//     region this store has not split off yet is kept (the latest per
//     region) and handed to the peer the split makes, so the new region's
//     leader, which campaigns as soon as the split applies on it, wins at
//     once. A removed peer leaves a tombstone with its last epoch and
//     never comes back; a peer removed while its store was down learns it
//     from a tombstone reply.
//   - A peer loaded at start-up grants no vote for an election timeout
//     (the leader it followed may still hold a lease; TiKV #15035), except
//     to a leader transfer's campaign (that leader gave its lease up).
//     Peers a split makes vote at once.
//   - Snapshots are cut from a kvdb snapshot at the applied index on the
//     apply worker (so data and apply state match), reused only while the
//     region's epoch is unchanged, streamed out of band in chunks, and
//     applied in one synced kvdb batch (range deleted, pairs written,
//     region and apply state) before raftdb records them; a restart in
//     between finds kvdb ahead and resets the log to it.
//   - The apply observer (store/txn's lock index) sees every applied
//     batch and every range a snapshot or a removal replaced, on every
//     replica, so a follower that becomes leader trusts its index at once.
//
// # Goroutines and locks
//
// A peer's RawNode and peerStorage belong to its raft loop alone (other
// goroutines post to its mailbox); its applyState belongs to its apply
// worker (peers are assigned to a loop and a worker by region id, so a
// peer's rounds and applies are each serial). Published state (region,
// leadership, applied index, lease) is atomic. Lock order: Store.mu, then
// a peer's propMu or applyMu; a raft loop waits for an apply worker (conf
// changes, snapshots), never the other way round; loops and workers may
// wait for the raft writer (flush), which waits for no one.
//
// Splits are decided by the leader (a split check every
// split-region-check-tick-interval while the region's estimate — its last
// measurement plus the bytes and keys applied since — is at
// region-max-size or region-max-keys; the measurement scans the region)
// with ids from PD; conf changes and leader
// transfers come from PD's operators in region heartbeat responses.
package raftstore
