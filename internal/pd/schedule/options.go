package schedule

import (
	"io"
	"log/slog"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// Defaults of Options.
const (
	// DefaultDisconnectDuration: a store silent this long gets no new
	// peers (PD's 20 s; stores heartbeat every 10 s by default).
	DefaultDisconnectDuration = 20 * time.Second
	// DefaultPeerMoveTimeout bounds an operator that adds or removes
	// peers (a snapshot must reach the new peer).
	DefaultPeerMoveTimeout = 10 * time.Minute
	// DefaultLeaderTransferTimeout bounds an operator that only moves
	// leadership.
	DefaultLeaderTransferTimeout = 10 * time.Second
	// DefaultStoreLimit is how many operators may add a peer to one
	// store at once.
	DefaultStoreLimit = 8
	// DefaultHistorySize is how many retired operators the Controller
	// remembers.
	DefaultHistorySize = 128
	// DefaultScheduleInterval is the Coordinator's tick.
	DefaultScheduleInterval = time.Second
	// DefaultWarmUp is how long a new Coordinator waits for every region
	// to report its leader before it balances anyway.
	DefaultWarmUp = 2 * time.Minute
	// DefaultSchedulesPerTick bounds the operators one scheduler makes
	// per tick.
	DefaultSchedulesPerTick = 16
)

// Cluster is the metadata the scheduling core reads; *meta.Cluster
// implements it. Stores must come back sorted by id and Regions in key
// order (both do in meta), which keeps scheduling deterministic.
type Cluster interface {
	// Stores returns every store, by id.
	Stores() []*meta.StoreInfo
	// Store returns store id, or nil.
	Store(id uint64) *meta.StoreInfo
	// Regions returns every region in key order.
	Regions() []*meta.RegionInfo
	// Region returns region id, or nil.
	Region(id uint64) *meta.RegionInfo
}

var _ Cluster = (*meta.Cluster)(nil)

// Options are the inputs of the scheduling core besides the cluster: the
// clock, the ID allocator and the configuration. Zero values take the
// defaults above (Now: time.Now).
type Options struct {
	// Now is the clock (nil: time.Now). Tests pass a fake one: nothing
	// in the package reads the time otherwise.
	Now func() time.Time
	// AllocID hands out peer ids (PD's allocator). Without it, nothing
	// that adds a peer is scheduled (ErrNoIDAllocator).
	AllocID func() (uint64, error)
	// Config returns the cluster config (max-replicas, limits, ...),
	// read on every use so updates apply at once; nil means
	// meta.DefaultClusterConfig.
	Config func() meta.ClusterConfig
	// Send, if set, delivers an operator's first step to the region
	// leader's store as soon as the Coordinator creates it, instead of
	// waiting for the region's next heartbeat (PD server: SendToStore).
	Send func(storeID uint64, resp *pdpb.RegionHeartbeatResponse) error
	// Logger gets one line per operator created and retired; nil
	// discards.
	Logger *slog.Logger

	// Since is when this PD leader started to schedule: a store last
	// heard from before it counts as heard at Since, so that a new
	// leader (whose store heartbeat times come from storage) waits
	// max-store-down-time before it declares a store down. NewCoordinator
	// sets it to Now() when zero.
	Since time.Time
	// DisconnectDuration: a store silent longer is disconnected and gets
	// no new peers (default DefaultDisconnectDuration). A store silent
	// longer than max-store-down-time is down and loses its peers.
	DisconnectDuration time.Duration
	// PeerMoveTimeout and LeaderTransferTimeout bound operators (defaults
	// DefaultPeerMoveTimeout, DefaultLeaderTransferTimeout).
	PeerMoveTimeout time.Duration
	// LeaderTransferTimeout: see PeerMoveTimeout.
	LeaderTransferTimeout time.Duration
	// StoreLimit is how many running operators may add a peer to one
	// store (default DefaultStoreLimit).
	StoreLimit int
	// HistorySize is how many retired operators are kept (default
	// DefaultHistorySize).
	HistorySize int
	// LeaderTolerance: balance-leader moves a leader only when the
	// leader counts of the busiest and idlest stores differ by more
	// (default 1).
	LeaderTolerance int
	// RegionTolerance: the same for balance-region's region counts
	// (default 1).
	RegionTolerance int
	// ScheduleInterval is the Coordinator's tick (default
	// DefaultScheduleInterval).
	ScheduleInterval time.Duration
	// WarmUp: the balance schedulers wait, after Since, until every
	// region has reported a leader or WarmUp has passed (default
	// DefaultWarmUp).
	WarmUp time.Duration
	// SchedulesPerTick bounds the operators each scheduler makes per
	// tick (default DefaultSchedulesPerTick).
	SchedulesPerTick int
}

// withDefaults returns o with the zero values replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AllocID == nil {
		o.AllocID = func() (uint64, error) { return 0, ErrNoIDAllocator }
	}
	if o.Config == nil {
		o.Config = meta.DefaultClusterConfig
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.DisconnectDuration <= 0 {
		o.DisconnectDuration = DefaultDisconnectDuration
	}
	if o.PeerMoveTimeout <= 0 {
		o.PeerMoveTimeout = DefaultPeerMoveTimeout
	}
	if o.LeaderTransferTimeout <= 0 {
		o.LeaderTransferTimeout = DefaultLeaderTransferTimeout
	}
	if o.StoreLimit <= 0 {
		o.StoreLimit = DefaultStoreLimit
	}
	if o.HistorySize <= 0 {
		o.HistorySize = DefaultHistorySize
	}
	if o.LeaderTolerance <= 0 {
		o.LeaderTolerance = 1
	}
	if o.RegionTolerance <= 0 {
		o.RegionTolerance = 1
	}
	if o.ScheduleInterval <= 0 {
		o.ScheduleInterval = DefaultScheduleInterval
	}
	if o.WarmUp <= 0 {
		o.WarmUp = DefaultWarmUp
	}
	if o.SchedulesPerTick <= 0 {
		o.SchedulesPerTick = DefaultSchedulesPerTick
	}
	return o
}

// timeoutFor is the timeout of an operator with steps: peerMove if a
// step changes peers, else leaderTransfer.
func timeoutFor(steps []Step, peerMove, leaderTransfer time.Duration) time.Duration {
	for _, s := range steps {
		if _, ok := s.(TransferLeader); !ok {
			return peerMove
		}
	}
	return leaderTransfer
}
