package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
)

// HeartbeatHook is called with every region heartbeat PD accepts; a
// non-nil response is sent back on the heartbeat's stream (to the
// region's leader). It is how operators reach stores; the scheduler
// installs it. It must not block.
type HeartbeatHook func(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse

// Server is one PD member: an embedded etcd member plus PD's gRPC service
// and HTTP API on etcd's client URLs. Only the elected leader serves;
// other members answer NOT_LEADER and name the leader in GetMembers.
type Server struct {
	cfg     Config
	log     *slog.Logger
	etcd    *embed.Etcd
	cli     *clientv3.Client
	metrics *metrics
	epoch   time.Time // base of mono()

	memberID  uint64
	clusterID uint64
	self      *pdpb.Member
	ready     atomic.Bool

	// term is the current leadership term, nil while not leader.
	term atomic.Pointer[term]
	// leader is the leader as last seen (nil: unknown).
	leader atomic.Pointer[pdpb.Member]
	hook   atomic.Pointer[HeartbeatHook]

	ctx       context.Context // ends at Close
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// Start starts the member: the embedded etcd (joining or forming the
// cluster of cfg.InitialCluster), PD's services on its client URLs, and
// the leader election. It returns once etcd has joined its cluster and
// the cluster id is known, or fails when ctx ends first.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, log: cfg.Logger.With("component", "pd", "member", cfg.Name),
		metrics: newMetrics(), epoch: time.Now()}
	s.ctx, s.cancel = context.WithCancel(context.Background())

	ecfg, err := s.etcdConfig()
	if err != nil {
		return nil, err
	}
	e, err := embed.StartEtcd(ecfg)
	if err != nil {
		return nil, fmt.Errorf("pd: start etcd: %w", err)
	}
	s.etcd = e
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, fmt.Errorf("pd: etcd: %w", err)
	case <-ctx.Done():
		e.Close()
		return nil, fmt.Errorf("pd: waiting for etcd to join its cluster: %w", ctx.Err())
	}
	s.cli = v3client.New(e.Server)
	s.memberID = uint64(e.Server.MemberID())
	s.self = &pdpb.Member{Name: cfg.Name, MemberId: s.memberID,
		PeerUrls: cfg.AdvertisePeerURLs, ClientUrls: cfg.AdvertiseClientURLs}
	id, err := s.initClusterID(ctx)
	if err != nil {
		s.cli.Close()
		e.Close()
		return nil, err
	}
	s.clusterID = id
	s.ready.Store(true)
	s.log.Info("pd member ready", "cluster-id", id, "member-id", s.memberID, "client-urls", cfg.AdvertiseClientURLs)
	s.wg.Add(1)
	go s.campaignLoop()
	return s, nil
}

// initClusterID reads the cluster id, creating it if this is the first
// start of the cluster.
func (s *Server) initClusterID(ctx context.Context) (uint64, error) {
	for {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return 0, err
		}
		fresh := binary.BigEndian.Uint64(b[:]) >> 1
		if fresh == 0 {
			continue
		}
		resp, err := s.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.CreateRevision(keyClusterID), "=", 0)).
			Then(clientv3.OpPut(keyClusterID, strconv.FormatUint(fresh, 10))).
			Else(clientv3.OpGet(keyClusterID)).Commit()
		if err != nil {
			if ctx.Err() != nil {
				return 0, fmt.Errorf("pd: init cluster id: %w", err)
			}
			s.log.Warn("pd: init cluster id failed; retrying", "err", err)
			if err := sleepCtx(ctx, 200*time.Millisecond); err != nil {
				return 0, err
			}
			continue
		}
		if resp.Succeeded {
			s.log.Info("pd: new cluster", "cluster-id", fresh)
			return fresh, nil
		}
		kvs := resp.Responses[0].GetResponseRange().GetKvs()
		if len(kvs) == 0 {
			continue
		}
		id, err := strconv.ParseUint(string(kvs[0].Value), 10, 64)
		if err != nil || id == 0 {
			return 0, fmt.Errorf("%w: cluster id %q", ErrCorrupt, kvs[0].Value)
		}
		return id, nil
	}
}

// Close steps down (writing queued region changes and giving up the
// leader key, so another member takes over at once), then stops etcd.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.cancel()
		s.wg.Wait()
		if s.cli != nil {
			s.cli.Close()
		}
		s.etcd.Close()
		s.log.Info("pd member stopped")
	})
}

// Err reports a fatal error of the embedded etcd.
func (s *Server) Err() <-chan error { return s.etcd.Err() }

// ClusterID is the cluster's id.
func (s *Server) ClusterID() uint64 { return s.clusterID }

// MemberID is this member's etcd member id.
func (s *Server) MemberID() uint64 { return s.memberID }

// Name is this member's name.
func (s *Server) Name() string { return s.cfg.Name }

// ClientURLs are the URLs clients reach this member at.
func (s *Server) ClientURLs() []string { return s.cfg.AdvertiseClientURLs }

// IsLeader reports whether this member leads PD now.
func (s *Server) IsLeader() bool { return s.currentTerm() != nil }

// IsEtcdLeader reports whether this member's etcd leads the etcd raft
// group (not the same as leading PD; for diagnostics and for stopping a
// cluster in an order that spares etcd a leadership transfer to a member
// that is stopping too).
func (s *Server) IsEtcdLeader() bool { return s.etcd.Server.Leader() == s.etcd.Server.MemberID() }

// Leader is the leader as this member last saw it (nil: unknown).
func (s *Server) Leader() *pdpb.Member { return s.leader.Load() }

// SetHeartbeatHook installs the function that may answer region
// heartbeats with an operator step (nil: none).
func (s *Server) SetHeartbeatHook(h HeartbeatHook) {
	if h == nil {
		s.hook.Store(nil)
		return
	}
	s.hook.Store(&h)
}

// currentTerm returns the term if this member leads and its lease has not
// run out, else nil.
func (s *Server) currentTerm() *term {
	t := s.term.Load()
	if t == nil || !t.valid() {
		return nil
	}
	return t
}

// mono is a monotonic clock reading in nanoseconds.
func (s *Server) mono() int64 { return int64(time.Since(s.epoch)) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
