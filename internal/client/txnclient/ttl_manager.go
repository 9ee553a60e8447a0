package txnclient

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// maxHeartbeatFailures stops heartbeats after this many failures in a row.
const maxHeartbeatFailures = 10

// ttlManager keeps a committing transaction's locks alive: from the moment
// its primary is prewritten until the commit returns, it sends
// TxnHeartBeat every HeartbeatInterval, advising TTL = age +
// ManagedLockTTL. Commits shorter than one interval never send one.
type ttlManager struct {
	once    sync.Once
	stopCh  chan struct{}
	done    chan struct{}
	started bool
	mu      sync.Mutex
}

// start launches the heartbeat loop once.
func (m *ttlManager) start(cm *committer) {
	m.once.Do(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.stopCh, m.done, m.started = make(chan struct{}), make(chan struct{}), true
		go m.run(cm)
	})
}

// stop ends the loop and waits for it.
func (m *ttlManager) stop() {
	m.once.Do(func() {}) // a later start must not launch
	m.mu.Lock()
	started := m.started
	m.mu.Unlock()
	if started {
		close(m.stopCh)
		<-m.done
	}
}

func (m *ttlManager) run(cm *committer) {
	defer close(m.done)
	c := cm.c
	ticks, stopTicker := newTicker(c, c.opts.HeartbeatInterval)
	defer stopTicker()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-m.stopCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	began := cm.t.began
	failures := 0
	for {
		select {
		case <-m.stopCh:
			return
		case <-ticks:
		}
		if time.Since(began) > c.opts.MaxTxnTTL {
			return
		}
		ttl, err := cm.heartbeat(ctx)
		if h := c.hooks.onHeartbeat; h != nil {
			h(ttl, err)
		}
		switch {
		case err == nil:
			failures = 0
		case errors.Is(err, kv.ErrTxnNotFound):
			return
		default:
			if failures++; failures > maxHeartbeatFailures {
				return
			}
		}
	}
}

// heartbeat sends one TxnHeartBeat to the primary.
func (cm *committer) heartbeat(ctx context.Context) (uint64, error) {
	now, err := cm.c.oracle.GetTimestamp(ctx)
	if err != nil {
		return 0, err
	}
	age := uint64(0)
	if physicalMs(now) > physicalMs(cm.startTS) {
		age = physicalMs(now) - physicalMs(cm.startTS)
	}
	bo := cm.c.newBackoffer(ctx, locate.GetMaxBackoff)
	req := &kvrpcpb.TxnHeartBeatRequest{Context: &kvrpcpb.Context{}, PrimaryLock: cm.primary, StartVersion: cm.startTS,
		AdviseLockTtl: age + cm.c.opts.ManagedLockTTL}
	resp, err := locate.SendKey(cm.c.sender, bo, cm.primary, req, rpc.StoreAPI.KvTxnHeartBeat)
	if err != nil {
		return 0, err
	}
	if err := resp.GetError().Err(); err != nil {
		return 0, err
	}
	return resp.GetLockTtl(), nil
}

func newTicker(c *Client, d time.Duration) (<-chan time.Time, func()) {
	if c.hooks.newTicker != nil {
		return c.hooks.newTicker(d)
	}
	t := time.NewTicker(d)
	return t.C, t.Stop
}
