package server

import (
	"context"
	"log/slog"
	"math"
	"net"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// Options tune a Node. The zero value is valid.
type Options struct {
	// MaxConcurrency bounds the BatchCommands requests running at once
	// across all streams of the node. Default 512.
	MaxConcurrency int
	// MaxBatchSize caps the responses in one BatchCommandsResponse.
	// Default 256.
	MaxBatchSize int
	// Logger receives the node's logs. Default slog.Default().
	Logger *slog.Logger
	// ServerOptions are appended to the gRPC server's defaults.
	ServerOptions []grpc.ServerOption
	// Router, when set, routes each request to its region (the
	// raftstore); without it the node serves the single static region.
	Router Router
	// Splitter, when set, serves SplitRegion (the raftstore); without it
	// SplitRegion answers that splitting is not supported.
	Splitter Splitter
	// Register, when set, registers more services on the node's gRPC
	// server (the raft service between stores); their long-lived streams
	// should end when draining is closed (GracefulStop waits for them).
	Register func(g *grpc.Server, draining <-chan struct{})
	// RequestDuration, when set, observes each BatchCommands request from
	// its receipt to its answer being queued for sending, in seconds, by
	// command (kvrpcpb.CmdName): TiKV's tikv_grpc_msg_duration_seconds.
	RequestDuration prometheus.ObserverVec
}

// Router checks a request's routing context and returns the context the
// storage call runs with; a refusal is an error that carries a region
// error (RegionError() *kvrpcpb.RegionError). needMaxTS is set for
// async-commit and 1PC prewrites, which need max_ts synced since the
// region's leader changed.
type Router interface {
	Route(ctx context.Context, rc *kvrpcpb.Context, needMaxTS bool) (context.Context, error)
}

// Splitter splits a region this store leads at those of keys that fall
// strictly inside it and returns the regions that result (the region
// alone when none does).
type Splitter interface {
	SplitRegionAt(ctx context.Context, regionID uint64, keys [][]byte) ([]*kvrpcpb.Region, error)
}

// Node is a storage node's request handler: region check, then the
// StoreAPI. It implements kvrpcpb.StoreAPI and kvrpcpb.TikvServer.
type Node struct {
	kvrpcpb.UnimplementedTikvServer

	api       kvrpcpb.StoreAPI
	storeAddr string
	region    *kvrpcpb.Region
	opts      Options
	log       *slog.Logger
	sem       chan struct{} // BatchCommands request slots
	workers   *workerPool   // runs BatchCommands requests
	grpc      *grpc.Server
	// durations holds RequestDuration's observer of each command name;
	// nil without it.
	durations map[string]prometheus.Observer

	drainOnce sync.Once
	draining  chan struct{} // closed by GracefulStop: streams finish and end
}

var (
	_ kvrpcpb.StoreAPI       = (*Node)(nil)
	_ kvrpcpb.TikvServer     = (*Node)(nil)
	_ kvrpcpb.RegionSplitter = (*Node)(nil)
)

// NewNode returns a node serving api as store 1 at storeAddr.
func NewNode(api kvrpcpb.StoreAPI, storeAddr string) *Node {
	return NewNodeWithOptions(api, storeAddr, Options{})
}

// NewNodeWithOptions is NewNode with options.
func NewNodeWithOptions(api kvrpcpb.StoreAPI, storeAddr string, opts Options) *Node {
	if opts.MaxConcurrency <= 0 {
		opts.MaxConcurrency = 512
	}
	if opts.MaxBatchSize <= 0 {
		opts.MaxBatchSize = 256
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	n := &Node{
		api:       api,
		storeAddr: storeAddr,
		region:    Region(),
		opts:      opts,
		log:       opts.Logger,
		sem:       make(chan struct{}, opts.MaxConcurrency),
		workers:   newWorkerPool(64),
		draining:  make(chan struct{}),
	}
	if opts.RequestDuration != nil {
		n.durations = make(map[string]prometheus.Observer, len(kvrpcpb.CmdNames))
		for _, name := range kvrpcpb.CmdNames {
			n.durations[name] = opts.RequestDuration.WithLabelValues(name)
		}
	}
	sopts := append(kvproto.ServerWindows(),
		grpc.MaxRecvMsgSize(math.MaxInt32),
		grpc.MaxSendMsgSize(math.MaxInt32),
		experimental.BufferPool(kvproto.BufferPool),
		grpc.ForceServerCodecV2(kvproto.Codec),
		// Stop waits for running handlers too, so the storage under the
		// node can be closed right after.
		grpc.WaitForHandlers(true),
		// Clients ping every few seconds to notice dead stores; allow it.
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{
			MinTime: time.Second, PermitWithoutStream: true,
		}),
	)
	n.grpc = grpc.NewServer(append(sopts, opts.ServerOptions...)...)
	kvrpcpb.RegisterTikvServer(n.grpc, n)
	if opts.Register != nil {
		opts.Register(n.grpc, n.draining)
	}
	return n
}

// StoreAddr returns the address the node was created with.
func (n *Node) StoreAddr() string { return n.storeAddr }

// StoreID returns the node's store id.
func (n *Node) StoreID() uint64 { return StoreID }

// Region returns a copy of the region the node serves.
func (n *Node) Region() *kvrpcpb.Region { return proto.Clone(n.region).(*kvrpcpb.Region) }

// Serve serves gRPC on lis until GracefulStop or Stop; it returns nil after
// a stop.
func (n *Node) Serve(lis net.Listener) error {
	err := n.grpc.Serve(lis)
	if err == grpc.ErrServerStopped {
		return nil
	}
	return err
}

// GracefulStop stops accepting connections, lets BatchCommands streams
// answer what they already run and end, waits for unary calls, and
// returns. Requests a client sends after the stop began get no answer
// (the client sees its stream end).
func (n *Node) GracefulStop() {
	n.drainOnce.Do(func() { close(n.draining) })
	n.grpc.GracefulStop()
}

// Stop closes every connection at once.
func (n *Node) Stop() {
	n.drainOnce.Do(func() { close(n.draining) })
	n.grpc.Stop()
}
