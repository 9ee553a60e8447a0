package client

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/pd/server/pdtest"
)

// getTSFromMany runs callers goroutines asking for per timestamps each and
// checks GetTS's guarantees: every timestamp is distinct, and each is
// greater than every timestamp returned before its caller asked.
func getTSFromMany(t *testing.T, c *Client, callers, per int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var (
		returned atomic.Uint64 // the largest timestamp returned so far
		mu       sync.Mutex
		seen     = make(map[uint64]bool, callers*per)
		wg       sync.WaitGroup
	)
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range per {
				before := returned.Load()
				ts, err := c.GetTS(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if ts <= before {
					t.Errorf("timestamp %d, but %d was returned before it was asked for", ts, before)
					return
				}
				for {
					r := returned.Load()
					if ts <= r || returned.CompareAndSwap(r, ts) {
						break
					}
				}
				mu.Lock()
				dup := seen[ts]
				seen[ts] = true
				mu.Unlock()
				if dup {
					t.Errorf("timestamp %d handed out twice", ts)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestTSOStreams: with one stream, one TSO request is on the wire at a
// time; with more, a batch leaves while another is on the wire; the
// number changes while callers wait, and the timestamps keep their
// guarantees throughout.
func TestTSOStreams(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := New(ctx, pd.Addrs(), Options{Logger: pdtest.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.TSOStreams(); n != 1 {
		t.Fatalf("default TSOStreams %d, want 1", n)
	}

	getTSFromMany(t, c, 32, 200)
	if p := c.tsoPeak.Load(); p != 1 {
		t.Fatalf("one stream: %d TSO requests on the wire at once", p)
	}

	c.SetTSOStreams(MaxTSOStreams + 3)
	if n := c.TSOStreams(); n != MaxTSOStreams {
		t.Fatalf("TSOStreams %d after asking for %d, want the cap %d", n, MaxTSOStreams+3, MaxTSOStreams)
	}
	// Whether a second batch finds the first still on the wire is up to
	// the scheduler; over many rounds it does.
	for round := 0; c.tsoPeak.Load() < 2; round++ {
		if round == 50 {
			t.Fatalf("%d streams: never more than one TSO request on the wire", MaxTSOStreams)
		}
		getTSFromMany(t, c, 32, 200)
	}

	// Fewer streams while callers wait: the extra loops finish their
	// batches and stop; every caller still gets a good timestamp.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		getTSFromMany(t, c, 32, 300)
	}()
	c.SetTSOStreams(0)
	if n := c.TSOStreams(); n != 1 {
		t.Fatalf("TSOStreams %d after asking for 0, want 1", n)
	}
	wg.Wait()
	c.SetTSOStreams(2)
	getTSFromMany(t, c, 32, 200)
}
