package raftstore

import (
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Config tunes a Store. Zero fields take the defaults named.
type Config struct {
	// StoreID is this store's id (from PD).
	StoreID uint64
	// SyncLog fsyncs the raft log before a write is acknowledged
	// (raftstore.sync-log, default true in the config file; here the
	// caller decides).
	SyncLog bool
	// StorePoolSize is the number of raft loops (raftstore.store-pool-size,
	// default 2); ApplyPoolSize the number of apply workers
	// (raftstore.apply-pool-size, default 2).
	StorePoolSize int
	ApplyPoolSize int
	// TickInterval is raft's base tick (default 100ms); ElectionTicks
	// (default 10) and HeartbeatTicks (default 2) count in it.
	TickInterval   time.Duration
	ElectionTicks  int
	HeartbeatTicks int
	// MaxInflightMsgs bounds the appends a leader has in flight to one
	// follower (raftstore.raft-max-inflight-msgs, default 256). With few,
	// appends proposed while the window is full wait and leave together
	// once the follower acknowledges: fewer, larger appends, at the
	// price of up to one more follower round trip of latency under load.
	MaxInflightMsgs int
	// RaftLogGCInterval is how often a leader considers truncating its log
	// (default 3s); RaftLogGCThreshold the number of applied entries kept
	// (default 50); RaftLogGCCountLimit the log length above which a
	// leader truncates past a lagging follower, by at most half the log
	// (default 10000; a follower left behind gets a snapshot).
	RaftLogGCInterval   time.Duration
	RaftLogGCThreshold  uint64
	RaftLogGCCountLimit uint64
	// SplitCheckInterval is how often a leader checks its region's size
	// (default 10s). A region above RegionMaxSize bytes or RegionMaxKeys
	// keys splits into pieces of RegionSplitSize / RegionSplitKeys
	// (defaults as TiKV v8.4+: 384/256 MiB and 3,840,000/2,560,000 keys;
	// config.Coprocessor.RegionSizes derives unset ones from the others).
	SplitCheckInterval time.Duration
	RegionMaxSize      uint64
	RegionSplitSize    uint64
	RegionMaxKeys      uint64
	RegionSplitKeys    uint64
	// PDHeartbeatInterval is how often leaders report their regions to PD
	// (default 2s; a new leader and a split report at once);
	// StoreHeartbeatInterval how often the store reports itself (default
	// 2s).
	PDHeartbeatInterval    time.Duration
	StoreHeartbeatInterval time.Duration
	// HandoffWait bounds how long a leader transfer waits for the writes
	// in flight whose pessimistic locks its hand-off left out (default
	// 500ms; see LockHandoff).
	HandoffWait time.Duration
	// Logger receives the store's logs (default slog.Default()).
	Logger *slog.Logger
	// Latency receives the durations the store measures; nil observers
	// are skipped.
	Latency Latency
}

// Latency observes, in seconds, the stages of a write through raft (the
// meaning of TiKV's series of the same names).
type Latency struct {
	// AppendLog: one raftdb write of the raft loops' entries and state,
	// with its fsync when synced (tikv_raftstore_append_log_duration_seconds).
	AppendLog prometheus.Observer
	// CommitLog: a proposal of this leader, from proposing it to raft
	// until its entry is committed and durable here
	// (tikv_raftstore_commit_log_duration_seconds).
	CommitLog prometheus.Observer
	// Apply: a committed proposal of this leader, from commit until it
	// applied to kvdb and its proposer was answered.
	Apply prometheus.Observer
}

func (c *Config) fill() {
	if c.StorePoolSize <= 0 {
		c.StorePoolSize = 2
	}
	if c.ApplyPoolSize <= 0 {
		c.ApplyPoolSize = 2
	}
	if c.TickInterval <= 0 {
		c.TickInterval = 100 * time.Millisecond
	}
	if c.ElectionTicks <= 0 {
		c.ElectionTicks = 10
	}
	if c.HeartbeatTicks <= 0 {
		c.HeartbeatTicks = 2
	}
	if c.MaxInflightMsgs <= 0 {
		c.MaxInflightMsgs = 256
	}
	if c.RaftLogGCInterval <= 0 {
		c.RaftLogGCInterval = 3 * time.Second
	}
	if c.RaftLogGCThreshold == 0 {
		c.RaftLogGCThreshold = 50
	}
	if c.RaftLogGCCountLimit == 0 {
		c.RaftLogGCCountLimit = 10000
	}
	if c.SplitCheckInterval <= 0 {
		c.SplitCheckInterval = 10 * time.Second
	}
	if c.RegionSplitSize == 0 {
		c.RegionSplitSize = 256 << 20
	}
	if c.RegionMaxSize == 0 {
		c.RegionMaxSize = c.RegionSplitSize / 2 * 3
	}
	if c.RegionSplitKeys == 0 {
		c.RegionSplitKeys = 2_560_000
	}
	if c.RegionMaxKeys == 0 {
		c.RegionMaxKeys = c.RegionSplitKeys / 2 * 3
	}
	if c.PDHeartbeatInterval <= 0 {
		c.PDHeartbeatInterval = 2 * time.Second
	}
	if c.StoreHeartbeatInterval <= 0 {
		c.StoreHeartbeatInterval = 2 * time.Second
	}
	if c.HandoffWait <= 0 {
		c.HandoffWait = 500 * time.Millisecond
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// electionTimeout is ElectionTicks of TickInterval.
func (c *Config) electionTimeout() time.Duration {
	return time.Duration(c.ElectionTicks) * c.TickInterval
}

// maxLease is how long a leader serves reads locally after a quorum
// acknowledged something it sent: below the election timeout by two
// ticks (one for the randomised timeout's floor, one for clock drift),
// so no rival can have been elected meanwhile (CheckQuorum + PreVote).
func (c *Config) maxLease() time.Duration {
	return time.Duration(c.ElectionTicks-2) * c.TickInterval
}
