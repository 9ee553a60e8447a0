// Package config is the TOML configuration of strata processes.
//
// Keys follow TiDB's, TiKV's and PD's names where the meaning is the same
// (log.level, prepared-plan-cache.enabled, performance.txn-total-size-limit,
// txn-local-latches.enabled, tikv-client.grpc-connection-count,
// raftstore.sync-log, raftstore.store-pool-size, readpool.unified.*, ...),
// so that a TiDB user's files carry over. One Config struct serves every
// role; each process reads the sections it uses.
//
// # Loading
//
//	Default()            every key with its default (TiDB's/TiKV's)
//	   │
//	Load(file) / Parse   TOML over the defaults, then Validate
//	   │                 flattened keys ("raftstore.sync-log" = true, as
//	   │                 TiUP's server_configs write them) are expanded
//	   │                 and applied one by one, with the same types
//	Apply(map)           a topology's server_configs map over a Config
//
// # Rules
//
//   - A key Strata does not know is accepted and reported as a warning
//     (one per unknown table or key, from toml.MetaData.Undecoded), never
//     an error, so TiDB/TiKV files and scripts run unchanged.
//   - A value of the wrong type, a malformed file, or a value out of its
//     range is an error that names the key and, where known, the line.
//   - Sizes (ByteSize) take bytes or TiKV's "512MiB"/"4GB" strings;
//     durations (Duration) take "10s"/"1h30m"/"7d" strings or integer
//     nanoseconds (TiDB's max-batch-wait-time).
//
// The package does no I/O besides Load's one read of the file.
package config
