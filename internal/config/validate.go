package config

import (
	"fmt"
	"log/slog"
	"strings"
)

// MaxRaftInflightMsgs is the largest raftstore.raft-max-inflight-msgs
// (TiKV's bound).
const MaxRaftInflightMsgs = 16384

// Validate checks the values that have a fixed range; the error names the
// key.
func (c *Config) Validate() error {
	if _, ok := logLevels[strings.ToLower(c.Log.Level)]; !ok {
		return fmt.Errorf("config: key \"log.level\": invalid level %q (want debug, info, warn, error or fatal)", c.Log.Level)
	}
	if f := strings.ToLower(c.Log.Format); f != "text" && f != "json" {
		return fmt.Errorf("config: key \"log.format\": invalid format %q (want text or json)", c.Log.Format)
	}
	for _, p := range []struct {
		key string
		v   int
	}{{"port", c.Port}, {"status.status-port", c.Status.StatusPort}} {
		if p.v < 0 || p.v > 65535 {
			return fmt.Errorf("config: key %q: port %d out of range", p.key, p.v)
		}
	}
	for _, p := range []struct {
		key string
		v   uint
	}{
		{"tikv-client.grpc-connection-count", c.TiKVClient.GrpcConnectionCount},
		{"tikv-client.max-batch-size", c.TiKVClient.MaxBatchSize},
		{"prepared-plan-cache.capacity", c.PreparedPlanCache.Capacity},
		{"raftstore.store-pool-size", c.Raftstore.StorePoolSize},
		{"raftstore.apply-pool-size", c.Raftstore.ApplyPoolSize},
		{"server.grpc-concurrency", c.Server.GrpcConcurrency},
		{"storage.scheduler-worker-pool-size", c.Storage.SchedulerWorkerPoolSize},
		{"readpool.unified.max-thread-count", c.ReadPool.Unified.MaxThreadCount},
		{"replication.max-replicas", c.Replication.MaxReplicas},
	} {
		if p.v == 0 {
			return fmt.Errorf("config: key %q: must be at least 1", p.key)
		}
	}
	if n := c.Raftstore.RaftMaxInflightMsgs; n < 1 || n > MaxRaftInflightMsgs {
		return fmt.Errorf("config: key \"raftstore.raft-max-inflight-msgs\": %d out of range (1..%d)", n, MaxRaftInflightMsgs)
	}
	if c.ReadPool.Unified.MinThreadCount > c.ReadPool.Unified.MaxThreadCount {
		return fmt.Errorf("config: key \"readpool.unified.min-thread-count\": %d is above max-thread-count %d",
			c.ReadPool.Unified.MinThreadCount, c.ReadPool.Unified.MaxThreadCount)
	}
	if c.Performance.TxnTotalSizeLimit == 0 || c.Performance.TxnTotalSizeLimit > TiB {
		return fmt.Errorf("config: key \"performance.txn-total-size-limit\": %d out of range (1B..1TiB)", c.Performance.TxnTotalSizeLimit)
	}
	if c.Performance.TxnEntrySizeLimit == 0 || c.Performance.TxnEntrySizeLimit > 120*MiB {
		return fmt.Errorf("config: key \"performance.txn-entry-size-limit\": %d out of range (1B..120MiB)", c.Performance.TxnEntrySizeLimit)
	}
	maxSize, splitSize, maxKeys, splitKeys := c.Coprocessor.RegionSizes()
	if maxSize < splitSize {
		return fmt.Errorf("config: key \"coprocessor.region-max-size\": %v is below region-split-size %v", maxSize, splitSize)
	}
	if maxKeys < splitKeys {
		return fmt.Errorf("config: key \"coprocessor.region-max-keys\": %d is below region-split-keys %d", maxKeys, splitKeys)
	}
	if c.TiKVClient.MaxBatchWaitTime < 0 {
		return fmt.Errorf("config: key \"tikv-client.max-batch-wait-time\": negative")
	}
	return nil
}

var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "warning": slog.LevelWarn,
	"error": slog.LevelError, "fatal": slog.LevelError + 4,
}

// SlogLevel is log.level as a slog.Level (fatal is above error).
func (c *Config) SlogLevel() slog.Level { return logLevels[strings.ToLower(c.Log.Level)] }
