package txnclient

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
)

// Oracle hands out timestamps (internal/pd/tso's Allocator satisfies it).
type Oracle interface {
	GetTimestamp(ctx context.Context) (uint64, error)
}

// Options are the client-wide defaults; transactions may override the
// commit protocol (Txn.EnableAsyncCommit, Txn.EnableOnePC).
type Options struct {
	// AsyncCommit enables async commit (tidb_enable_async_commit).
	AsyncCommit bool
	// OnePC enables one-phase commit (tidb_enable_1pc).
	OnePC bool
	// GuaranteeLinearizability fetches a fresh timestamp before an
	// async/1PC prewrite (tidb_guarantee_linearizability).
	GuaranteeLinearizability bool

	// LockTTL is the base TTL of prewrite locks in ms (default 3000).
	LockTTL uint64
	// ManagedLockTTL is the TTL a heartbeat advises beyond the txn's age,
	// in ms (default 20000).
	ManagedLockTTL uint64
	// HeartbeatInterval is the period of TxnHeartBeat while a commit is in
	// flight (default LockTTL/2). The first heartbeat fires one interval
	// after the primary is prewritten, so short commits never send one.
	HeartbeatInterval time.Duration
	// MaxTxnTTL stops heartbeats of a txn older than this (default 1h).
	MaxTxnTTL time.Duration
	// CommitBatchSize is the target size of one prewrite/commit batch in
	// bytes (default 16 KiB).
	CommitBatchSize int
	// ScanBatchSize is the size of a snapshot scan's first page (default
	// 256); each full page doubles the next up to MaxScanBatchSize
	// (default 4096).
	ScanBatchSize    int
	MaxScanBatchSize int
	// AsyncCommitKeysLimit and AsyncCommitKeySizeLimit bound the txns that
	// may use async commit (defaults 256 keys, 4 KiB of keys).
	AsyncCommitKeysLimit    int
	AsyncCommitKeySizeLimit int
	// ResolveLiteThreshold: locks of txns with fewer keys in the region are
	// resolved by key, bigger ones by scanning the region (default 512).
	ResolveLiteThreshold uint64
	// TxnTotalSizeLimit bounds a txn's buffered keys and values in bytes
	// (performance.txn-total-size-limit; default 100 MiB).
	TxnTotalSizeLimit int
	// Sleeper replaces the real wait of backoffs (nil: real sleep).
	Sleeper locate.Sleeper
	// RequestDuration, when set, observes each storage RPC attempt, in
	// seconds, by request type (locate.RequestType: "Get", "Prewrite",
	// ...): TiDB's tidb_tikvclient_request_seconds.
	RequestDuration prometheus.ObserverVec
	// TSOWait, when set, observes each wait for a timestamp (start,
	// commit, resolve), in seconds.
	TSOWait prometheus.Observer
}

func (o *Options) fillDefaults() {
	if o.LockTTL == 0 {
		o.LockTTL = 3000
	}
	if o.ManagedLockTTL == 0 {
		o.ManagedLockTTL = 20000
	}
	if o.HeartbeatInterval == 0 {
		o.HeartbeatInterval = time.Duration(o.LockTTL/2) * time.Millisecond
	}
	if o.MaxTxnTTL == 0 {
		o.MaxTxnTTL = time.Hour
	}
	if o.CommitBatchSize == 0 {
		o.CommitBatchSize = 16 << 10
	}
	if o.ScanBatchSize == 0 {
		o.ScanBatchSize = 256
	}
	if o.MaxScanBatchSize == 0 {
		o.MaxScanBatchSize = 4096
	}
	o.MaxScanBatchSize = max(o.MaxScanBatchSize, o.ScanBatchSize)
	if o.AsyncCommitKeysLimit == 0 {
		o.AsyncCommitKeysLimit = 256
	}
	if o.AsyncCommitKeySizeLimit == 0 {
		o.AsyncCommitKeySizeLimit = 4 << 10
	}
	if o.TxnTotalSizeLimit == 0 {
		o.TxnTotalSizeLimit = 100 << 20
	}
	if o.ResolveLiteThreshold == 0 {
		o.ResolveLiteThreshold = 512
	}
}

// Client starts transactions against a cluster of regions.
type Client struct {
	sender   *locate.RegionRequestSender
	oracle   Oracle
	async    AsyncOracle // oracle's asynchronous side, if it has one (BeginLazy)
	opts     Options
	resolver *LockResolver

	// bg tracks background work (secondary commits) so Close can wait.
	bg sync.WaitGroup

	// hooks let tests in this package step through a commit.
	hooks testHooks
}

// testHooks are nil in production.
type testHooks struct {
	// newTicker replaces time.NewTicker for the heartbeat loop.
	newTicker func(d time.Duration) (<-chan time.Time, func())
	// onHeartbeat runs after each heartbeat attempt.
	onHeartbeat func(ttl uint64, err error)
	// afterPrewrite runs once all prewrites succeeded, before the commit.
	afterPrewrite func()
	// skipSecondaries drops the background commit of secondaries (a
	// coordinator that dies after committing the primary).
	skipSecondaries bool
}

// New returns a Client that reaches stores through rpcClient, learns
// regions from regions and takes timestamps from oracle.
func New(rpcClient rpc.Client, regions locate.RegionSource, oracle Oracle, opts Options) *Client {
	opts.fillDefaults()
	sender := locate.NewRegionRequestSender(locate.NewRegionCache(regions), rpcClient)
	if opts.RequestDuration != nil {
		sender.ObserveRequests(opts.RequestDuration)
	}
	async, _ := oracle.(AsyncOracle)
	if opts.TSOWait != nil {
		oracle = timedOracle{oracle, opts.TSOWait}
		if async != nil {
			async = timedAsync{async, opts.TSOWait}
		}
	}
	c := &Client{
		sender: sender,
		oracle: oracle,
		async:  async,
		opts:   opts,
	}
	c.resolver = newLockResolver(c)
	return c
}

// LockResolver returns the client's lock resolver.
func (c *Client) LockResolver() *LockResolver { return c.resolver }

// Close waits for background commits of secondaries to finish. It does not
// close the rpc.Client, which the caller owns.
func (c *Client) Close() error {
	c.bg.Wait()
	return nil
}

// Begin starts a transaction at a fresh timestamp.
func (c *Client) Begin(ctx context.Context) (*Txn, error) {
	ts, err := c.oracle.GetTimestamp(ctx)
	if err != nil {
		return nil, err
	}
	return c.BeginAt(ts), nil
}

// BeginAt starts a transaction whose snapshot is startTS.
func (c *Client) BeginAt(startTS uint64) *Txn {
	return &Txn{
		c:               c,
		snap:            newSnapshot(c, startTS),
		buf:             newMemBuffer(),
		began:           time.Now(),
		asyncCommit:     c.opts.AsyncCommit,
		onePC:           c.opts.OnePC,
		linearizability: c.opts.GuaranteeLinearizability,
	}
}

// newBackoffer returns a Backoffer with budget maxMs and the client's
// sleeper.
func (c *Client) newBackoffer(ctx context.Context, maxMs int) *locate.Backoffer {
	if c.opts.Sleeper != nil {
		return locate.NewBackofferWithSleeper(ctx, maxMs, c.opts.Sleeper)
	}
	return locate.NewBackoffer(ctx, maxMs)
}

// physicalMs returns the physical part of a TSO timestamp.
func physicalMs(ts uint64) uint64 { return ts >> 18 }
