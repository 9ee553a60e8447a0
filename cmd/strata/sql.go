package main

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"os"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/config"
)

// runSQL is `strata sql --store ADDR`: a SQL server over a `strata kv`
// node reached by gRPC. Until PD exists the SQL server keeps the TSO
// itself (its window persisted under --data-dir), so run one SQL server
// per store; the distribution work replaces --store by --pd.
func runSQL(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata sql", flag.ContinueOnError)
	store := fs.String("store", "127.0.0.1:20160", "address of the strata kv node")
	dataDir := fs.String("data-dir", "./strata-sql", "directory of the SQL server's own state (the TSO window)")
	var sf sqlFlags
	sf.register(fs)
	return runDaemon(fs, args, stderr, func(ctx context.Context, log *slog.Logger, cfg *config.Config) error {
		if err := os.MkdirAll(*dataDir, 0o755); err != nil {
			return err
		}
		rc := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: int(cfg.TiKVClient.GrpcConnectionCount)})
		defer rc.Close()
		return serveSQL(ctx, log, cfg, sqlWiring{
			role: "sql", rpc: rc, storeAddr: *store, tsoDir: *dataDir, dataDir: *dataDir,
			host: sf.host, port: sf.port, statusPort: sf.statusPort, stdout: stdout,
		})
	})
}

// sqlFlags are the flags `strata server` and `strata sql` share.
type sqlFlags struct {
	host             string
	port, statusPort int
}

func (f *sqlFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.host, "host", "127.0.0.1", "MySQL listen host")
	fs.IntVar(&f.port, "port", 4000, "MySQL listen port (0: any free port)")
	fs.IntVar(&f.statusPort, "status-port", 10080, "status port: /status, /metrics, /debug/pprof (-1: off)")
}
