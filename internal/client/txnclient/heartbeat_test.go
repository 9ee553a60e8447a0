package txnclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// manualTicker is a heartbeat ticker the test fires by hand.
type manualTicker struct{ ch chan time.Time }

func (m *manualTicker) newTicker(time.Duration) (<-chan time.Time, func()) { return m.ch, func() {} }

// heartbeatRig commits a 2-key txn whose commit stops after prewrite until
// the test releases it.
type heartbeatRig struct {
	cl      *cluster
	c       *Client
	tx      *Txn
	ticker  *manualTicker
	beats   chan uint64
	release chan struct{}
	done    chan error
}

func newHeartbeatRig(t *testing.T) *heartbeatRig {
	cl := newCluster(t)
	c := cl.client(Options{})
	h := &heartbeatRig{cl: cl, c: c, ticker: &manualTicker{ch: make(chan time.Time)},
		beats: make(chan uint64, 1), release: make(chan struct{}), done: make(chan error, 1)}
	c.hooks.newTicker = h.ticker.newTicker
	c.hooks.onHeartbeat = func(ttl uint64, err error) {
		if err != nil {
			t.Errorf("heartbeat: %v", err)
		}
		h.beats <- ttl
	}
	entered := make(chan struct{})
	c.hooks.afterPrewrite = func() { close(entered); <-h.release }
	h.tx = begin(t, c)
	_ = h.tx.Set(kv.Key("p"), []byte("p1"))
	_ = h.tx.Set(kv.Key("s"), []byte("s1"))
	go func() { h.done <- h.tx.Commit(context.Background()) }()
	<-entered
	return h
}

func TestHeartbeatKeepsTxnAlive(t *testing.T) {
	h := newHeartbeatRig(t)
	h.cl.oracle.advance(10_000) // far past the 3 s TTL
	h.ticker.ch <- time.Time{}
	if ttl := <-h.beats; ttl < 10_000+20_000 {
		t.Fatalf("heartbeat TTL %d, want age + 20 s", ttl)
	}
	// another client's reader meets the lock: the txn is alive, so the
	// reader must not roll it back; it pushes the commit ts (2PC) instead.
	other := h.cl.client(Options{})
	if got := get(t, begin(t, other), "s"); got != "<nil>" {
		t.Fatalf("reader saw %s", got)
	}
	if st := h.cl.status("p", h.tx.StartTS()); st.LockTtl == 0 {
		t.Fatalf("live txn was resolved: %v", st)
	}
	close(h.release)
	if err := <-h.done; err != nil {
		t.Fatalf("commit after heartbeats: %v", err)
	}
	if got := get(t, begin(t, h.c), "s"); got != "s1" {
		t.Fatalf("after commit: %s", got)
	}
}

func TestNoHeartbeatTxnRolledBack(t *testing.T) {
	h := newHeartbeatRig(t)
	h.cl.oracle.advance(10_000) // past the TTL, and no heartbeat
	other := h.cl.client(Options{})
	if got := get(t, begin(t, other), "s"); got != "<nil>" {
		t.Fatalf("reader saw %s", got)
	}
	if st := h.cl.status("p", h.tx.StartTS()); st.LockTtl != 0 || st.CommitVersion != 0 {
		t.Fatalf("expired txn not rolled back: %v", st)
	}
	close(h.release)
	if err := <-h.done; !errors.Is(err, kv.ErrTxnLockNotFound) {
		t.Fatalf("commit of a rolled-back txn: %v, want TxnLockNotFound", err)
	}
}

// TestHeartbeatTimer runs the real timer path: a commit that stays in
// flight longer than one interval gets heartbeats, and stops them when it
// returns.
func TestHeartbeatTimer(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{HeartbeatInterval: time.Millisecond})
	beats := make(chan error, 16)
	c.hooks.onHeartbeat = func(ttl uint64, err error) {
		select {
		case beats <- err:
		default:
		}
	}
	// the commit waits, after prewrite, for two successful heartbeats
	// (later ones may race with the commit and find the lock gone)
	c.hooks.afterPrewrite = func() {
		for i := 0; i < 2; i++ {
			if err := <-beats; err != nil {
				t.Errorf("heartbeat: %v", err)
			}
		}
	}
	if _, err := commitPQ(t, c); err != nil {
		t.Fatal(err)
	}
}

func TestTxnTooLarge(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{TxnTotalSizeLimit: 100})
	tx := begin(t, c)
	if err := tx.Set(kv.Key("k"), make([]byte, 90)); err != nil {
		t.Fatal(err)
	}
	if err := tx.Set(kv.Key("k2"), make([]byte, 20)); !errors.Is(err, kv.ErrTxnTooLarge) {
		t.Fatalf("Set over the limit: %v", err)
	}
}
