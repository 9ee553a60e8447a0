package config

import (
	"runtime"
	"time"
)

// Config is the configuration of a strata process. One struct serves every
// role: the SQL server reads the TiDB-named keys, the storage node the
// TiKV-named ones and PD the PD-named ones; a key that a role does not use
// is harmless. Default returns the defaults; Load fills a file over them.
type Config struct {
	// SQL server (TiDB's top-level keys).

	// Host is the MySQL listen address (default "0.0.0.0").
	Host string `toml:"host"`
	// Port is the MySQL port (default 4000).
	Port int `toml:"port"`
	// AdvertiseAddress is the address other servers reach this one at.
	AdvertiseAddress string `toml:"advertise-address"`
	// Socket is a Unix socket to listen on as well.
	Socket string `toml:"socket"`
	// Store is the storage kind; TiDB's "tikv" and "unistore" are accepted
	// and mean the same to Strata (default "tikv").
	Store string `toml:"store"`
	// Path is TiDB's storage path: the PD or store endpoints of `strata
	// sql`, the data folder of `strata server`.
	Path string `toml:"path"`
	// Lease is the schema lease (default 45s).
	Lease Duration `toml:"lease"`
	// TokenLimit bounds concurrently executing sessions (default 1000).
	TokenLimit uint `toml:"token-limit"`
	// SplitTable gives each table a CREATE or TRUNCATE TABLE makes its own
	// region, as TiDB's split-table does. Default false, unlike TiDB: on
	// one small machine running every process (a playground), spreading
	// the tables' leaders over the stores cost 19-35% of sysbench
	// throughput; set it on a real deployment.
	SplitTable bool `toml:"split-table"`

	// PD (PD's top-level keys) and data directory.

	// DataDir is the data folder of PD and of `strata server` (PD's
	// data-dir; the storage node's is Storage.DataDir).
	DataDir string `toml:"data-dir"`
	// Name is the PD member name.
	Name string `toml:"name"`
	// ClientURLs are PD's client URLs (default "http://127.0.0.1:2379").
	ClientURLs string `toml:"client-urls"`
	// PeerURLs are PD's peer URLs (default "http://127.0.0.1:2380").
	PeerURLs string `toml:"peer-urls"`
	// AdvertiseClientURLs and AdvertisePeerURLs default to the above.
	AdvertiseClientURLs string `toml:"advertise-client-urls"`
	// AdvertisePeerURLs: see AdvertiseClientURLs.
	AdvertisePeerURLs string `toml:"advertise-peer-urls"`
	// InitialCluster is "name=peer-url,..." for bootstrapping PD.
	InitialCluster string `toml:"initial-cluster"`

	// LegacyLogLevel is TiKV's and PD's old top-level log-level; it sets
	// Log.Level when log.level is not given.
	LegacyLogLevel string `toml:"log-level"`
	// LegacyLogFile is the old top-level log-file.
	LegacyLogFile string `toml:"log-file"`

	// Log is [log].
	Log Log `toml:"log"`
	// Status is [status].
	Status Status `toml:"status"`
	// Security is [security].
	Security Security `toml:"security"`
	// Performance is [performance].
	Performance Performance `toml:"performance"`
	// PreparedPlanCache is [prepared-plan-cache].
	PreparedPlanCache PreparedPlanCache `toml:"prepared-plan-cache"`
	// TxnLocalLatches is [txn-local-latches].
	TxnLocalLatches TxnLocalLatches `toml:"txn-local-latches"`
	// TiKVClient is [tikv-client].
	TiKVClient TiKVClient `toml:"tikv-client"`
	// PessimisticTxn is [pessimistic-txn].
	PessimisticTxn PessimisticTxn `toml:"pessimistic-txn"`
	// Server is [server].
	Server Server `toml:"server"`
	// Storage is [storage].
	Storage Storage `toml:"storage"`
	// Raftstore is [raftstore].
	Raftstore Raftstore `toml:"raftstore"`
	// Coprocessor is [coprocessor].
	Coprocessor Coprocessor `toml:"coprocessor"`
	// ReadPool is [readpool].
	ReadPool ReadPool `toml:"readpool"`
	// RocksDB is [rocksdb].
	RocksDB RocksDB `toml:"rocksdb"`
	// RaftDB is [raftdb].
	RaftDB RaftDB `toml:"raftdb"`
	// Schedule is [schedule].
	Schedule Schedule `toml:"schedule"`
	// Replication is [replication].
	Replication Replication `toml:"replication"`
}

// Log is [log].
type Log struct {
	// Level is debug, info, warn, error or fatal (default "info").
	Level string `toml:"level"`
	// Format is text or json (default "text").
	Format string `toml:"format"`
	// SlowThreshold is TiDB's slow-query threshold in ms (default 300).
	SlowThreshold uint64 `toml:"slow-threshold"`
	// SlowQueryFile is where slow queries are logged.
	SlowQueryFile string `toml:"slow-query-file"`
	// File is [log.file].
	File LogFile `toml:"file"`
}

// LogFile is [log.file].
type LogFile struct {
	// Filename is the log file; empty logs to stderr.
	Filename string `toml:"filename"`
	// MaxSize is the rotation size in MB (default 300).
	MaxSize int `toml:"max-size"`
	// MaxDays keeps rotated files this many days (0: forever).
	MaxDays int `toml:"max-days"`
	// MaxBackups keeps this many rotated files (0: all).
	MaxBackups int `toml:"max-backups"`
}

// Status is [status] (TiDB): the HTTP status/metrics/pprof server.
type Status struct {
	// StatusHost is the listen host (default "0.0.0.0").
	StatusHost string `toml:"status-host"`
	// StatusPort is the port (default 10080).
	StatusPort int `toml:"status-port"`
	// ReportStatus enables the status server (default true).
	ReportStatus bool `toml:"report-status"`
	// MetricsAddr is a Prometheus push gateway (unused: Strata is scraped).
	MetricsAddr string `toml:"metrics-addr"`
	// MetricsInterval is the push interval in seconds (default 15).
	MetricsInterval uint `toml:"metrics-interval"`
	// RecordQPSByDB splits the query metrics by database (default false).
	RecordQPSByDB bool `toml:"record-db-qps"`
}

// Security is [security] with TiDB's and TiKV's key names.
type Security struct {
	// SSLCA, SSLCert and SSLKey are the MySQL clients' TLS files (TiDB).
	SSLCA string `toml:"ssl-ca"`
	// SSLCert: see SSLCA.
	SSLCert string `toml:"ssl-cert"`
	// SSLKey: see SSLCA.
	SSLKey string `toml:"ssl-key"`
	// ClusterSSLCA, ClusterSSLCert and ClusterSSLKey secure the SQL
	// server's connections to the cluster (TiDB).
	ClusterSSLCA string `toml:"cluster-ssl-ca"`
	// ClusterSSLCert: see ClusterSSLCA.
	ClusterSSLCert string `toml:"cluster-ssl-cert"`
	// ClusterSSLKey: see ClusterSSLCA.
	ClusterSSLKey string `toml:"cluster-ssl-key"`
	// CAPath, CertPath and KeyPath are TiKV's and PD's TLS files.
	CAPath string `toml:"ca-path"`
	// CertPath: see CAPath.
	CertPath string `toml:"cert-path"`
	// KeyPath: see CAPath.
	KeyPath string `toml:"key-path"`
}

// Performance is [performance] (TiDB).
type Performance struct {
	// MaxProcs is GOMAXPROCS (0: all CPUs).
	MaxProcs uint `toml:"max-procs"`
	// TxnTotalSizeLimit bounds a transaction's writes (default 100 MiB).
	TxnTotalSizeLimit ByteSize `toml:"txn-total-size-limit"`
	// TxnEntrySizeLimit bounds one key-value entry (default 6 MiB).
	TxnEntrySizeLimit ByteSize `toml:"txn-entry-size-limit"`
	// TCPKeepAlive and TCPNoDelay set the client sockets' options
	// (default true).
	TCPKeepAlive bool `toml:"tcp-keep-alive"`
	// TCPNoDelay: see TCPKeepAlive.
	TCPNoDelay bool `toml:"tcp-no-delay"`
	// CrossJoin allows joins without equality conditions (default true).
	CrossJoin bool `toml:"cross-join"`
	// StatsLease is the statistics reload period (default 3s).
	StatsLease Duration `toml:"stats-lease"`
	// RunAutoAnalyze enables automatic ANALYZE (default true).
	RunAutoAnalyze bool `toml:"run-auto-analyze"`
	// MaxTxnTTL is the longest a transaction may live, in ms (default
	// 3600000).
	MaxTxnTTL uint64 `toml:"max-txn-ttl"`
}

// PreparedPlanCache is [prepared-plan-cache].
type PreparedPlanCache struct {
	// Enabled turns the plan cache of prepared statements on (default
	// true).
	Enabled bool `toml:"enabled"`
	// Capacity is the number of cached plans per session (default 100).
	Capacity uint `toml:"capacity"`
	// MemoryGuardRatio keeps this share of memory free (default 0.1).
	MemoryGuardRatio float64 `toml:"memory-guard-ratio"`
}

// TxnLocalLatches is [txn-local-latches]: latches in the SQL server that
// serialize its own transactions on the same keys before commit.
type TxnLocalLatches struct {
	// Enabled (default false).
	Enabled bool `toml:"enabled"`
	// Capacity is the number of latch slots (default 2048000).
	Capacity uint `toml:"capacity"`
}

// TiKVClient is [tikv-client]: the SQL server's client of the storage
// nodes.
type TiKVClient struct {
	// GrpcConnectionCount is the number of connections per store
	// (default 4).
	GrpcConnectionCount uint `toml:"grpc-connection-count"`
	// GrpcKeepAliveTime and GrpcKeepAliveTimeout are in seconds (10, 3).
	GrpcKeepAliveTime uint `toml:"grpc-keepalive-time"`
	// GrpcKeepAliveTimeout: see GrpcKeepAliveTime.
	GrpcKeepAliveTimeout uint `toml:"grpc-keepalive-timeout"`
	// CommitTimeout bounds a commit (default 41s).
	CommitTimeout Duration `toml:"commit-timeout"`
	// MaxBatchSize is the most requests in one batch of the request
	// stream (default 128).
	MaxBatchSize uint `toml:"max-batch-size"`
	// MaxBatchWaitTime is how long a batch smaller than BatchWaitSize
	// waits to fill (default 0: never wait); an integer is nanoseconds,
	// as in TiDB. TiDB waits only while a store reports overload; stores
	// here report no load, so a set wait applies to every small batch.
	MaxBatchWaitTime Duration `toml:"max-batch-wait-time"`
	// BatchWaitSize is the batch size below which a busy batch waits
	// (default 8).
	BatchWaitSize uint `toml:"batch-wait-size"`
	// OverloadThreshold is accepted for TiDB's configs (default 200) and
	// has no effect: stores here report no load.
	OverloadThreshold uint `toml:"overload-threshold"`
	// RegionCacheTTL is in seconds (default 600).
	RegionCacheTTL uint `toml:"region-cache-ttl"`
	// StoreLimit bounds in-flight requests per store (0: none).
	StoreLimit int64 `toml:"store-limit"`
	// EnableChunkRPC returns coprocessor results as chunks (default true).
	EnableChunkRPC bool `toml:"enable-chunk-rpc"`
	// AsyncCommit is [tikv-client.async-commit].
	AsyncCommit AsyncCommitConf `toml:"async-commit"`
	// CoprCache is [tikv-client.copr-cache].
	CoprCache CoprCache `toml:"copr-cache"`
}

// AsyncCommitConf is [tikv-client.async-commit].
type AsyncCommitConf struct {
	// KeysLimit: transactions with more keys use 2PC (default 256).
	KeysLimit uint `toml:"keys-limit"`
	// TotalKeySizeLimit: transactions with more key bytes use 2PC
	// (default 4096).
	TotalKeySizeLimit uint64 `toml:"total-key-size-limit"`
	// SafeWindow and AllowedClockDrift bound commit ts staleness (2s,
	// 500ms).
	SafeWindow Duration `toml:"safe-window"`
	// AllowedClockDrift: see SafeWindow.
	AllowedClockDrift Duration `toml:"allowed-clock-drift"`
}

// CoprCache is [tikv-client.copr-cache].
type CoprCache struct {
	// CapacityMB is the coprocessor result cache size (default 1000).
	CapacityMB float64 `toml:"capacity-mb"`
}

// PessimisticTxn is [pessimistic-txn], with TiKV's and TiDB's keys.
type PessimisticTxn struct {
	// Pipelined answers lock requests before the lock is replicated
	// (TiKV, default true).
	Pipelined bool `toml:"pipelined"`
	// InMemory keeps pessimistic locks in memory only (TiKV, default
	// true).
	InMemory bool `toml:"in-memory"`
	// WaitForLockTimeout is how long a lock request waits before the
	// deadlock detector is asked (TiKV, default 1s).
	WaitForLockTimeout Duration `toml:"wait-for-lock-timeout"`
	// WakeUpDelayDuration delays waking other waiters (TiKV, default
	// 20ms).
	WakeUpDelayDuration Duration `toml:"wake-up-delay-duration"`
	// MaxRetryCount bounds statement retries in a pessimistic txn (TiDB,
	// default 256).
	MaxRetryCount uint `toml:"max-retry-count"`
	// DeadlockHistoryCapacity is TiDB's (default 10).
	DeadlockHistoryCapacity uint `toml:"deadlock-history-capacity"`
}

// Server is [server] (TiKV): the storage node's gRPC server.
type Server struct {
	// Addr is the gRPC listen address (default "127.0.0.1:20160").
	Addr string `toml:"addr"`
	// AdvertiseAddr is the address clients reach (default Addr).
	AdvertiseAddr string `toml:"advertise-addr"`
	// StatusAddr is the status server (default "127.0.0.1:20180").
	StatusAddr string `toml:"status-addr"`
	// AdvertiseStatusAddr defaults to StatusAddr.
	AdvertiseStatusAddr string `toml:"advertise-status-addr"`
	// GrpcConcurrency is the number of gRPC worker threads (default 5).
	GrpcConcurrency uint `toml:"grpc-concurrency"`
	// GrpcConcurrentStream bounds streams per connection (default 1024).
	GrpcConcurrentStream uint `toml:"grpc-concurrent-stream"`
	// GrpcRaftConnNum is the connections between stores (default 1).
	GrpcRaftConnNum uint `toml:"grpc-raft-conn-num"`
	// EnableRequestBatch serves batched request streams (default true).
	EnableRequestBatch bool `toml:"enable-request-batch"`
	// LocalSocket also serves gRPC on a unix socket of Linux's abstract
	// namespace named after the bound address (default true; not in TiKV;
	// skipped when advertise-addr differs from the bound address). Strata
	// processes of the same network namespace and user (or root) dial it
	// instead of TCP: on one machine running several processes (a
	// playground) a message costs less CPU. It bypasses netfilter rules on
	// the TCP port (kvproto.ListenLocal).
	LocalSocket bool `toml:"local-socket"`
	// Labels are the store's location labels (zone, host, ...).
	Labels map[string]string `toml:"labels"`
}

// Storage is [storage] (TiKV).
type Storage struct {
	// DataDir is the storage node's data folder (default "./").
	DataDir string `toml:"data-dir"`
	// SchedulerWorkerPoolSize is the command scheduler's worker count
	// (default 4, 8 with 16 CPUs or more).
	SchedulerWorkerPoolSize uint `toml:"scheduler-worker-pool-size"`
	// SchedulerConcurrency is the number of latch slots (default 524288).
	SchedulerConcurrency uint `toml:"scheduler-concurrency"`
	// ReserveSpace is disk kept free for recovery (default 5GiB).
	ReserveSpace ByteSize `toml:"reserve-space"`
	// BlockCache is [storage.block-cache].
	BlockCache BlockCache `toml:"block-cache"`
	// IOUringSync runs the engines' fsyncs through io_uring where the
	// kernel offers it (default true): the syncing goroutine parks, so
	// the process's few Ps go on running requests and raft messages
	// meanwhile (see internal/store/engine/syncring). False: the plain
	// system call, which holds its P for the whole fsync.
	IOUringSync bool `toml:"io-uring-sync"`
}

// BlockCache is [storage.block-cache].
type BlockCache struct {
	// Shared is one cache for all column families (default true).
	Shared bool `toml:"shared"`
	// Capacity is the cache size; 0 means the engine picks (45% of
	// memory, TiKV's rule).
	Capacity ByteSize `toml:"capacity"`
}

// Raftstore is [raftstore] (TiKV).
type Raftstore struct {
	// SyncLog fsyncs the raft log before acknowledging (default true).
	SyncLog bool `toml:"sync-log"`
	// StorePoolSize is the goroutines driving raft groups (default 2).
	StorePoolSize uint `toml:"store-pool-size"`
	// ApplyPoolSize is the goroutines applying committed entries
	// (default 2).
	ApplyPoolSize uint `toml:"apply-pool-size"`
	// StoreMaxBatchSize and ApplyMaxBatchSize bound the regions handled
	// per batch (default 256).
	StoreMaxBatchSize uint `toml:"store-max-batch-size"`
	// ApplyMaxBatchSize: see StoreMaxBatchSize.
	ApplyMaxBatchSize uint `toml:"apply-max-batch-size"`
	// RaftBaseTickInterval is the raft tick (default 1s).
	RaftBaseTickInterval Duration `toml:"raft-base-tick-interval"`
	// RaftHeartbeatTicks is ticks per heartbeat (default 2).
	RaftHeartbeatTicks uint `toml:"raft-heartbeat-ticks"`
	// RaftElectionTimeoutTicks is ticks per election timeout (default 10).
	RaftElectionTimeoutTicks uint `toml:"raft-election-timeout-ticks"`
	// RaftEntryMaxSize bounds one raft entry (default 8MiB).
	RaftEntryMaxSize ByteSize `toml:"raft-entry-max-size"`
	// RaftLogGCThreshold is the log length kept before compaction
	// (default 50).
	RaftLogGCThreshold uint64 `toml:"raft-log-gc-threshold"`
	// RaftMaxInflightMsgs bounds the appends a leader has in flight to
	// one follower, unacknowledged (default 256, TiKV's; 1..16384).
	// Fewer means fewer, larger appends under load: strata playground
	// sets 1, where every process shares one machine's CPUs.
	RaftMaxInflightMsgs int `toml:"raft-max-inflight-msgs"`
	// SplitRegionCheckTickInterval is the split check period (default
	// 10s).
	SplitRegionCheckTickInterval Duration `toml:"split-region-check-tick-interval"`
	// PDHeartbeatTickInterval is the region heartbeat period (default
	// 10s; TiKV's is 60s, but leaders here also report at once after a
	// leader change, conf change or split, or when a follower starts or
	// stops lagging).
	PDHeartbeatTickInterval Duration `toml:"pd-heartbeat-tick-interval"`
	// PDStoreHeartbeatTickInterval is the store heartbeat period (default
	// 10s).
	PDStoreHeartbeatTickInterval Duration `toml:"pd-store-heartbeat-tick-interval"`
	// HibernateRegions stops ticking idle regions (default true).
	HibernateRegions bool `toml:"hibernate-regions"`
}

// Coprocessor is [coprocessor] (TiKV): region split thresholds. A zero
// (unset) key takes TiKV's default, derived as TiKV v8.4+ derives it
// (RegionSizes).
type Coprocessor struct {
	// RegionMaxSize is the size that forces a split (default
	// region-split-size × 1.5).
	RegionMaxSize ByteSize `toml:"region-max-size"`
	// RegionSplitSize is the size of the pieces (default 256MiB, TiKV's
	// since v8.4; 96MiB before).
	RegionSplitSize ByteSize `toml:"region-split-size"`
	// RegionMaxKeys forces a split (default region-split-keys × 1.5).
	RegionMaxKeys uint64 `toml:"region-max-keys"`
	// RegionSplitKeys is the key count of the pieces (default 10,000 per
	// MiB of region-split-size: 2,560,000).
	RegionSplitKeys uint64 `toml:"region-split-keys"`
}

// DefaultRegionSplitSize is TiKV's region-split-size since v8.4.
const DefaultRegionSplitSize = 256 * MiB

// RegionSizes returns the four thresholds with the unset ones derived as
// TiKV derives them: split size 256MiB, split keys 10,000 per MiB of it
// (TiKV assumes 100-byte entries), and each max 1.5× its split value.
func (c Coprocessor) RegionSizes() (maxSize, splitSize ByteSize, maxKeys, splitKeys uint64) {
	splitSize = c.RegionSplitSize
	if splitSize == 0 {
		splitSize = DefaultRegionSplitSize
	}
	maxSize = c.RegionMaxSize
	if maxSize == 0 {
		maxSize = splitSize / 2 * 3
	}
	splitKeys = c.RegionSplitKeys
	if splitKeys == 0 {
		splitKeys = max(uint64(splitSize)*10000/uint64(MiB), 1)
	}
	maxKeys = c.RegionMaxKeys
	if maxKeys == 0 {
		maxKeys = splitKeys / 2 * 3
	}
	return maxSize, splitSize, maxKeys, splitKeys
}

// ReadPool is [readpool].
type ReadPool struct {
	// Unified is [readpool.unified].
	Unified UnifiedReadPool `toml:"unified"`
	// Storage is [readpool.storage].
	Storage PriorityPool `toml:"storage"`
	// Coprocessor is [readpool.coprocessor].
	Coprocessor PriorityPool `toml:"coprocessor"`
}

// UnifiedReadPool is [readpool.unified].
type UnifiedReadPool struct {
	// MinThreadCount and MaxThreadCount bound the pool (default 1 and
	// max(4, 80% of CPUs)).
	MinThreadCount uint `toml:"min-thread-count"`
	// MaxThreadCount: see MinThreadCount.
	MaxThreadCount uint `toml:"max-thread-count"`
	// StackSize is the worker stack size (default 10MiB; unused by Go).
	StackSize ByteSize `toml:"stack-size"`
	// MaxTasksPerWorker bounds queued tasks (default 2000).
	MaxTasksPerWorker uint `toml:"max-tasks-per-worker"`
}

// PriorityPool is [readpool.storage] / [readpool.coprocessor].
type PriorityPool struct {
	// UseUnifiedPool runs these reads on the unified pool (default true).
	UseUnifiedPool bool `toml:"use-unified-pool"`
	// HighConcurrency, NormalConcurrency, LowConcurrency size the
	// per-priority pools when not unified (default 4 each).
	HighConcurrency uint `toml:"high-concurrency"`
	// NormalConcurrency: see HighConcurrency.
	NormalConcurrency uint `toml:"normal-concurrency"`
	// LowConcurrency: see HighConcurrency.
	LowConcurrency uint `toml:"low-concurrency"`
}

// RocksDB is [rocksdb] (TiKV's kvdb; Strata's engine is Pebble, which takes
// the same knobs where it has them).
type RocksDB struct {
	// MaxBackgroundJobs bounds flushes and compactions (default 8).
	MaxBackgroundJobs int `toml:"max-background-jobs"`
	// MaxSubCompactions splits one compaction (default 3).
	MaxSubCompactions int `toml:"max-sub-compactions"`
	// MaxOpenFiles bounds open files (default 40960).
	MaxOpenFiles int `toml:"max-open-files"`
	// WALDir puts the WAL elsewhere.
	WALDir string `toml:"wal-dir"`
	// DefaultCF is [rocksdb.defaultcf].
	DefaultCF CFConfig `toml:"defaultcf"`
	// WriteCF is [rocksdb.writecf].
	WriteCF CFConfig `toml:"writecf"`
	// LockCF is [rocksdb.lockcf].
	LockCF CFConfig `toml:"lockcf"`
}

// RaftDB is [raftdb] (the raft log engine).
type RaftDB struct {
	// MaxBackgroundJobs bounds flushes and compactions (default 4).
	MaxBackgroundJobs int `toml:"max-background-jobs"`
	// AllowConcurrentMemtableWrite (default true).
	AllowConcurrentMemtableWrite bool `toml:"allow-concurrent-memtable-write"`
	// DefaultCF is [raftdb.defaultcf].
	DefaultCF CFConfig `toml:"defaultcf"`
}

// CFConfig is a column family's [rocksdb.<cf>] section.
type CFConfig struct {
	// BlockCacheSize is this CF's cache when the cache is not shared.
	BlockCacheSize ByteSize `toml:"block-cache-size"`
	// WriteBufferSize is the memtable size (0: the engine's default).
	WriteBufferSize ByteSize `toml:"write-buffer-size"`
	// MaxWriteBufferNumber bounds memtables (0: the engine's default).
	MaxWriteBufferNumber int `toml:"max-write-buffer-number"`
	// CompressionPerLevel names the compression of each level.
	CompressionPerLevel []string `toml:"compression-per-level"`
}

// Schedule is [schedule] (PD).
type Schedule struct {
	// MaxStoreDownTime is how long a store may be down before its
	// replicas are rebuilt elsewhere (default 30m).
	MaxStoreDownTime Duration `toml:"max-store-down-time"`
	// LeaderScheduleLimit bounds concurrent leader moves (default 4).
	LeaderScheduleLimit uint `toml:"leader-schedule-limit"`
	// RegionScheduleLimit bounds concurrent region moves (default 2048).
	RegionScheduleLimit uint `toml:"region-schedule-limit"`
	// ReplicaScheduleLimit bounds concurrent replica repairs (default 64).
	ReplicaScheduleLimit uint `toml:"replica-schedule-limit"`
	// MaxMergeRegionSize is in MiB (default 20).
	MaxMergeRegionSize uint64 `toml:"max-merge-region-size"`
	// MaxMergeRegionKeys (default 200000).
	MaxMergeRegionKeys uint64 `toml:"max-merge-region-keys"`
	// SplitMergeInterval forbids merging a region split this recently
	// (default 1h).
	SplitMergeInterval Duration `toml:"split-merge-interval"`
}

// Replication is [replication] (PD).
type Replication struct {
	// MaxReplicas is the replica count of every region (default 3).
	MaxReplicas uint `toml:"max-replicas"`
	// LocationLabels rank the store labels for isolation.
	LocationLabels []string `toml:"location-labels"`
}

// Default returns the defaults, TiDB's and TiKV's where the key is theirs.
func Default() *Config {
	ncpu := uint(runtime.NumCPU())
	schedPool := uint(4)
	if ncpu >= 16 {
		schedPool = 8
	}
	return &Config{
		Host: "0.0.0.0", Port: 4000, Store: "tikv", Lease: Duration(45 * time.Second),
		TokenLimit: 1000,
		ClientURLs: "http://127.0.0.1:2379", PeerURLs: "http://127.0.0.1:2380",
		Log:    Log{Level: "info", Format: "text", SlowThreshold: 300, File: LogFile{MaxSize: 300}},
		Status: Status{StatusHost: "0.0.0.0", StatusPort: 10080, ReportStatus: true, MetricsInterval: 15},
		Performance: Performance{
			TxnTotalSizeLimit: 100 * MiB, TxnEntrySizeLimit: 6 * MiB, TCPKeepAlive: true, TCPNoDelay: true,
			CrossJoin: true, StatsLease: Duration(3 * time.Second), RunAutoAnalyze: true, MaxTxnTTL: 3600000,
		},
		PreparedPlanCache: PreparedPlanCache{Enabled: true, Capacity: 100, MemoryGuardRatio: 0.1},
		TxnLocalLatches:   TxnLocalLatches{Enabled: false, Capacity: 2048000},
		TiKVClient: TiKVClient{
			GrpcConnectionCount: 4, GrpcKeepAliveTime: 10, GrpcKeepAliveTimeout: 3,
			CommitTimeout: Duration(41 * time.Second), MaxBatchSize: 128, BatchWaitSize: 8,
			OverloadThreshold: 200, RegionCacheTTL: 600, EnableChunkRPC: true,
			AsyncCommit: AsyncCommitConf{KeysLimit: 256, TotalKeySizeLimit: 4096,
				SafeWindow: Duration(2 * time.Second), AllowedClockDrift: Duration(500 * time.Millisecond)},
			CoprCache: CoprCache{CapacityMB: 1000},
		},
		PessimisticTxn: PessimisticTxn{Pipelined: true, InMemory: true, WaitForLockTimeout: Duration(time.Second),
			WakeUpDelayDuration: Duration(20 * time.Millisecond), MaxRetryCount: 256, DeadlockHistoryCapacity: 10},
		Server: Server{Addr: "127.0.0.1:20160", StatusAddr: "127.0.0.1:20180", GrpcConcurrency: 5,
			GrpcConcurrentStream: 1024, GrpcRaftConnNum: 1, EnableRequestBatch: true, LocalSocket: true},
		Storage: Storage{DataDir: "./", SchedulerWorkerPoolSize: schedPool, SchedulerConcurrency: 524288,
			ReserveSpace: 5 * GiB, BlockCache: BlockCache{Shared: true}, IOUringSync: true},
		Raftstore: Raftstore{SyncLog: true, StorePoolSize: 2, ApplyPoolSize: 2, StoreMaxBatchSize: 256,
			ApplyMaxBatchSize: 256, RaftBaseTickInterval: Duration(time.Second), RaftHeartbeatTicks: 2,
			RaftElectionTimeoutTicks: 10, RaftEntryMaxSize: 8 * MiB, RaftLogGCThreshold: 50, RaftMaxInflightMsgs: 256,
			SplitRegionCheckTickInterval: Duration(10 * time.Second), PDHeartbeatTickInterval: Duration(10 * time.Second),
			PDStoreHeartbeatTickInterval: Duration(10 * time.Second), HibernateRegions: true},
		ReadPool: ReadPool{
			Unified:     UnifiedReadPool{MinThreadCount: 1, MaxThreadCount: max(4, ncpu*8/10), StackSize: 10 * MiB, MaxTasksPerWorker: 2000},
			Storage:     PriorityPool{UseUnifiedPool: true, HighConcurrency: 4, NormalConcurrency: 4, LowConcurrency: 4},
			Coprocessor: PriorityPool{UseUnifiedPool: true, HighConcurrency: 4, NormalConcurrency: 4, LowConcurrency: 4},
		},
		RocksDB: RocksDB{MaxBackgroundJobs: 8, MaxSubCompactions: 3, MaxOpenFiles: 40960},
		RaftDB:  RaftDB{MaxBackgroundJobs: 4, AllowConcurrentMemtableWrite: true},
		Schedule: Schedule{MaxStoreDownTime: Duration(30 * time.Minute), LeaderScheduleLimit: 4,
			RegionScheduleLimit: 2048, ReplicaScheduleLimit: 64, MaxMergeRegionSize: 20,
			MaxMergeRegionKeys: 200000, SplitMergeInterval: Duration(time.Hour)},
		Replication: Replication{MaxReplicas: 3},
	}
}
