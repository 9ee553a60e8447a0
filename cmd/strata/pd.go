package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/pd/meta"
	pdserver "github.com/strata-db/strata/internal/pd/server"
)

// runPD is `strata pd`: one placement driver member (embedded etcd, PD's
// gRPC service and HTTP API on the client URLs). Flags win over the config
// file's PD keys (name, data-dir, client-urls, ...), which win over the
// flags' defaults. It prints "strata pd serving on <client-url>" once the
// member has joined its cluster.
func runPD(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata pd", flag.ContinueOnError)
	name := fs.String("name", "pd", "member name, unique in the PD cluster")
	dataDir := fs.String("data-dir", "strata-data/pd", "directory of the member's etcd data")
	clientURLs := fs.String("client-urls", "http://127.0.0.1:2379", "URLs to serve clients on (gRPC, etcd and the HTTP API), comma-separated")
	peerURLs := fs.String("peer-urls", "http://127.0.0.1:2380", "URLs to serve other PD members on, comma-separated")
	advClient := fs.String("advertise-client-urls", "", "client URLs given to others (default --client-urls)")
	advPeer := fs.String("advertise-peer-urls", "", "peer URLs given to others (default --peer-urls)")
	initial := fs.String("initial-cluster", "", "the members that start the cluster: name=peer-url,... (default this member alone)")
	stopTimeout := fs.Duration("stop-timeout", 30*time.Second, "on SIGTERM/SIGINT, how long stopping may take before the process exits anyway")
	bad := false
	code := runDaemon(fs, args, stderr, func(ctx context.Context, log *slog.Logger, file *config.Config) error {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		pick := func(flagName string, flagVal *string, fileVal string) string {
			if set[flagName] || fileVal == "" {
				return *flagVal
			}
			return fileVal
		}
		cfg := pdserver.Config{
			Name:                pick("name", name, file.Name),
			DataDir:             pick("data-dir", dataDir, file.DataDir),
			ClientURLs:          pdserver.SplitURLs(pick("client-urls", clientURLs, file.ClientURLs)),
			PeerURLs:            pdserver.SplitURLs(pick("peer-urls", peerURLs, file.PeerURLs)),
			AdvertiseClientURLs: pdserver.SplitURLs(pick("advertise-client-urls", advClient, file.AdvertiseClientURLs)),
			AdvertisePeerURLs:   pdserver.SplitURLs(pick("advertise-peer-urls", advPeer, file.AdvertisePeerURLs)),
			InitialCluster:      pick("initial-cluster", initial, file.InitialCluster),
			ClusterConfig:       meta.ClusterConfigFrom(file.Schedule, file.Replication),
			Logger:              log,
			EtcdDebug:           strings.EqualFold(file.Log.Level, "debug"),
			Version:             version,
		}
		if err := cfg.Validate(); err != nil {
			bad = true
			return err
		}
		return servePD(ctx, cfg, *stopTimeout, stdout, log)
	})
	if bad {
		return 2
	}
	return code
}

// servePD runs a member until ctx ends (or its etcd fails), then stops it.
func servePD(ctx context.Context, cfg pdserver.Config, stopTimeout time.Duration, stdout io.Writer, log *slog.Logger) error {
	s, err := pdserver.Start(ctx, cfg)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil // stopped while joining
		}
		return err
	}
	url := s.ClientURLs()[0]
	// The serving line goes to stdout whatever the log level: scripts and
	// tests wait for it.
	fmt.Fprintf(stdout, "strata pd serving on %s\n", url)
	log.Info("strata pd serving", "client-url", url, "name", cfg.Name, "data-dir", cfg.DataDir, "cluster-id", s.ClusterID())
	var serveErr error
	select {
	case <-ctx.Done():
		log.Info("strata pd stopping")
	case serveErr = <-s.Err():
		log.Error("etcd failed", "err", serveErr)
	}
	stopped := make(chan struct{})
	go func() {
		s.Close()
		close(stopped)
	}()
	select {
	case <-stopped:
		log.Info("strata pd stopped")
	case <-time.After(stopTimeout):
		return fmt.Errorf("pd did not stop within %v", stopTimeout)
	}
	return serveErr
}
