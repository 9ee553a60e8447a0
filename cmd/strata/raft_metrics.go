package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/status"
	"github.com/strata-db/strata/internal/store/raftstore"
)

// registerRaftMetrics exports the raftstore's counters on the status port.
func registerRaftMetrics(st *status.Server, s *raftstore.Store) {
	counter := func(name, help string, f func(raftstore.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "strata_raftstore_" + name, Help: help},
			func() float64 { return float64(f(s.Stats())) })
	}
	gauge := func(name, help string, f func(raftstore.Stats) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "strata_raftstore_" + name, Help: help},
			func() float64 { return float64(f(s.Stats())) })
	}
	st.Registry.MustRegister(
		counter("log_writes_total", "Raft log batches written to raftdb.", func(x raftstore.Stats) uint64 { return x.RaftLogWrites }),
		counter("log_entries_total", "Raft entries appended to raftdb.", func(x raftstore.Stats) uint64 { return x.RaftLogEntries }),
		counter("log_syncs_total", "Fsyncs of raftdb.", func(x raftstore.Stats) uint64 { return x.RaftLogSyncs }),
		counter("lease_reads_total", "Reads served under the leader lease.", func(x raftstore.Stats) uint64 { return x.LeaseReads }),
		counter("read_index_total", "Reads that needed a ReadIndex round.", func(x raftstore.Stats) uint64 { return x.ReadIndexReads }),
		counter("messages_sent_total", "Raft messages sent to other stores.", func(x raftstore.Stats) uint64 { return x.RaftMessagesSent }),
		counter("commit_only_appends_dropped_total", "Appends without entries to up-to-date followers not sent (the commit index travels with the next append or heartbeat).", func(x raftstore.Stats) uint64 { return x.CommitOnlyDropped }),
		counter("appends_merged_total", "Appends to a follower sent inside the previous append to it from the same round (one message, one reply).", func(x raftstore.Stats) uint64 { return x.AppendsMerged }),
		counter("snapshots_sent_total", "Region snapshots sent.", func(x raftstore.Stats) uint64 { return x.SnapshotsSent }),
		counter("snapshots_applied_total", "Region snapshots applied.", func(x raftstore.Stats) uint64 { return x.SnapshotsApplied }),
		gauge("regions", "Regions with a peer on this store.", func(x raftstore.Stats) int { return x.Regions }),
		gauge("leaders", "Regions this store leads.", func(x raftstore.Stats) int { return x.Leaders }),
	)
}
