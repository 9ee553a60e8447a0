package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/config"
)

// runSQL is `strata sql --store ADDR`: a SQL server over a `strata kv`
// node reached by gRPC. Until PD exists the SQL server keeps the TSO
// itself (its window persisted under --data-dir), so run one SQL server
// per store; the distribution work replaces --store by --pd.
func runSQL(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata sql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	store := fs.String("store", "127.0.0.1:20160", "address of the strata kv node")
	dataDir := fs.String("data-dir", "./strata-sql", "directory of the SQL server's own state (the TSO window)")
	host := fs.String("host", "127.0.0.1", "MySQL listen host")
	port := fs.Int("port", 4000, "MySQL listen port (0: any free port)")
	statusPort := fs.Int("status-port", 10080, "status port (-1: off)")
	configFile := fs.String("config", "", "TOML config file (TiDB key names)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg, code := loadConfig(*configFile, "strata sql", stderr)
	if cfg == nil {
		return code
	}
	if err := os.MkdirAll(*dataDir, 0o755); err != nil {
		fmt.Fprintln(stderr, "strata sql:", err)
		return 1
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	rc := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: int(cfg.TiKVClient.GrpcConnectionCount)})
	defer rc.Close()
	err := serveSQL(ctx, log, cfg, sqlWiring{
		role: "sql", rpc: rc, storeAddr: *store, tsoDir: *dataDir, dataDir: *dataDir,
		host: *host, port: *port, statusPort: *statusPort, stdout: stdout,
	})
	if err != nil {
		log.Error("strata sql failed", "err", err)
		return 1
	}
	return 0
}

// loadConfig reads the TOML config file (defaults when file is ""),
// warning about keys Strata does not use. A nil config comes with the
// exit status to return.
func loadConfig(file, who string, stderr io.Writer) (*config.Config, int) {
	if file == "" {
		return config.Default(), 0
	}
	cfg, unknown, err := config.Load(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
		return nil, 2
	}
	for _, k := range unknown {
		fmt.Fprintf(stderr, "%s: %s\n", who, k)
	}
	return cfg, 0
}
