package raftstore

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// With MaxInflightMsgs 1 (raftstore.raft-max-inflight-msgs, as strata
// playground sets it) a leader under concurrent writes keeps at most one
// append in flight to a follower, and every write still commits and
// applies on every replica.
func TestOneAppendInFlight(t *testing.T) {
	cfg := fastConfig()
	cfg.MaxInflightMsgs = 1
	c := newTestCluster(t, 3, cfg)
	l := c.leader(1)
	p := l.s.peer(1)

	// Writers go on until an append was seen in flight, and at least
	// minWrites writes each.
	const writers, minWrites, most = 8, 20, 100000
	var wg sync.WaitGroup
	stop := make(chan struct{})
	written := make([]int, writers)
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range most {
				select {
				case <-stop:
					if i >= minWrites {
						return
					}
				default:
				}
				if err := c.put(key(w*most+i), []byte(fmt.Sprint("v", w*most+i))); err != nil {
					errs <- err
					return
				}
				written[w] = i + 1
			}
		})
	}
	// Sample the leader's view of its followers on its own loop until an
	// append was seen in flight: the window is then full at one.
	type sample struct{ count, full int }
	seen := sample{}
	c.waitFor("an append in flight to a follower", func() bool {
		got := make(chan sample, 1)
		p.post(msgCall{fn: func() {
			var s sample
			for id, pr := range p.rn.Status().Progress {
				if id == p.peerID || pr.Inflights == nil {
					continue
				}
				if n := pr.Inflights.Count(); n > 0 {
					s.count = max(s.count, n)
					if pr.Inflights.Full() {
						s.full++
					}
				}
			}
			got <- s
		}})
		s := <-got
		if s.count > 1 || (s.count == 1 && s.full == 0) {
			t.Errorf("a follower has %d appends in flight (window full for %d followers), want at most 1 and full", s.count, s.full)
		}
		if s.count > 0 {
			seen = s
		}
		return seen.count > 0 || t.Failed()
	})
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for id := uint64(1); id <= 3; id++ {
		for w, n := range written {
			for i := range n {
				k := w*most + i
				c.waitFor(fmt.Sprintf("store %d applied write %d", id, k), func() bool {
					return bytes.Equal(c.localGet(id, key(k)), []byte(fmt.Sprint("v", k)))
				})
			}
		}
	}
	t.Logf("writes per writer %v; sampled %d in flight, window full for %d followers", written, seen.count, seen.full)
}
