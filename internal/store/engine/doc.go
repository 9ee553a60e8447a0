// Package engine is the storage node's thin key-value engine boundary: an
// Engine hands out consistent Snapshots and applies Batches atomically.
//
// The MVCC and transaction layers are written against the Engine interface
// only. The first implementation, Pebble, writes straight to a Pebble v2
// database; the raftstore will be the second, proposing each Batch to a
// region's Raft group and completing Write after apply. Batch is therefore an
// engine-neutral list of operations that can be serialized into a Raft entry.
//
// Invariants:
//   - Write is atomic: a Snapshot sees all of a Batch or none of it.
//   - With Options.Sync, Write returns only after the batch is in the WAL
//     and fsynced; concurrent synced Writes share one fsync (Pebble's commit
//     pipeline groups them). A Batch marked NoSync (its loss in a crash is
//     harmless) does not wait for an fsync; a later synced Write makes it
//     durable too, as the WAL is ordered.
//   - Slices returned by Snapshot.Get are owned by the caller; Iterator
//     Key/Value are valid only until the next move.
//
// A Pebble engine keeps one snapshot of its own, older than every read's
// and replaced every AnchorInterval (snapshotAnchor): Pebble runs its
// compaction picker whenever its earliest snapshot closes, which with a
// snapshot per read cost a sixth of a leader's CPU under point reads.
//
// The file system an engine runs on (Options.SyncFS) reads a recycled
// WAL's old pages ahead of its writer (walPrefetchFS), so that an append
// into a page evicted from the page cache does not wait in write(2) for
// a disk read. With Options.PrefillWAL (the raft log's engine, which syncs
// every write) it also writes zeros ahead of the WAL's writer and syncs
// them (walPrefillFS), so that a synced append lands in blocks the file
// has and its fdatasync does not also write the inode.
//
// Concurrency: *Pebble is safe for concurrent use. A Snapshot is safe for
// concurrent Gets; an Iterator is not shared between goroutines. The WAL
// prefill guards each file's fill with a mutex of its own; there are no
// other locks of this package's own.
package engine
