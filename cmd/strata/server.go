package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/pd/tso"
	sqlserver "github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/status"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/raftstore"
	storeserver "github.com/strata-db/strata/internal/store/server"
)

// embeddedStore names the in-process store in the region cache.
const embeddedStore = "embedded"

// runServer is `strata server`: the storage node, the TSO and the SQL
// server in one process, wired by direct calls (no gRPC), data in one
// folder.
func runServer(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata server", flag.ContinueOnError)
	dataDir := fs.String("data-dir", "./strata-data", "data directory")
	var sf sqlFlags
	sf.register(fs)
	return runDaemon(fs, args, stderr, func(ctx context.Context, log *slog.Logger, cfg *config.Config) error {
		return serveEmbedded(ctx, log, cfg, stdout, *dataDir, sf)
	})
}

func serveEmbedded(ctx context.Context, log *slog.Logger, cfg *config.Config, stdout io.Writer, dataDir string, sf sqlFlags) error {
	if err := os.MkdirAll(filepath.Join(dataDir, "pd"), 0o755); err != nil {
		return err
	}
	kv, raftdb, err := storeserver.OpenEngines(dataDir, engine.Options{CacheSize: blockCacheSize(cfg), Logger: pebbleLogger{log},
		IOUringSync: cfg.Storage.IOUringSync})
	if err != nil {
		return err
	}
	defer kv.Close()
	defer raftdb.Close()
	oracle, err := tso.New(time.Now, tso.NewFileWindowStore(filepath.Join(dataDir, "pd", "tso-window")), tso.Options{})
	if err != nil {
		return err
	}
	pd, err := newLocalPD(oracle, filepath.Join(dataDir, "pd", "id-window"))
	if err != nil {
		return err
	}
	if has, err := raftstore.HasRegions(kv); err != nil {
		return err
	} else if !has {
		// The whole key space, one replica; data written before the
		// raftstore existed is simply inside it.
		if err := raftstore.Bootstrap(kv, raftdb, storeserver.Region()); err != nil {
			return err
		}
	}
	lat := newKVLatency()
	rcfg := raftConfig(cfg, log)
	rcfg.StoreID = storeserver.StoreID
	rcfg.Latency = lat.raft()
	rs, err := raftstore.NewStore(rcfg, raftstore.Deps{KV: kv, RaftDB: raftdb, PD: pd})
	if err != nil {
		return err
	}
	topts := txnOptions(cfg)
	topts.LatchWait = lat.latch
	storage := storeserver.NewRaftStorage(rs, topts)
	rs.Start()
	defer rs.Stop()
	defer storage.Close()
	node := storeserver.NewNodeWithOptions(storage, embeddedStore, storeserver.Options{Logger: log, Router: rs, Splitter: rs})
	return serveSQL(ctx, log, cfg, sqlWiring{
		role: "server", rpc: rpc.NewDirect(embeddedStore, node), storeAddr: embeddedStore,
		dataDir: dataDir, host: sf.host, port: sf.port, statusPort: sf.statusPort,
		stdout: stdout, oracle: oracle, regions: storeRegions{s: rs, addr: embeddedStore},
		// The embedded node is called directly: its BatchCommands series
		// stays empty.
		metrics: append(lat.collectors(), storageMetrics(storage)...),
	})
}

// sqlWiring is what differs between `strata server` and `strata sql`.
type sqlWiring struct {
	role       string
	rpc        rpc.Client
	storeAddr  string
	tsoDir     string // where the TSO persists its window
	dataDir    string
	host       string
	port       int
	statusPort int
	stdout     io.Writer
	// oracle and regions, when set, replace the local TSO and the single
	// static region (a cluster's PD).
	oracle  txnclient.Oracle
	regions locate.RegionSource
	// tsoStreams applies @@GLOBAL.tidb_tso_client_rpc_mode to the PD
	// client (nil: the local TSO, which has no requests on a wire).
	tsoStreams func(n int)
	// metrics are more series for the status port (the embedded store's).
	metrics []prometheus.Collector
}

// serveSQL runs the SQL layer over a store until ctx ends: TSO, transaction
// client, session domain, MySQL protocol server and status port.
func serveSQL(ctx context.Context, log *slog.Logger, cfg *config.Config, w sqlWiring) error {
	oracle, regions := w.oracle, w.regions
	if oracle == nil {
		a, err := tso.New(time.Now, tso.NewFileWindowStore(filepath.Join(w.tsoDir, "tso-window")), tso.Options{})
		if err != nil {
			return err
		}
		oracle = a
	}
	if regions == nil {
		regions = locate.StaticRegions(storeserver.Region(), w.storeAddr)
	}
	lis, err := net.Listen("tcp", net.JoinHostPort(w.host, strconv.Itoa(w.port)))
	if err != nil {
		return err
	}
	addr := lis.Addr().(*net.TCPAddr)
	var st *status.Server
	if w.statusPort >= 0 {
		st, err = status.Start(net.JoinHostPort(w.host, strconv.Itoa(w.statusPort)),
			status.Info{Role: w.role, Version: version, Addrs: map[string]string{"mysql": addr.String()}})
		if err != nil {
			log.Warn("status port not served", "port", w.statusPort, "err", err)
		} else {
			defer st.Close()
			log.Info("strata "+w.role+" status on "+st.Addr(), "addr", st.Addr())
		}
	}
	var reg prometheus.Registerer
	lat := newClientLatency()
	if st != nil {
		reg = st.Registry
		reg.MustRegister(lat.collectors()...)
		reg.MustRegister(w.metrics...)
	}
	client := txnclient.New(w.rpc, regions, oracle, txnclient.Options{
		TxnTotalSizeLimit: int(cfg.Performance.TxnTotalSizeLimit),
		RequestDuration:   lat.requests, TSOWait: lat.tso,
	})
	defer client.Close()
	dom, err := session.NewDomain(ctx, session.DomainConfig{
		Client: client, Logger: log, Metrics: reg, DisablePlanCache: !cfg.PreparedPlanCache.Enabled,
		SplitTable: cfg.SplitTable, TSOStreams: w.tsoStreams,
		ServerInfo: sysvar.ServerInfo{Version: version, Port: addr.Port, DataDir: w.dataDir},
	})
	if err != nil {
		lis.Close()
		return err
	}
	tunerOn := dom.GOGCTunerEnabled
	gcTuner.Store(&tunerOn)
	syncCtx, stopSync := context.WithCancel(ctx)
	defer stopSync()
	go dom.SyncLoop(syncCtx, session.DefaultSyncInterval)
	sql := sqlserver.New(sqlserver.Config{Logger: log}, dom)
	dom.SetKiller(sql.Kill)
	served := make(chan error, 1)
	go func() { served <- sql.Serve(lis) }()
	// The connection line goes to stdout whatever the log level: users
	// and scripts (the playground, tests) wait for it.
	fmt.Fprintf(w.stdout, "strata %s ready: mysql --host %s --port %d -u root\n", w.role, addr.IP, addr.Port)
	log.Info("strata "+w.role+" serving", "addr", addr.String(), "data-dir", w.dataDir)
	select {
	case <-ctx.Done():
		log.Info("strata " + w.role + " stopping")
	case err = <-served:
	}
	sql.Close()
	log.Info("strata " + w.role + " stopped")
	if errors.Is(err, sqlserver.ErrServerClosed) {
		err = nil
	}
	return err
}

// defaultBlockCache is the engine's block cache when
// storage.block-cache.capacity is 0. TiKV takes 45% of memory; the
// embedded server shares the process with SQL, so it takes a fixed 512 MiB.
const defaultBlockCache = 512 << 20

// blockCacheSize is storage.block-cache.capacity, or the default.
func blockCacheSize(cfg *config.Config) int64 {
	if c := int64(cfg.Storage.BlockCache.Capacity); c > 0 {
		return c
	}
	return defaultBlockCache
}
