package main

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/store/engine/syncring"
	"github.com/strata-db/strata/internal/store/raftstore"
	"github.com/strata-db/strata/internal/store/txn"
)

// latencyBuckets run from 50 µs, doubling, to about 26 s.
var latencyBuckets = prometheus.ExponentialBuckets(50e-6, 2, 20)

func latencyHistogram(name, help string) prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets})
}

// latencyByType is a latency histogram with a "type" label.
func latencyByType(name, help string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets}, []string{"type"})
}

// kvLatency are the storage node's latency series: where a request's time
// goes, under the meanings of TiKV's series of the same names.
type kvLatency struct {
	requests                    *prometheus.HistogramVec
	latch                       prometheus.Histogram
	appendLog, commitLog, apply prometheus.Histogram
}

func newKVLatency() *kvLatency {
	return &kvLatency{
		requests: latencyByType("strata_grpc_msg_duration_seconds",
			"Storage requests of BatchCommands streams, from receipt to the answer queued for sending, by command."),
		latch: latencyHistogram("strata_scheduler_latch_wait_duration_seconds",
			"Time write commands waited for their keys' latches."),
		appendLog: latencyHistogram("strata_raftstore_append_log_duration_seconds",
			"Raft log writes to raftdb, with their fsync when synced."),
		commitLog: latencyHistogram("strata_raftstore_commit_log_duration_seconds",
			"Proposals of a leader, from proposing to raft until committed and durable on the leader."),
		apply: latencyHistogram("strata_raftstore_apply_duration_seconds",
			"Committed proposals of a leader, from commit until applied and answered."),
	}
}

// raft returns the raftstore's observers.
func (l *kvLatency) raft() raftstore.Latency {
	return raftstore.Latency{AppendLog: l.appendLog, CommitLog: l.commitLog, Apply: l.apply}
}

func (l *kvLatency) collectors() []prometheus.Collector {
	return []prometheus.Collector{l.requests, l.latch, l.appendLog, l.commitLog, l.apply}
}

// lockWaitersGauge is the number of pessimistic lock requests of storage
// waiting for another transaction's lock.
func lockWaitersGauge(storage *txn.Storage) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "strata_lock_manager_waiters",
		Help: "Pessimistic lock requests waiting for another transaction's lock."},
		func() float64 { return float64(storage.LockWaiters()) })
}

// storageMetrics are storage's own series: its lock waiters, its
// newest-write record's counts and how its engines' fsyncs ran.
func storageMetrics(storage *txn.Storage) []prometheus.Collector {
	return append(newestWritesMetrics(storage), lockWaitersGauge(storage), fsyncCounter("io_uring"), fsyncCounter("fallback"))
}

// fsyncCounter counts the engines' fsyncs that went through io_uring
// (path "io_uring") or fell back to the system call (path "fallback": the
// ring full, or refusing the operation). Both stay 0 when io_uring is off
// or unavailable: every fsync is then the plain system call.
func fsyncCounter(path string) prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "strata_engine_ring_fsyncs_total",
		Help:        "Engine fsyncs run through io_uring (io_uring) or by the system call when the ring was full or refused them (fallback); 0 and 0 when io_uring is off or unavailable.",
		ConstLabels: prometheus.Labels{"path": path}},
		func() float64 {
			sub, fb := syncring.SharedStats()
			if path == "io_uring" {
				return float64(sub)
			}
			return float64(fb)
		})
}

// newestWritesMetrics are the counts of storage's newest-write record.
func newestWritesMetrics(storage *txn.Storage) []prometheus.Collector {
	counter := func(name, help, result string, f func(txn.NewestWritesStats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help,
			ConstLabels: prometheus.Labels{"result": result}},
			func() float64 { return float64(f(storage.NewestWritesStats())) })
	}
	const lookups = "Point reads and newer-version checks of storage's newest-write record: answered (hit) or sought in the engine (miss)."
	const offers = "Seek answers offered to storage's newest-write record: taken, or refused because a write may have raced them."
	return []prometheus.Collector{
		counter("strata_newest_writes_lookups_total", lookups, "hit", func(s txn.NewestWritesStats) uint64 { return s.Hits }),
		counter("strata_newest_writes_lookups_total", lookups, "miss", func(s txn.NewestWritesStats) uint64 { return s.Misses }),
		counter("strata_newest_writes_offers_total", offers, "taken", func(s txn.NewestWritesStats) uint64 { return s.Taken }),
		counter("strata_newest_writes_offers_total", offers, "refused", func(s txn.NewestWritesStats) uint64 { return s.Refused }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "strata_newest_writes_bytes",
			Help: "Memory held by storage's newest-write record."},
			func() float64 { return float64(storage.NewestWritesStats().Bytes) }),
	}
}

// clientLatency are the SQL layer's storage client series (TiDB's
// tidb_tikvclient_request_seconds, and the wait for timestamps).
type clientLatency struct {
	requests *prometheus.HistogramVec
	tso      prometheus.Histogram
}

func newClientLatency() *clientLatency {
	return &clientLatency{
		requests: latencyByType("strata_tikvclient_request_seconds",
			"Storage RPC attempts as the SQL layer saw them, by request type."),
		tso: latencyHistogram("strata_tikvclient_tso_wait_seconds",
			"Time transactions waited for a timestamp."),
	}
}

func (l *clientLatency) collectors() []prometheus.Collector {
	return []prometheus.Collector{l.requests, l.tso}
}
