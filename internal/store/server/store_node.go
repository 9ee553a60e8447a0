package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/raftstore"
	"github.com/strata-db/strata/internal/store/txn"
)

// ClusterPD is what a storage node asks of PD: its identity, the
// cluster's bootstrap, and the raftstore's needs.
type ClusterPD interface {
	raftstore.PD
	IsBootstrapped(ctx context.Context) (bool, error)
	Bootstrap(ctx context.Context, store *pdpb.Store, region *kvrpcpb.Region) error
	PutStore(ctx context.Context, store *pdpb.Store) error
	ClusterID() uint64
	// IsAlreadyBootstrapped reports whether err is PD refusing a second
	// bootstrap.
	IsAlreadyBootstrapped(err error) bool
}

// StoreConfig configures a cluster storage node.
type StoreConfig struct {
	// DataDir holds kv/ (the data engine) and raft/ (the raft logs).
	DataDir string
	// Addr is the address other stores and clients reach this one at.
	Addr string
	// StatusAddr is reported to PD.
	StatusAddr string
	// Labels are reported to PD.
	Labels []*pdpb.StoreLabel
	// Version is reported to PD.
	Version string
	// Raft tunes the raftstore (StoreID is filled in).
	Raft raftstore.Config
	// Engine tunes kvdb (see OpenEngines).
	Engine engine.Options
	// Txn tunes the transactional storage ([pessimistic-txn]).
	Txn txn.Options
	// RequestDuration is the node's Options.RequestDuration.
	RequestDuration prometheus.ObserverVec
	// Logger receives the node's logs.
	Logger *slog.Logger
}

// StoreNode is a storage node of a cluster: its engines, its raftstore,
// the transactional storage over it and the gRPC node serving both the
// storage API and the raft service.
type StoreNode struct {
	ID      uint64
	Store   *raftstore.Store
	Storage *txn.Storage
	Node    *Node

	kv     *engine.Pebble
	raftdb *pebble.DB
	trans  raftstore.Transport
}

// OpenStoreNode opens the engines under cfg.DataDir, joins the cluster
// (a store id from PD on first start, the cluster's first region if PD is
// not bootstrapped yet), registers the store with PD and starts the
// raftstore. trans carries raft messages (a GRPCTransport in a cluster).
func OpenStoreNode(ctx context.Context, cfg StoreConfig, pd ClusterPD, trans raftstore.Transport) (_ *StoreNode, err error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	kv, raftdb, err := OpenEngines(cfg.DataDir, cfg.Engine)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			raftdb.Close()
			kv.Close()
		}
	}()
	ident, err := raftstore.LoadStoreIdent(kv)
	if err != nil {
		return nil, err
	}
	if ident == nil {
		id, err := pd.AllocID(ctx)
		if err != nil {
			return nil, fmt.Errorf("allocate store id: %w", err)
		}
		ident = &raftserverpb.StoreIdent{ClusterId: pd.ClusterID(), StoreId: id}
		if err := raftstore.SaveStoreIdent(kv, ident); err != nil {
			return nil, err
		}
	} else if cid := pd.ClusterID(); cid != 0 && ident.GetClusterId() != 0 && cid != ident.GetClusterId() {
		return nil, fmt.Errorf("store %d belongs to cluster %d, PD serves cluster %d", ident.GetStoreId(), ident.GetClusterId(), cid)
	}
	store := &pdpb.Store{
		Id: ident.GetStoreId(), Address: cfg.Addr, StatusAddress: cfg.StatusAddr, Labels: cfg.Labels,
		Version: cfg.Version, StartTimestamp: time.Now().Unix(),
	}
	if err := bootstrapCluster(ctx, cfg.Logger, pd, kv, raftdb, store); err != nil {
		return nil, err
	}
	if err := pd.PutStore(ctx, store); err != nil {
		return nil, fmt.Errorf("register store with PD: %w", err)
	}
	rcfg := cfg.Raft
	rcfg.StoreID = ident.GetStoreId()
	if rcfg.Logger == nil {
		rcfg.Logger = cfg.Logger
	}
	rs, err := raftstore.NewStore(rcfg, raftstore.Deps{KV: kv, RaftDB: raftdb, Transport: trans, PD: pd})
	if err != nil {
		return nil, err
	}
	storage := NewRaftStorage(rs, cfg.Txn)
	node := NewNodeWithOptions(storage, cfg.Addr, Options{
		Logger: cfg.Logger, Router: rs, Splitter: rs, RequestDuration: cfg.RequestDuration,
		Register: func(g *grpc.Server, draining <-chan struct{}) { RegisterRaftService(g, rs, draining) },
	})
	rs.Start()
	return &StoreNode{ID: ident.GetStoreId(), Store: rs, Storage: storage, Node: node, kv: kv, raftdb: raftdb, trans: trans}, nil
}

// bootstrapCluster creates the cluster's first region on this store when
// PD is not bootstrapped yet; if another store won the race, the local
// region is removed again.
func bootstrapCluster(ctx context.Context, log *slog.Logger, pd ClusterPD, kv *engine.Pebble, raftdb *pebble.DB, store *pdpb.Store) error {
	has, err := raftstore.HasRegions(kv)
	if err != nil || has {
		return err
	}
	done, err := pd.IsBootstrapped(ctx)
	if err != nil || done {
		return err
	}
	regionID, err := pd.AllocID(ctx)
	if err != nil {
		return err
	}
	peerID, err := pd.AllocID(ctx)
	if err != nil {
		return err
	}
	region := &kvrpcpb.Region{
		Id: regionID, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
		Peers: []*kvrpcpb.Peer{{Id: peerID, StoreId: store.GetId()}},
	}
	if err := raftstore.Bootstrap(kv, raftdb, region); err != nil {
		return err
	}
	if err := pd.Bootstrap(ctx, store, region); err != nil {
		if pd.IsAlreadyBootstrapped(err) {
			log.Info("cluster bootstrapped by another store")
			return raftstore.ClearBootstrap(kv, raftdb, regionID)
		}
		_ = raftstore.ClearBootstrap(kv, raftdb, regionID)
		return fmt.Errorf("bootstrap cluster: %w", err)
	}
	log.Info("cluster bootstrapped", "store", store.GetId(), "region", regionID)
	return nil
}

// Close stops the raftstore and closes the engines; stop the gRPC node
// first.
func (sn *StoreNode) Close() error {
	sn.Storage.Close()
	sn.Store.Stop()
	if t, ok := sn.trans.(interface{ Close() }); ok {
		t.Close()
	}
	return errors.Join(sn.raftdb.Close(), sn.kv.Close())
}

// EngineMetrics describes the store's two Pebble instances (levels,
// files, read amplification, compactions, caches), for an operator's
// /debug/engine.
func (sn *StoreNode) EngineMetrics() string {
	return "kvdb:\n" + sn.kv.DB().Metrics().String() + "\nraftdb:\n" + sn.raftdb.Metrics().String()
}
