package raftstore

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/experimental"

	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// Resolver returns the address of a store (PD knows it).
type Resolver func(ctx context.Context, storeID uint64) (string, error)

// GRPCTransport sends raft messages to other stores over one long-lived
// gRPC stream per store, many messages per stream message, and snapshots
// over their own streams. When a store cannot be reached its messages are
// dropped; raft sends again.
type GRPCTransport struct {
	resolve Resolver
	log     *slog.Logger

	mu    sync.Mutex
	conns map[uint64]*storeConn
	done  chan struct{}
}

// NewGRPCTransport returns a transport that finds stores with resolve.
func NewGRPCTransport(resolve Resolver, log *slog.Logger) *GRPCTransport {
	if log == nil {
		log = slog.Default()
	}
	return &GRPCTransport{resolve: resolve, log: log, conns: map[uint64]*storeConn{}, done: make(chan struct{})}
}

// Close stops every stream.
func (t *GRPCTransport) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-t.done:
		return
	default:
	}
	close(t.done)
	for _, c := range t.conns {
		c.close()
	}
}

// storeConn is the connection to one store and its message queue.
type storeConn struct {
	t     *GRPCTransport
	id    uint64
	queue chan []*raftserverpb.RaftMessage

	mu   sync.Mutex
	addr string
	cc   *grpc.ClientConn
}

const sendQueueLen = 4096

func (t *GRPCTransport) conn(id uint64) *storeConn {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.conns[id]
	if c == nil {
		c = &storeConn{t: t, id: id, queue: make(chan []*raftserverpb.RaftMessage, sendQueueLen)}
		t.conns[id] = c
		go c.run()
	}
	return c
}

// Send implements Transport.
func (t *GRPCTransport) Send(storeID uint64, msgs []*raftserverpb.RaftMessage) {
	select {
	case <-t.done:
		return
	default:
	}
	select {
	case t.conn(storeID).queue <- msgs:
	default: // full: raft will resend
	}
}

// client returns a gRPC client for the store, dialling (lazily) on first
// use or after its address changed.
func (c *storeConn) client(ctx context.Context) (raftserverpb.RaftClient, error) {
	addr, err := c.t.resolve(ctx, c.id)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cc == nil || c.addr != addr {
		if c.cc != nil {
			c.cc.Close()
		}
		bo := backoff.DefaultConfig
		bo.MaxDelay = time.Second // a restarted store is found again within a second
		cc, err := grpc.NewClient(addr, append(kvproto.DialOptions(),
			grpc.WithTransportCredentials(insecure.NewCredentials()),
			grpc.WithConnectParams(grpc.ConnectParams{Backoff: bo, MinConnectTimeout: 3 * time.Second}),
			experimental.WithBufferPool(kvproto.BufferPool),
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32),
				grpc.ForceCodecV2(kvproto.Codec)))...)
		if err != nil {
			return nil, err
		}
		c.cc, c.addr = cc, addr
	}
	return raftserverpb.NewRaftClient(c.cc), nil
}

func (c *storeConn) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cc != nil {
		c.cc.Close()
		c.cc = nil
	}
}

// run keeps a stream to the store open and forwards the queue to it.
func (c *storeConn) run() {
	backoff := 50 * time.Millisecond
	for {
		select {
		case <-c.t.done:
			return
		default:
		}
		err := c.stream()
		select {
		case <-c.t.done:
			return
		default:
		}
		c.t.log.Debug("raftstore: raft stream ended", "store", c.id, "err", err)
		// Drop what queued while the store was away; raft resends.
		timer := time.NewTimer(backoff)
	drain:
		for {
			select {
			case <-c.queue:
			case <-timer.C:
				break drain
			case <-c.t.done:
				timer.Stop()
				return
			}
		}
		backoff = min(backoff*2, time.Second)
	}
}

// stream sends the queue over one stream until it fails.
func (c *storeConn) stream() error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cl, err := c.client(ctx)
	if err != nil {
		return err
	}
	st, err := cl.Raft(ctx)
	if err != nil {
		return err
	}
	batch := &raftserverpb.BatchRaftMessage{}
	for {
		var first []*raftserverpb.RaftMessage
		select {
		case <-c.t.done:
			_, _ = st.CloseAndRecv()
			return nil
		case first = <-c.queue:
		}
		batch.Msgs = append(batch.Msgs[:0], first...)
	more:
		for len(batch.Msgs) < 512 {
			select {
			case m := <-c.queue:
				batch.Msgs = append(batch.Msgs, m...)
			default:
				break more
			}
		}
		if err := st.Send(batch); err != nil {
			return err
		}
	}
}

// snapshotChunk is the payload size per stream message.
const snapshotChunk = 1 << 20

// SendSnapshot implements Transport.
func (t *GRPCTransport) SendSnapshot(storeID uint64, msg *raftserverpb.RaftMessage, payload []byte, done func(error)) {
	go func() { done(t.sendSnapshot(storeID, msg, payload)) }()
}

func (t *GRPCTransport) sendSnapshot(storeID uint64, msg *raftserverpb.RaftMessage, payload []byte) error {
	// Budget: a minute plus a second per 10 MB.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute+time.Duration(len(payload)/(10<<20))*time.Second)
	defer cancel()
	cl, err := t.conn(storeID).client(ctx)
	if err != nil {
		return err
	}
	st, err := cl.Snapshot(ctx)
	if err != nil {
		return err
	}
	first := true
	for off := 0; first || off < len(payload); off += snapshotChunk {
		c := &raftserverpb.SnapshotChunk{Data: payload[off:min(off+snapshotChunk, len(payload))]}
		if first {
			c.Message, first = msg, false
		}
		if err := st.Send(c); err != nil {
			return err
		}
	}
	_, err = st.CloseAndRecv()
	return err
}
