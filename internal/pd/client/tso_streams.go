package client

import "sync"

// MaxTSOStreams caps SetTSOStreams (TiDB's PARALLEL-FAST sends as many).
const MaxTSOStreams = 4

// clampTSOStreams brings n into [1, MaxTSOStreams].
func clampTSOStreams(n int) int { return min(max(n, 1), MaxTSOStreams) }

// startTSOLoops starts MaxTSOStreams TSO loops, of which Options.TSOStreams
// serve callers; tsoDone closes when every one has exited.
func (c *Client) startTSOLoops() {
	c.tsoStreams.Store(int32(c.opts.TSOStreams))
	c.tsoWake.ch = make(chan struct{})
	var loops sync.WaitGroup
	for i := range MaxTSOStreams {
		loops.Add(1)
		go func() {
			defer loops.Done()
			c.tsoLoop(i)
		}()
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		loops.Wait()
		close(c.tsoDone)
	}()
}

// SetTSOStreams sets how many TSO requests may be on the wire at once,
// each on its own stream to the leader, clamped to [1, MaxTSOStreams]
// (TiDB's tidb_tso_client_rpc_mode: DEFAULT 1, PARALLEL 2,
// PARALLEL-FAST 4). With one, a caller who arrives while a request is on
// the wire waits for its reply before its own batch leaves: on average
// half a round trip more than the round trip itself. With more, its batch
// leaves at once on an idle stream; PD then serves more, smaller requests.
//
// The ordering guarantee of GetTS holds with any number: a batch is sent
// after each of its callers enqueued, and PD's TSO only moves up, on
// whichever stream a request arrives.
func (c *Client) SetTSOStreams(n int) {
	n = clampTSOStreams(n)
	if int(c.tsoStreams.Swap(int32(n))) < n {
		c.tsoWake.Lock()
		close(c.tsoWake.ch)
		c.tsoWake.ch = make(chan struct{})
		c.tsoWake.Unlock()
	}
}

// TSOStreams returns the number SetTSOStreams set.
func (c *Client) TSOStreams() int { return int(c.tsoStreams.Load()) }

// tsoLoopActive reports whether TSO loop i serves callers.
func (c *Client) tsoLoopActive(i int) bool { return i < int(c.tsoStreams.Load()) }

// waitTSOLoopActive waits until loop i serves callers; false when the
// client closed first.
func (c *Client) waitTSOLoopActive(i int) bool {
	for {
		c.tsoWake.Lock()
		wake := c.tsoWake.ch
		c.tsoWake.Unlock()
		if c.tsoLoopActive(i) {
			return true
		}
		select {
		case <-wake:
		case <-c.ctx.Done():
			return false
		}
	}
}

// tsoOnWire counts a TSO request leaving (+1) or answered (-1), keeping
// the most seen on the wire at once (tsoPeak, which tests read).
func (c *Client) tsoOnWire(delta int32) {
	n := c.tsoWire.Add(delta)
	for {
		p := c.tsoPeak.Load()
		if n <= p || c.tsoPeak.CompareAndSwap(p, n) {
			return
		}
	}
}
