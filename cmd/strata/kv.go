package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/status"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/internal/store/txn"
)

// kvConfig is the configuration of `strata kv`.
type kvConfig struct {
	dataDir    string
	addr       string
	statusAddr string
	// pd, when set, makes the node a member of a cluster (comma-separated
	// PD client addresses); without it the node serves one region alone.
	pd            string
	advertiseAddr string
	labels        string
	stopTimeout   time.Duration
	// file is the TOML config (raftstore.sync-log,
	// storage.block-cache.capacity, log.level).
	file *config.Config
	// stdout receives the serving line whatever the log level (nil: none).
	stdout io.Writer
}

func runKV(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata kv", flag.ContinueOnError)
	var cfg kvConfig
	fs.StringVar(&cfg.dataDir, "data-dir", "strata-data/kv", "directory of the storage engine")
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:20160", "gRPC listen address")
	fs.StringVar(&cfg.statusAddr, "status-addr", "127.0.0.1:20180", "status port: /status, /metrics, /debug/pprof, /debug/engine (empty: off)")
	fs.StringVar(&cfg.pd, "pd", "", "PD client addresses (host:port,...): join that cluster (empty: a single-region node)")
	fs.StringVar(&cfg.advertiseAddr, "advertise-addr", "", "address other stores and SQL servers reach this node at (default: --addr)")
	fs.StringVar(&cfg.labels, "labels", "", "store labels reported to PD, as key=value,key=value")
	fs.DurationVar(&cfg.stopTimeout, "stop-timeout", 30*time.Second,
		"on SIGTERM/SIGINT, how long running requests may take before connections are cut")
	return runDaemon(fs, args, stderr, func(ctx context.Context, log *slog.Logger, file *config.Config) error {
		cfg.file, cfg.stdout = file, stdout
		if cfg.pd != "" {
			return serveClusterKV(ctx, cfg, log, nil)
		}
		return serveKV(ctx, cfg, log, nil)
	})
}

// textHandler serves the text describe returns (e.g. /debug/engine).
func textHandler(describe func() string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, describe())
	})
}

// serveKV opens the engine under cfg.dataDir, serves the node on cfg.addr
// until ctx ends, then stops gracefully and closes storage and engine.
// ready, if set, is called with the bound address once it accepts
// connections.
func serveKV(ctx context.Context, cfg kvConfig, log *slog.Logger, ready func(addr string)) error {
	if err := os.MkdirAll(cfg.dataDir, 0o755); err != nil {
		return err
	}
	file := cfg.file
	if file == nil {
		file = config.Default()
	}
	eng, err := engine.Open(cfg.dataDir, mvcc.WithKeySplit(engine.Options{
		Sync: file.Raftstore.SyncLog, CacheSize: blockCacheSize(file), Logger: pebbleLogger{log},
		IOUringSync: file.Storage.IOUringSync,
	}))
	if err != nil {
		return fmt.Errorf("open engine: %w", err)
	}
	storage := txn.NewStorage(eng, txn.Options{})
	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		storage.Close()
		eng.Close()
		return err
	}
	addr := lis.Addr().String()
	node := server.NewNodeWithOptions(storage, addr, server.Options{Logger: log})
	served := make(chan error, 1)
	go func() { served <- node.Serve(lis) }()
	serveLocalSocket(node, listenLocalSocket(addr, addr, file, log), log)
	if cfg.statusAddr != "" {
		st, err := status.Start(cfg.statusAddr, status.Info{Role: "kv", Version: version, Addrs: map[string]string{"grpc": addr}})
		if err != nil {
			log.Warn("status port not served", "addr", cfg.statusAddr, "err", err)
		} else {
			defer st.Close()
			st.Handle("GET /debug/engine", textHandler(func() string { return "kvdb:\n" + eng.DB().Metrics().String() }))
			log.Info("strata kv status on "+st.Addr(), "addr", st.Addr())
		}
	}
	// The serving line goes to stdout whatever the log level: scripts and
	// tests wait for it.
	if cfg.stdout != nil {
		fmt.Fprintf(cfg.stdout, "strata kv serving on %s\n", addr)
	}
	log.Info("strata kv serving", "addr", addr, "data-dir", cfg.dataDir)
	if ready != nil {
		ready(addr)
	}

	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("strata kv stopping")
	case serveErr = <-served:
		served <- serveErr
	}
	stopNode(node, cfg.stopTimeout, log)
	if err := <-served; err != nil && serveErr == nil {
		serveErr = err
	}
	storage.Close()
	if err := eng.Close(); err != nil {
		return fmt.Errorf("close engine: %w", err)
	}
	log.Info("strata kv stopped")
	return serveErr
}
