package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/pd/meta"
	"github.com/strata-db/strata/internal/pd/schedule"
	"github.com/strata-db/strata/internal/pd/tso"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// term is one leadership term of this member: from the campaign that
// created the leader key (at createRev, under lease) to stepping down.
// Everything a leader serves from lives here and is loaded from etcd when
// the term starts, so a new leader continues from what the previous one
// persisted.
type term struct {
	s         *Server
	ctx       context.Context // ends when the term ends
	cancel    context.CancelFunc
	createRev int64
	self      string // the leader key's value: this member, marshaled
	lease     clientv3.LeaseID
	ttl       time.Duration
	guard     []clientv3.Cmp

	// deadline (Server.mono) is when the lease may have run out: the send
	// time of the last granted keepalive plus the TTL. No request is
	// served past it, so two leaders never serve at once.
	deadline atomic.Int64
	lostOnce sync.Once
	lost     chan struct{} // closed when the term is known to be over

	tso     *tso.Allocator
	ids     *idAllocator
	cluster *meta.Cluster
	storage *etcdStorage
	streams *heartbeatStreams
	// coord runs the checkers and schedulers of this term and answers
	// region heartbeats with operator steps.
	coord *schedule.Coordinator

	bootstrapped atomic.Bool
	bootMu       sync.Mutex // serializes Bootstrap

	gc struct {
		sync.Mutex
		safePoint uint64
	}
	config struct {
		sync.Mutex
		value meta.ClusterConfig
	}
}

// newTerm starts a term won with lease at createRev. grantedAt
// (Server.mono) is when the lease was requested. The term serves nothing
// until load has read its state.
func (s *Server) newTerm(createRev int64, self string, lease clientv3.LeaseID, ttl time.Duration, grantedAt int64) *term {
	t := &term{s: s, createRev: createRev, self: self, lease: lease, ttl: ttl, guard: leaderGuard(createRev, self),
		lost: make(chan struct{}), streams: newHeartbeatStreams()}
	t.ctx, t.cancel = context.WithCancel(s.ctx)
	t.deadline.Store(grantedAt + int64(ttl))
	return t
}

// load reads the leader's state from etcd. The lease is kept alive
// meanwhile (keepAlive runs already), so a big region tree may take
// longer to load than the lease lasts.
func (t *term) load() error {
	s := t.s
	ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
	defer cancel()

	// Cluster config: the persisted one wins over the config file.
	resp, err := s.cli.Get(ctx, keyConfig)
	if err != nil {
		return err
	}
	if len(resp.Kvs) > 0 {
		cfg, err := meta.DecodeClusterConfig(resp.Kvs[0].Value)
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, keyConfig, err)
		}
		t.config.value = cfg
	} else {
		t.config.value = s.cfg.ClusterConfig
		if err := t.saveConfig(ctx, t.config.value); err != nil {
			return err
		}
	}

	idLimit, err := getUint(ctx, s.cli, keyIDLimit)
	if err != nil {
		return err
	}
	t.ids = newIDAllocator(idLimit, s.cfg.IDWindow, func(limit uint64) error {
		ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
		defer cancel()
		return t.txn(ctx, putUint(keyIDLimit, limit))
	})

	t.tso, err = tso.New(time.Now, NewEtcdWindowStore(s.cli, keyTSOLimit, t.guard...), tso.Options{Window: s.cfg.TSOWindow})
	if err != nil {
		return err
	}
	// Save the first window now, so the first request does not wait for it
	// and a term that cannot write finds out before serving.
	if _, err := t.tso.GetTimestamp(ctx); err != nil {
		return err
	}

	if t.gc.safePoint, err = getUint(ctx, s.cli, keyGCSafePoint); err != nil {
		return err
	}
	resp, err = s.cli.Get(ctx, keyBootstrapped)
	if err != nil {
		return err
	}
	t.bootstrapped.Store(len(resp.Kvs) > 0)

	t.storage = newEtcdStorage(s.cli, t.guard, s.cfg.RegionFlushInterval, s.log, func() { t.lose("region write refused") })
	t.cluster = meta.NewCluster(t.storage)
	if err := t.cluster.Load(); err != nil {
		return err
	}
	t.coord = schedule.NewCoordinator(t.cluster, schedule.Options{
		Now: time.Now, Since: time.Now(),
		AllocID: func() (uint64, error) { return t.ids.alloc(1) },
		Config:  t.clusterConfig,
		Send:    s.SendToStore,
		Logger:  s.log,
	})
	return nil
}

// valid reports whether the term may still serve: not lost, not ended,
// and within the lease.
func (t *term) valid() bool {
	select {
	case <-t.lost:
		return false
	default:
	}
	return t.ctx.Err() == nil && t.s.mono() < t.deadline.Load()
}

// withinLease reports whether the term was not lost and its lease has not
// run out (whether or not the term was ended by Close).
func (t *term) withinLease() bool {
	select {
	case <-t.lost:
		return false
	default:
	}
	return t.s.mono() < t.deadline.Load()
}

// lose ends the term's serving at once; the election loop then steps down.
func (t *term) lose(reason string) {
	t.lostOnce.Do(func() {
		t.s.log.Warn("pd: leadership lost", "reason", reason)
		close(t.lost)
	})
}

// txn runs ops guarded by this term's leadership; ErrNotLeader ends the
// term.
func (t *term) txn(ctx context.Context, ops ...clientv3.Op) error {
	err := guardedTxn(ctx, t.s.cli, t.guard, ops...)
	if errors.Is(err, ErrNotLeader) {
		t.lose("guarded write refused")
	}
	return err
}

func (t *term) saveConfig(ctx context.Context, cfg meta.ClusterConfig) error {
	b, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	return t.txn(ctx, clientv3.OpPut(keyConfig, string(b)))
}

// clusterConfig returns the cluster config in force.
func (t *term) clusterConfig() meta.ClusterConfig {
	t.config.Lock()
	defer t.config.Unlock()
	return t.config.value
}

// updateConfig applies an update (see meta.ClusterConfig.Update) and
// persists it.
func (t *term) updateConfig(ctx context.Context, m map[string]any) (meta.ClusterConfig, error) {
	t.config.Lock()
	defer t.config.Unlock()
	next, err := t.config.value.Update(m)
	if err != nil {
		return t.config.value, err
	}
	if err := t.saveConfig(ctx, next); err != nil {
		return t.config.value, err
	}
	t.config.value = next
	return next, nil
}
