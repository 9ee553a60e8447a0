// Package mvcc implements Percolator MVCC over an engine.Engine, following
// /work/shared/reference/transactions.md (§1 layout, §2 commands, §7
// invariants). It is pure: no goroutines, no clocks, no I/O besides reading
// the snapshot it is given. Every action reads through a Reader (one engine
// snapshot) and appends its modifications to a Txn, whose Batch the caller
// (the txn layer) applies with one engine.Write.
//
// Key spaces (1-byte prefix emulating column families):
//
//	'l' + key                                   -> Lock record   (one per key)
//	'w' + memcomparable(key) + bigendian(^commit_ts) -> Write record (commits; rollbacks at start_ts)
//	'd' + memcomparable(key) + bigendian(^start_ts)  -> raw value > 255 bytes
//
// Newer versions sort first within a key, so SeekGE(w+enc(k)+^T) lands on
// the newest record with commit_ts <= T.
//
// Invariants kept by the actions (reference §7): at most one lock per key;
// at most one commit record per txn and key; primaries' rollbacks are
// protected and never collapsed; a rollback that lands on another txn's
// commit record sets its overlapped flag (and gc_fence) instead; async-commit
// locks remember protected rollbacks written under them in RollbackTS;
// async/1PC min_commit_ts is computed under the MemLocker, above max_ts.
//
// Actions do not take latches: the txn layer serialises commands on the
// same keys. max_ts is not raised here (the txn layer does it before it
// opens the snapshot), except as observed through MemLocker in Prewrite.
// There are no locks in this package, hence no lock order.
package mvcc
