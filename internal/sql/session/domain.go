package session

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/statistics"
)

// DomainConfig wires a Domain.
type DomainConfig struct {
	// Client reaches the cluster.
	Client *txnclient.Client
	// ServerInfo describes this server to the system variables
	// (version, hostname, port, ...).
	ServerInfo sysvar.ServerInfo
	// Logger logs; nil means slog.Default().
	Logger *slog.Logger
	// Metrics registers the SQL layer's Prometheus series; nil: none.
	Metrics prometheus.Registerer
	// DisablePlanCache is prepared-plan-cache.enabled = false: prepared
	// statements are planned at every execution, whatever
	// tidb_enable_prepared_plan_cache says.
	DisablePlanCache bool
	// SplitTable is split-table: each table a CREATE or TRUNCATE TABLE
	// makes gets its own region (split at its key prefix, in the
	// background, as TiDB does without tidb_scatter_region).
	SplitTable bool
	// TSOStreams, if set, receives the number of TSO requests the PD
	// client may have on the wire at once, from
	// @@GLOBAL.tidb_tso_client_rpc_mode (DEFAULT 1, PARALLEL 2,
	// PARALLEL-FAST 4), at start and whenever the variable changes.
	TSOStreams func(n int)
}

// Domain is the per-process SQL state shared by every session. It
// implements server.Backend.
type Domain struct {
	client  *txnclient.Client
	reg     *sysvar.Registry
	globals *sysvar.GlobalStore
	catalog *catalog.Catalog
	privs   *privilege.Store
	stats   *statistics.Handle
	log     *slog.Logger
	metrics *metrics
	tsoMode tsoMode
	// noPlanCache is DomainConfig.DisablePlanCache.
	noPlanCache bool
	// bigStmts bounds the big statements in flight (see byteGate).
	bigStmts *byteGate

	mu       sync.Mutex
	sessions map[uint32]*Session
	kill     func(connID uint32, query bool) bool
}

var _ server.Backend = (*Domain)(nil)

// NewDomain loads the GLOBAL system variables from the cluster and returns
// the Domain.
func NewDomain(ctx context.Context, cfg DomainConfig) (*Domain, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Domain{
		client:      cfg.Client,
		reg:         sysvar.NewRegistry(cfg.ServerInfo),
		log:         cfg.Logger,
		metrics:     newMetrics(cfg.Metrics),
		noPlanCache: cfg.DisablePlanCache,
		bigStmts:    newByteGate(bigStmtBytes),
		sessions:    map[uint32]*Session{},
	}
	registerStatsVars(d.reg)
	d.globals = sysvar.NewGlobalStore(d.reg, d.begin)
	if _, err := d.globals.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("load global variables: %w", err)
	}
	d.tsoMode.set = cfg.TSOStreams
	d.applyTSOMode()
	if err := d.initPrivileges(ctx); err != nil {
		return nil, err
	}
	copts := catalog.Options{}
	if cfg.SplitTable {
		copts.OnNewTable = d.splitTable
	}
	d.catalog = catalog.New(d.begin, copts)
	if _, err := d.catalog.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("load schema: %w", err)
	}
	d.stats = statistics.NewHandle(d.begin, nil)
	if err := d.stats.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("load statistics: %w", err)
	}
	return d, nil
}

// begin starts a transaction (kv.Transaction, for the packages that take
// a begin function).
func (d *Domain) begin(ctx context.Context) (kv.Transaction, error) {
	return d.client.Begin(ctx)
}

// Catalog returns the schema catalog.
func (d *Domain) Catalog() *catalog.Catalog { return d.catalog }

// Registry returns the system variable registry.
func (d *Domain) Registry() *sysvar.Registry { return d.reg }

// Globals returns the store of GLOBAL variables.
func (d *Domain) Globals() *sysvar.GlobalStore { return d.globals }

// Open implements server.Backend.
func (d *Domain) Open(ctx context.Context, c server.ConnInfo) (server.Session, error) {
	s := newSession(d, c)
	if c.DB != "" {
		if err := s.UseDB(ctx, c.DB); err != nil {
			return nil, err
		}
	}
	d.mu.Lock()
	d.sessions[c.ID] = s
	d.mu.Unlock()
	d.metrics.conns.Inc()
	d.metrics.connections.Add(1)
	return s, nil
}

// forget removes a closed session.
func (d *Domain) forget(id uint32) {
	d.mu.Lock()
	delete(d.sessions, id)
	d.mu.Unlock()
	d.metrics.conns.Dec()
}

// GOGCTunerEnabled reports @@GLOBAL.tidb_enable_gogc_tuner.
func (d *Domain) GOGCTunerEnabled() bool {
	v, _ := d.globals.Globals().Get("tidb_enable_gogc_tuner")
	return v != "OFF"
}
