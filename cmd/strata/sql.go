package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/config"
	pdclient "github.com/strata-db/strata/internal/pd/client"
)

// runSQL is `strata sql --pd ADDRS`: a stateless SQL server of a cluster,
// with timestamps and region routes from PD. `strata sql --store ADDR`
// serves one single-region `strata kv` node instead, keeping the TSO
// itself (its window persisted under --data-dir).
func runSQL(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata sql", flag.ContinueOnError)
	store := fs.String("store", "127.0.0.1:20160", "address of a single-region strata kv node (without --pd)")
	pd := fs.String("pd", "", "PD client addresses (host:port,...) of the cluster to serve")
	dataDir := fs.String("data-dir", "./strata-sql", "directory of the SQL server's own state (the TSO window)")
	var sf sqlFlags
	sf.register(fs)
	return runDaemon(fs, args, stderr, func(ctx context.Context, log *slog.Logger, cfg *config.Config) error {
		if err := os.MkdirAll(*dataDir, 0o755); err != nil {
			return err
		}
		rc := rpc.NewGRPC(grpcOptions(cfg))
		defer rc.Close()
		w := sqlWiring{
			role: "sql", rpc: rc, storeAddr: *store, tsoDir: *dataDir, dataDir: *dataDir,
			host: sf.host, port: sf.port, statusPort: sf.statusPort, stdout: stdout,
		}
		if *pd != "" {
			pdc, err := pdclient.New(ctx, strings.Split(*pd, ","), pdclient.Options{Logger: log})
			if err != nil {
				return fmt.Errorf("connect to PD %s: %w", *pd, err)
			}
			defer pdc.Close()
			w.oracle, w.regions = pdOracle{pdc}, pdc
			w.tsoStreams = pdc.SetTSOStreams
		}
		return serveSQL(ctx, log, cfg, w)
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

// grpcOptions maps [tikv-client] onto the storage client. TiDB waits with
// max-batch-wait-time only while a store reports itself overloaded
// (overload-threshold); stores here report no load, so a set wait applies
// to every batch smaller than batch-wait-size.
func grpcOptions(cfg *config.Config) rpc.GRPCOptions {
	t := cfg.TiKVClient
	return rpc.GRPCOptions{
		ConnCount:        int(t.GrpcConnectionCount),
		MaxBatchSize:     int(t.MaxBatchSize),
		MaxBatchWait:     time.Duration(t.MaxBatchWaitTime),
		BatchWaitSize:    int(t.BatchWaitSize),
		KeepaliveTime:    time.Duration(t.GrpcKeepAliveTime) * time.Second,
		KeepaliveTimeout: time.Duration(t.GrpcKeepAliveTimeout) * time.Second,
	}
}

// pdOracle is PD's client as the transaction client's AsyncOracle, so
// BEGIN asks for its timestamp without waiting (txnclient.BeginLazy).
type pdOracle struct{ *pdclient.Client }

// GetTimestampAsync implements txnclient.AsyncOracle.
func (o pdOracle) GetTimestampAsync(ctx, life context.Context) txnclient.TSFuture {
	return o.GetTSAsyncFor(ctx, life)
}
