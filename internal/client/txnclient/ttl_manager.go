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

// ttlTarget is the transaction a ttlManager keeps alive.
type ttlTarget struct {
	c       *Client
	primary []byte
	startTS uint64
	began   time.Time
}

// ttlManager keeps a transaction's locks alive. It is armed when the
// primary is prewritten, or for a pessimistic txn when the primary is
// first locked; only a commit still running one
// HeartbeatInterval later gets a goroutine, which sends TxnHeartBeat at
// once and then every interval, advising TTL = age + ManagedLockTTL, until
// the commit returns (stop), MaxTxnTTL passes, the txn is gone or ten
// heartbeats in a row failed. Short commits cost one timer and no
// goroutine.
type ttlManager struct {
	mu     sync.Mutex
	state  ttlState
	timer  *time.Timer
	stopCh chan struct{}
	done   chan struct{}
}

type ttlState int

const (
	ttlIdle ttlState = iota
	ttlArmed
	ttlRunning
	ttlStopped
)

// start arms the manager once; later calls and calls after stop do
// nothing.
func (m *ttlManager) start(cm ttlTarget) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != ttlIdle {
		return
	}
	if cm.c.hooks.newTicker != nil { // tests drive every beat by hand
		m.launchLocked(cm, false)
		return
	}
	m.state = ttlArmed
	m.timer = time.AfterFunc(cm.c.opts.HeartbeatInterval, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.state == ttlArmed {
			m.launchLocked(cm, true)
		}
	})
}

// launchLocked starts the heartbeat goroutine.
func (m *ttlManager) launchLocked(cm ttlTarget, beatNow bool) {
	m.state = ttlRunning
	m.stopCh, m.done = make(chan struct{}), make(chan struct{})
	go m.run(cm, beatNow)
}

// stop ends heartbeats and waits for the goroutine, if any.
func (m *ttlManager) stop() {
	m.mu.Lock()
	prev := m.state
	m.state = ttlStopped
	if m.timer != nil {
		m.timer.Stop()
	}
	m.mu.Unlock()
	if prev == ttlRunning {
		close(m.stopCh)
		<-m.done
	}
}

func (m *ttlManager) run(cm ttlTarget, beatNow bool) {
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
	failures := 0
	for {
		if !beatNow {
			select {
			case <-m.stopCh:
				return
			case <-ticks:
			}
		}
		beatNow = false
		if time.Since(cm.began) > c.opts.MaxTxnTTL {
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
func (cm ttlTarget) heartbeat(ctx context.Context) (uint64, error) {
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
