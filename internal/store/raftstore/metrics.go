package raftstore

import "sync/atomic"

// storeMetrics counts the raftstore's work; Stats reads them.
type storeMetrics struct {
	logWrites, logEntries, logSyncs        atomic.Uint64
	leaseReads, readIndexes                atomic.Uint64
	snapGen, snapSent, snapRecv, snapApply atomic.Uint64
	raftMsgs, commitOnly, appendsMerged    atomic.Uint64
}

func (m *storeMetrics) raftLogWrite(entries int, synced bool) {
	m.logWrites.Add(1)
	m.logEntries.Add(uint64(entries))
	if synced {
		m.logSyncs.Add(1)
	}
}
func (m *storeMetrics) leaseRead()         { m.leaseReads.Add(1) }
func (m *storeMetrics) raftSent(n int)     { m.raftMsgs.Add(uint64(n)) }
func (m *storeMetrics) commitOnlyDropped() { m.commitOnly.Add(1) }
func (m *storeMetrics) appendMerged()      { m.appendsMerged.Add(1) }
func (m *storeMetrics) readIndex()         { m.readIndexes.Add(1) }
func (m *storeMetrics) snapshotGenerated() { m.snapGen.Add(1) }
func (m *storeMetrics) snapshotSent()      { m.snapSent.Add(1) }
func (m *storeMetrics) snapshotReceived()  { m.snapRecv.Add(1) }
func (m *storeMetrics) snapshotApplied()   { m.snapApply.Add(1) }

// Stats is a point-in-time copy of the store's counters.
type Stats struct {
	// RaftLogWrites is the number of raftdb batches written; RaftLogEntries
	// the entries they carried; RaftLogSyncs the fsyncs among them.
	RaftLogWrites, RaftLogEntries, RaftLogSyncs uint64
	// LeaseReads were served under the leader lease; ReadIndexReads
	// needed a ReadIndex round.
	LeaseReads, ReadIndexReads uint64
	// Snapshots generated, sent, received and applied.
	SnapshotsGenerated, SnapshotsSent, SnapshotsReceived, SnapshotsApplied uint64
	// RaftMessagesSent went to other stores (responses included);
	// CommitOnlyDropped are a leader's appends that would only have told
	// an up-to-date follower the commit index (dropCommitOnly);
	// AppendsMerged are a leader's appends that went out inside the
	// previous append to the same follower (mergeAppends).
	RaftMessagesSent, CommitOnlyDropped, AppendsMerged uint64
	// Regions and Leaders here.
	Regions, Leaders int
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	m := &s.metrics
	st := Stats{
		RaftLogWrites: m.logWrites.Load(), RaftLogEntries: m.logEntries.Load(), RaftLogSyncs: m.logSyncs.Load(),
		LeaseReads: m.leaseReads.Load(), ReadIndexReads: m.readIndexes.Load(),
		SnapshotsGenerated: m.snapGen.Load(), SnapshotsSent: m.snapSent.Load(),
		SnapshotsReceived: m.snapRecv.Load(), SnapshotsApplied: m.snapApply.Load(),
		RaftMessagesSent: m.raftMsgs.Load(), CommitOnlyDropped: m.commitOnly.Load(), AppendsMerged: m.appendsMerged.Load(),
		Leaders: s.LeaderCount(),
	}
	st.Regions = len(s.Regions())
	return st
}
