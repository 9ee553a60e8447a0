package rpc

import (
	"fmt"
	"math"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/experimental"
	"google.golang.org/grpc/keepalive"

	"github.com/strata-db/strata/internal/kvproto"
)

// GRPCOptions tune the gRPC Client. The zero value is valid.
type GRPCOptions struct {
	// ConnCount is the number of gRPC connections per store, each with one
	// BatchCommands stream (TiDB's tikv-client.grpc-connection-count).
	// Default 4.
	ConnCount int
	// ConnSpill is how many calls may be in flight on a connection before
	// calls go to the next one. Default 64.
	ConnSpill int
	// MaxBatchWait is how long a stream's sender waits for more requests
	// after taking what is queued, while the batch has fewer than
	// BatchWaitSize (TiDB's tikv-client.max-batch-wait-time and
	// batch-wait-size). 0 sends at once.
	MaxBatchWait time.Duration
	// BatchWaitSize: see MaxBatchWait. Default 8.
	BatchWaitSize int
	// MaxBatchSize caps the requests in one BatchCommandsRequest.
	// Default 256.
	MaxBatchSize int
	// QueueSize is the capacity of each connection's request queue.
	// Default 4096.
	QueueSize int
	// KeepaliveTime and KeepaliveTimeout detect a dead store without a
	// TCP reset (TiDB's grpc-keepalive-time/-timeout). Defaults 10 s, 3 s.
	KeepaliveTime, KeepaliveTimeout time.Duration
	// MaxReconnectBackoff caps the wait between reconnect attempts.
	// Default 1 s.
	MaxReconnectBackoff time.Duration
	// DialOptions are appended to the defaults (insecure transport,
	// keepalive, backoff, unlimited message size).
	DialOptions []grpc.DialOption
}

func (o *GRPCOptions) fill() {
	if o.ConnCount <= 0 {
		o.ConnCount = 4
	}
	if o.ConnSpill <= 0 {
		o.ConnSpill = 64
	}
	if o.MaxBatchSize <= 0 {
		o.MaxBatchSize = 256
	}
	if o.BatchWaitSize <= 0 {
		o.BatchWaitSize = 8
	}
	if o.QueueSize <= 0 {
		o.QueueSize = 4096
	}
	if o.KeepaliveTime <= 0 {
		o.KeepaliveTime = 10 * time.Second
	}
	if o.KeepaliveTimeout <= 0 {
		o.KeepaliveTimeout = 3 * time.Second
	}
	if o.MaxReconnectBackoff <= 0 {
		o.MaxReconnectBackoff = time.Second
	}
}

func (o *GRPCOptions) dialOptions() []grpc.DialOption {
	bo := backoff.DefaultConfig
	bo.BaseDelay = 50 * time.Millisecond
	bo.MaxDelay = o.MaxReconnectBackoff
	opts := append(kvproto.DialOptions(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{
			Time: o.KeepaliveTime, Timeout: o.KeepaliveTimeout, PermitWithoutStream: true,
		}),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: bo, MinConnectTimeout: 3 * time.Second}),
		experimental.WithBufferPool(kvproto.BufferPool),
		grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(math.MaxInt32),
			grpc.MaxCallSendMsgSize(math.MaxInt32),
			grpc.ForceCodecV2(kvproto.Codec),
		),
	)
	return append(opts, o.DialOptions...)
}

// grpcClient is the Client over gRPC: per store, ConnCount batchConns.
type grpcClient struct {
	opts GRPCOptions

	mu struct {
		sync.Mutex
		closed bool
		stores map[string]*grpcStore
	}
}

// NewGRPC returns a Client that reaches stores over gRPC, gathering
// concurrent requests to one store onto BatchCommands streams.
func NewGRPC(opts GRPCOptions) Client {
	opts.fill()
	c := &grpcClient{opts: opts}
	c.mu.stores = make(map[string]*grpcStore)
	return c
}

// Store returns the store at addr, dialing it on first use (lazily: the
// connection is made by the first request).
func (c *grpcClient) Store(addr string) (StoreAPI, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.closed {
		return nil, ErrClientClosed
	}
	if s, ok := c.mu.stores[addr]; ok {
		return s, nil
	}
	s := &grpcStore{addr: addr, spill: c.opts.ConnSpill}
	for i := 0; i < c.opts.ConnCount; i++ {
		bc, err := newBatchConn(addr, &c.opts)
		if err != nil {
			for _, b := range s.conns {
				b.close()
			}
			return nil, fmt.Errorf("rpc: store %s: %w", addr, err)
		}
		s.conns = append(s.conns, bc)
	}
	c.mu.stores[addr] = s
	return s, nil
}

// Close fails every pending request with ErrClientClosed and closes all
// connections.
func (c *grpcClient) Close() error {
	c.mu.Lock()
	stores := c.mu.stores
	c.mu.stores = nil
	c.mu.closed = true
	c.mu.Unlock()
	for _, s := range stores {
		for _, bc := range s.conns {
			bc.close()
		}
	}
	return nil
}

// grpcStore is one store's StoreAPI: calls go round-robin over its
// connections.
type grpcStore struct {
	addr  string
	conns []*batchConn
	spill int
}

// pick returns the first connection with fewer than spill calls in
// flight, or else the least loaded one. Filling one stream before using
// the next keeps batches large (one syscall carries many requests) while
// load is light; heavy load spreads over all connections.
func (s *grpcStore) pick() *batchConn {
	best := s.conns[0]
	for _, bc := range s.conns {
		n := bc.inflight.Load()
		if n < int64(s.spill) {
			return bc
		}
		if n < best.inflight.Load() {
			best = bc
		}
	}
	return best
}
