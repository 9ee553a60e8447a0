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
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

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
	storeserver "github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/internal/store/txn"
)

// embeddedStore names the in-process store in the region cache.
const embeddedStore = "embedded"

// runServer is `strata server`: the storage node, the TSO and the SQL
// server in one process, wired by direct calls (no gRPC), data in one
// folder.
func runServer(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", "./strata-data", "data directory")
	host := fs.String("host", "127.0.0.1", "MySQL listen host")
	port := fs.Int("port", 4000, "MySQL listen port (0: any free port)")
	statusPort := fs.Int("status-port", 10080, "status port: /status, /metrics, /debug/pprof (-1: off)")
	configFile := fs.String("config", "", "TOML config file (TiDB/TiKV key names)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg := config.Default()
	if *configFile != "" {
		c, unknown, err := config.Load(*configFile)
		if err != nil {
			fmt.Fprintln(stderr, "strata server:", err)
			return 2
		}
		cfg = c
		for _, k := range unknown {
			fmt.Fprintf(stderr, "strata server: config key %q is not used by Strata (ignored)\n", k)
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := serveEmbedded(ctx, log, cfg, *dataDir, *host, *port, *statusPort); err != nil {
		log.Error("strata server failed", "err", err)
		return 1
	}
	return 0
}

func serveEmbedded(ctx context.Context, log *slog.Logger, cfg *config.Config, dataDir, host string, port, statusPort int) error {
	for _, d := range []string{filepath.Join(dataDir, "kv"), filepath.Join(dataDir, "pd")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	eng, err := engine.Open(filepath.Join(dataDir, "kv"), engine.Options{Sync: cfg.Raftstore.SyncLog, Logger: pebbleLogger{log}})
	if err != nil {
		return fmt.Errorf("open engine: %w", err)
	}
	defer eng.Close()
	storage := txn.NewStorage(eng, txn.Options{})
	defer storage.Close()
	node := storeserver.NewNodeWithOptions(storage, embeddedStore, storeserver.Options{Logger: log})
	oracle, err := tso.New(time.Now, tso.NewFileWindowStore(filepath.Join(dataDir, "pd", "tso-window")), tso.Options{})
	if err != nil {
		return err
	}
	client := txnclient.New(rpc.NewDirect(embeddedStore, node), locate.StaticRegions(storeserver.Region(), embeddedStore),
		oracle, txnclient.Options{TxnTotalSizeLimit: int(cfg.Performance.TxnTotalSizeLimit)})
	defer client.Close()

	lis, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return err
	}
	addr := lis.Addr().(*net.TCPAddr)
	dom, err := session.NewDomain(ctx, session.DomainConfig{
		Client: client, Logger: log,
		ServerInfo: sysvar.ServerInfo{Version: version, Port: addr.Port, DataDir: dataDir},
	})
	if err != nil {
		lis.Close()
		return err
	}
	sql := sqlserver.New(sqlserver.Config{Logger: log}, dom)
	served := make(chan error, 1)
	go func() { served <- sql.Serve(lis) }()
	if statusPort >= 0 {
		st, err := status.Start(net.JoinHostPort(host, strconv.Itoa(statusPort)),
			status.Info{Role: "server", Version: version, Addrs: map[string]string{"mysql": addr.String()}})
		if err != nil {
			log.Warn("status port not served", "port", statusPort, "err", err)
		} else {
			defer st.Close()
			log.Info("strata server status on "+st.Addr(), "addr", st.Addr())
		}
	}
	log.Info(fmt.Sprintf("strata server ready: mysql --host %s --port %d -u root", addr.IP, addr.Port),
		"addr", addr.String(), "data-dir", dataDir)
	select {
	case <-ctx.Done():
		log.Info("strata server stopping")
	case err = <-served:
	}
	sql.Close()
	log.Info("strata server stopped")
	return err
}
