package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/status"
)

// Options tune a Client. The zero value is valid.
type Options struct {
	// RPCTimeout bounds one attempt of a call (default 3s); a call is
	// retried, across leader changes, until its context ends.
	RPCTimeout time.Duration
	// MaxBackoff caps the pause between attempts (default 500ms).
	MaxBackoff time.Duration
	// MaxTSOBatch caps the timestamps of one TSO request (default 10000).
	MaxTSOBatch int
	// TSOStreams is the number of TSO requests that may be on the wire at
	// once, each on its own stream to the leader (default 1, at most
	// MaxTSOStreams; SetTSOStreams changes it). See SetTSOStreams.
	TSOStreams int
	// SenderID is sent in every request header (a store's id).
	SenderID uint64
	// Logger receives the client's logs (default slog.Default()).
	Logger *slog.Logger
}

func (o *Options) fill() {
	if o.RPCTimeout <= 0 {
		o.RPCTimeout = 3 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 500 * time.Millisecond
	}
	if o.MaxTSOBatch <= 0 || o.MaxTSOBatch > 1<<17 {
		o.MaxTSOBatch = 10000
	}
	o.TSOStreams = clampTSOStreams(o.TSOStreams)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Client talks to the PD leader. It is safe for concurrent use.
type Client struct {
	opts      Options
	log       *slog.Logger
	ctx       context.Context // ends at Close
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	clusterID atomic.Uint64

	// discoverSem (capacity 1) makes one discovery run at a time; callers
	// wait for it as long as their context allows.
	discoverSem chan struct{}

	mu struct {
		sync.Mutex
		seeds   []string           // addresses given to New
		members []string           // client addresses of the members, as last listed
		conns   map[string]*pdConn // by host:port
		leader  *pdConn            // nil: unknown
	}

	stores  storeCache
	tsoCh   chan *tsoRequest
	tsoDone chan struct{} // closed when every TSO loop has exited
	// tsoStreams is how many TSO loops serve callers (SetTSOStreams); the
	// others wait for tsoWake, which is closed and replaced when it grows.
	tsoStreams atomic.Int32
	tsoWake    struct {
		sync.Mutex
		ch chan struct{}
	}
	// tsoWire counts TSO requests on the wire, tsoPeak the most at once.
	tsoWire, tsoPeak atomic.Int32
}

// pdConn is a connection to one member.
type pdConn struct {
	addr string
	cc   *grpc.ClientConn
	pd   pdpb.PDClient
}

// New connects to the PD cluster whose members (some of them) listen at
// addrs ("http://host:port" or "host:port"): it finds the leader with
// GetMembers, retrying until ctx ends.
func New(ctx context.Context, addrs []string, opts Options) (*Client, error) {
	opts.fill()
	c := &Client{opts: opts, log: opts.Logger.With("component", "pd-client")}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.mu.conns = map[string]*pdConn{}
	c.discoverSem = make(chan struct{}, 1)
	for _, a := range addrs {
		for _, p := range strings.Split(a, ",") {
			if h := hostPort(p); h != "" {
				c.mu.seeds = append(c.mu.seeds, h)
			}
		}
	}
	if len(c.mu.seeds) == 0 {
		c.cancel()
		return nil, fmt.Errorf("pd client: no PD address")
	}
	c.stores.init()
	c.tsoCh = make(chan *tsoRequest, 4*opts.MaxTSOBatch)
	c.tsoDone = make(chan struct{})
	if err := c.do(ctx, func(context.Context, pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		return nil, nil // reaching a leader is all New needs
	}); err != nil {
		c.Close()
		return nil, err
	}
	c.startTSOLoops()
	return c, nil
}

// hostPort strips a URL's scheme and path.
func hostPort(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	return s
}

// Close stops the client's streams and closes its connections. Calls in
// flight fail with ErrClosed.
func (c *Client) Close() {
	c.cancel()
	c.wg.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, pc := range c.mu.conns {
		pc.cc.Close()
	}
	c.mu.conns = map[string]*pdConn{}
	c.mu.leader = nil
}

// ClusterID is the id of the cluster the client talks to.
func (c *Client) ClusterID() uint64 { return c.clusterID.Load() }

// LeaderAddr is the host:port of the leader as last found ("" if
// unknown).
func (c *Client) LeaderAddr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.leader == nil {
		return ""
	}
	return c.mu.leader.addr
}

func (c *Client) header() *pdpb.RequestHeader {
	return &pdpb.RequestHeader{ClusterId: c.clusterID.Load(), SenderId: c.opts.SenderID}
}

// conn returns the (lazily connecting) connection to addr.
func (c *Client) conn(addr string) (*pdConn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx.Err() != nil {
		return nil, ErrClosed
	}
	if pc := c.mu.conns[addr]; pc != nil {
		return pc, nil
	}
	bo := backoff.DefaultConfig
	bo.BaseDelay, bo.MaxDelay = 50*time.Millisecond, time.Second
	cc, err := grpc.NewClient(addr, append(kvproto.DialOptions(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		// PD's etcd refuses pings on idle connections, so ping only under
		// a stream.
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 10 * time.Second, Timeout: 3 * time.Second}),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: bo, MinConnectTimeout: time.Second}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32)),
	)...)
	if err != nil {
		return nil, err
	}
	pc := &pdConn{addr: addr, cc: cc, pd: pdpb.NewPDClient(cc)}
	c.mu.conns[addr] = pc
	return pc, nil
}

// leaderConn returns the leader's connection, discovering it if unknown.
func (c *Client) leaderConn(ctx context.Context) (*pdConn, error) {
	c.mu.Lock()
	l := c.mu.leader
	c.mu.Unlock()
	if l != nil {
		return l, nil
	}
	return c.discover(ctx)
}

// invalidate forgets pc as the leader (after NOT_LEADER or a transport
// error), so the next call discovers again.
func (c *Client) invalidate(pc *pdConn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.leader == pc {
		c.mu.leader = nil
	}
}

// discover asks the known members, one after another, who leads, and
// connects to the first leader named.
func (c *Client) discover(ctx context.Context) (*pdConn, error) {
	select {
	case c.discoverSem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.discoverSem }()
	c.mu.Lock()
	if l := c.mu.leader; l != nil { // found by a concurrent discovery
		c.mu.Unlock()
		return l, nil
	}
	candidates := unique(append(append([]string(nil), c.mu.members...), c.mu.seeds...))
	c.mu.Unlock()

	var errs []error
	for _, addr := range candidates {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pc, err := c.conn(addr)
		if err != nil {
			return nil, err
		}
		actx, cancel := context.WithTimeout(ctx, min(c.opts.RPCTimeout, time.Second))
		resp, err := pc.pd.GetMembers(actx, &pdpb.GetMembersRequest{Header: c.header()})
		cancel()
		if err == nil {
			err = headerError(resp.GetHeader())
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", addr, err))
			continue
		}
		if id := resp.GetHeader().GetClusterId(); id != 0 {
			c.clusterID.CompareAndSwap(0, id)
		}
		var members []string
		for _, m := range resp.GetMembers() {
			for _, u := range m.GetClientUrls() {
				members = append(members, hostPort(u))
			}
		}
		leaderURLs := resp.GetLeader().GetClientUrls()
		if len(leaderURLs) == 0 {
			errs = append(errs, fmt.Errorf("%s: %w", addr, ErrNoLeader))
			c.setMembers(members)
			continue
		}
		lc, err := c.conn(hostPort(leaderURLs[0]))
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.mu.members = members
		if c.mu.leader != lc {
			c.log.Debug("pd leader found", "leader", resp.GetLeader().GetName(), "addr", lc.addr)
		}
		c.mu.leader = lc
		c.mu.Unlock()
		return lc, nil
	}
	return nil, fmt.Errorf("%w: %v", ErrNoLeader, errors.Join(errs...))
}

func (c *Client) setMembers(m []string) {
	if len(m) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mu.members = m
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// do runs one unary call on the leader, retrying on NOT_LEADER and on
// transport errors (after re-discovering the leader, with a bounded
// backoff) until it succeeds, PD reports another error, or ctx ends. fn
// returns the response header (nil: no header to check).
func (c *Client) do(ctx context.Context, fn func(context.Context, pdpb.PDClient) (*pdpb.ResponseHeader, error)) error {
	var last error
	for attempt := 0; ; attempt++ {
		if c.ctx.Err() != nil {
			return ErrClosed
		}
		pc, err := c.leaderConn(ctx)
		if err == nil {
			actx, cancel := context.WithTimeout(ctx, c.opts.RPCTimeout)
			var hdr *pdpb.ResponseHeader
			hdr, err = fn(actx, pc.pd)
			cancel()
			if err == nil {
				err = headerError(hdr)
				if err == nil {
					return nil
				}
				if !errors.Is(err, ErrNotLeader) {
					return err
				}
			} else if !retryable(err) {
				return err
			}
			c.invalidate(pc)
		}
		last = err
		if err := c.pause(ctx, attempt); err != nil {
			return fmt.Errorf("pd client: %w (last error: %v)", err, last)
		}
	}
}

// retryable reports whether a gRPC error may go away by retrying, maybe
// on another member.
func retryable(err error) bool {
	switch status.Code(err) {
	case codes.InvalidArgument, codes.Unimplemented, codes.PermissionDenied, codes.Unauthenticated:
		return false
	}
	return true
}

// pause waits before attempt+1: 10ms doubling up to MaxBackoff.
func (c *Client) pause(ctx context.Context, attempt int) error {
	d := 10 * time.Millisecond << min(attempt, 10)
	d = min(d, c.opts.MaxBackoff)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return ErrClosed
	}
}
