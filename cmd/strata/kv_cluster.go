package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	pdclient "github.com/strata-db/strata/internal/pd/client"
	"github.com/strata-db/strata/internal/status"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/raftstore"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/internal/store/txn"
)

// pdStore adapts the PD client to what a storage node needs
// (server.ClusterPD); region heartbeats travel on one stream whose
// answers go to the raftstore.
type pdStore struct {
	*pdclient.Client
	hb      *pdclient.HeartbeatStream
	handler atomic.Pointer[func(*pdpb.RegionHeartbeatResponse)]
}

var _ server.ClusterPD = (*pdStore)(nil)

func newPDStore(ctx context.Context, c *pdclient.Client) *pdStore {
	a := &pdStore{Client: c}
	a.hb = c.RegionHeartbeat(ctx, func(r *pdpb.RegionHeartbeatResponse) {
		if h := a.handler.Load(); h != nil {
			(*h)(r)
		}
	})
	return a
}

func (a *pdStore) AllocID(ctx context.Context) (uint64, error) { return a.Client.AllocID(ctx, 1) }

func (a *pdStore) AskBatchSplit(ctx context.Context, r *kvrpcpb.Region, n int) ([]*pdpb.SplitID, error) {
	return a.Client.AskBatchSplit(ctx, r, uint32(n))
}

func (a *pdStore) RegionHeartbeat(_ context.Context, req *pdpb.RegionHeartbeatRequest) error {
	return a.hb.Send(req)
}

func (a *pdStore) IsAlreadyBootstrapped(err error) bool {
	return errors.Is(err, pdclient.ErrAlreadyBootstrapped)
}

// txnOptions maps [pessimistic-txn] onto the transactional storage.
func txnOptions(file *config.Config) txn.Options {
	p := &file.PessimisticTxn
	return txn.Options{
		InMemoryPessimisticLocks: p.InMemory,
		WaitForLockTimeout:       time.Duration(p.WaitForLockTimeout),
	}
}

// raftConfig maps the config file's [raftstore] and [coprocessor] keys
// onto the raftstore's.
func raftConfig(file *config.Config, log *slog.Logger) raftstore.Config {
	r := &file.Raftstore
	maxSize, splitSize, maxKeys, splitKeys := file.Coprocessor.RegionSizes()
	return raftstore.Config{
		SyncLog: r.SyncLog, StorePoolSize: int(r.StorePoolSize), ApplyPoolSize: int(r.ApplyPoolSize),
		TickInterval: time.Duration(r.RaftBaseTickInterval), ElectionTicks: int(r.RaftElectionTimeoutTicks),
		HeartbeatTicks: int(r.RaftHeartbeatTicks), RaftLogGCThreshold: r.RaftLogGCThreshold,
		MaxInflightMsgs:        r.RaftMaxInflightMsgs,
		SplitCheckInterval:     time.Duration(r.SplitRegionCheckTickInterval),
		PDHeartbeatInterval:    time.Duration(r.PDHeartbeatTickInterval),
		StoreHeartbeatInterval: time.Duration(r.PDStoreHeartbeatTickInterval),
		RegionMaxSize:          uint64(maxSize), RegionSplitSize: uint64(splitSize),
		RegionMaxKeys: maxKeys, RegionSplitKeys: splitKeys,
		Logger: log,
	}
}

// serveClusterKV runs a storage node of a cluster: it joins through PD
// (cfg.pd), serves the storage API and the raft service on cfg.addr until
// ctx ends.
func serveClusterKV(ctx context.Context, cfg kvConfig, log *slog.Logger, ready func(addr string)) error {
	file := cfg.file
	if file == nil {
		file = config.Default()
	}
	lis, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	addr := lis.Addr().String()
	if cfg.advertiseAddr != "" {
		addr = cfg.advertiseAddr
	}
	local := listenLocalSocket(lis.Addr().String(), addr, file, log)
	pdc, err := pdclient.New(ctx, strings.Split(cfg.pd, ","), pdclient.Options{Logger: log})
	if err != nil {
		lis.Close()
		closeLocalSocket(local)
		return fmt.Errorf("connect to PD %s: %w", cfg.pd, err)
	}
	defer pdc.Close()
	pd := newPDStore(context.Background(), pdc)
	trans := raftstore.NewGRPCTransport(pdc.StoreAddr, log)
	lat := newKVLatency()
	rcfg := raftConfig(file, log)
	rcfg.Latency = lat.raft()
	topts := txnOptions(file)
	topts.LatchWait = lat.latch
	joinCtx, cancel := context.WithTimeout(ctx, time.Minute)
	sn, err := server.OpenStoreNode(joinCtx, server.StoreConfig{
		DataDir: cfg.dataDir, Addr: addr, StatusAddr: cfg.statusAddr, Labels: parseLabels(cfg.labels),
		Version: version, Raft: rcfg,
		Engine:          engine.Options{CacheSize: blockCacheSize(file), Logger: pebbleLogger{log}, IOUringSync: file.Storage.IOUringSync},
		Txn:             topts,
		RequestDuration: lat.requests,
		Logger:          log,
	}, pd, trans)
	cancel()
	if err != nil {
		lis.Close()
		closeLocalSocket(local)
		trans.Close()
		return err
	}
	h := sn.Store.HandleRegionHeartbeatResponse
	pd.handler.Store(&h)
	served := make(chan error, 1)
	go func() { served <- sn.Node.Serve(lis) }()
	serveLocalSocket(sn.Node, local, log)
	if cfg.statusAddr != "" {
		st, err := status.Start(cfg.statusAddr, status.Info{Role: "kv", Version: version, Addrs: map[string]string{"grpc": addr}})
		if err != nil {
			log.Warn("status port not served", "addr", cfg.statusAddr, "err", err)
		} else {
			defer st.Close()
			registerRaftMetrics(st, sn.Store)
			st.Registry.MustRegister(append(lat.collectors(), storageMetrics(sn.Storage)...)...)
			st.Handle("POST /debug/fail/raft-isolate", raftIsolateHandler(sn.Store))
			st.Handle("GET /debug/engine", textHandler(sn.EngineMetrics))
			log.Info("strata kv status on "+st.Addr(), "addr", st.Addr())
		}
	}
	if cfg.stdout != nil {
		fmt.Fprintf(cfg.stdout, "strata kv serving on %s (store %d)\n", addr, sn.ID)
	}
	log.Info("strata kv serving", "addr", addr, "store", sn.ID, "data-dir", cfg.dataDir)
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
	stopNode(sn.Node, cfg.stopTimeout, log)
	if err := <-served; err != nil && serveErr == nil {
		serveErr = err
	}
	pd.hb.Close()
	if err := sn.Close(); err != nil && serveErr == nil {
		serveErr = err
	}
	log.Info("strata kv stopped")
	return serveErr
}

// stopNode stops the gRPC node gracefully, cutting connections after
// timeout.
func stopNode(node *server.Node, timeout time.Duration, log *slog.Logger) {
	stopped := make(chan struct{})
	go func() {
		node.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(timeout):
		log.Warn("graceful stop timed out; closing connections")
		node.Stop()
		<-stopped
	}
}

// parseLabels reads --labels "zone=z1,host=h1".
func parseLabels(s string) []*pdpb.StoreLabel {
	var out []*pdpb.StoreLabel
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if ok && k != "" {
			out = append(out, &pdpb.StoreLabel{Key: k, Value: v})
		}
	}
	return out
}

// raftIsolateHandler is the fault-injection endpoint of a KV node:
// POST /debug/fail/raft-isolate?on=true cuts its raft traffic with the
// other stores both ways (a partition), on=false heals it.
func raftIsolateHandler(s *raftstore.Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		on, err := strconv.ParseBool(r.URL.Query().Get("on"))
		if err != nil {
			http.Error(w, "want on=true or on=false", http.StatusBadRequest)
			return
		}
		s.SetIsolated(on)
		fmt.Fprintf(w, "raft isolation %v\n", on)
	})
}
