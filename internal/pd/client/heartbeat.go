package client

import (
	"context"
	"errors"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// HeartbeatQueue is the length of a HeartbeatStream's send queue.
const HeartbeatQueue = 1024

// HeartbeatStream sends region heartbeats to the PD leader on one
// long-lived stream, reopening it on the new leader after a leader change,
// and hands PD's responses (operator steps) to a callback. Heartbeats
// queued while no stream is up are sent once one is; a heartbeat lost
// with a broken stream is not resent (the next one supersedes it).
type HeartbeatStream struct {
	c          *Client
	onResponse func(*pdpb.RegionHeartbeatResponse)
	queue      chan *pdpb.RegionHeartbeatRequest
	ctx        context.Context
	cancel     context.CancelFunc
	done       chan struct{}
	closeOnce  sync.Once
}

// RegionHeartbeat starts a heartbeat stream that lives until ctx ends,
// Close, or the client's Close. onResponse (may be nil) is called, from
// one goroutine, with each response without an error.
func (c *Client) RegionHeartbeat(ctx context.Context, onResponse func(*pdpb.RegionHeartbeatResponse)) *HeartbeatStream {
	h := &HeartbeatStream{c: c, onResponse: onResponse, queue: make(chan *pdpb.RegionHeartbeatRequest, HeartbeatQueue),
		done: make(chan struct{})}
	h.ctx, h.cancel = context.WithCancel(ctx)
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer close(h.done)
		h.run()
	}()
	return h
}

// Send queues a heartbeat; ErrHeartbeatBacklog if the queue is full,
// ErrClosed once the stream is closed. The stream owns req from then on
// (it sets its header): the caller must not touch it again.
func (h *HeartbeatStream) Send(req *pdpb.RegionHeartbeatRequest) error {
	if h.ctx.Err() != nil || h.c.ctx.Err() != nil {
		return ErrClosed
	}
	select {
	case h.queue <- req:
		return nil
	default:
		return ErrHeartbeatBacklog
	}
}

// Close stops the stream and waits for it.
func (h *HeartbeatStream) Close() {
	h.closeOnce.Do(h.cancel)
	<-h.done
}

func (h *HeartbeatStream) alive() bool { return h.ctx.Err() == nil && h.c.ctx.Err() == nil }

func (h *HeartbeatStream) run() {
	c := h.c
	for attempt := 0; h.alive(); attempt++ {
		if err := h.serve(); err != nil && h.alive() {
			c.log.Debug("region heartbeat stream broke; reopening", "err", err)
			if c.pause(h.ctx, attempt) != nil {
				return
			}
			continue
		}
		attempt = 0
	}
}

// serve runs one stream until it breaks.
func (h *HeartbeatStream) serve() error {
	c := h.c
	actx, acancel := context.WithTimeout(h.ctx, c.opts.RPCTimeout)
	pc, err := c.leaderConn(actx)
	acancel()
	if err != nil {
		return err
	}
	sctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	stream, err := pc.pd.RegionHeartbeat(sctx)
	if err != nil {
		c.invalidate(pc)
		return err
	}
	broken := make(chan error, 1)
	go func() {
		for {
			resp, err := stream.Recv()
			if err == nil {
				err = headerError(resp.GetHeader())
				if err == nil {
					if h.onResponse != nil {
						h.onResponse(resp)
					}
					continue
				}
				if !errors.Is(err, ErrNotLeader) {
					c.log.Warn("region heartbeat refused", "region", resp.GetRegionId(), "err", err)
					continue
				}
			}
			broken <- err
			return
		}
	}()
	for {
		select {
		case req := <-h.queue:
			req.Header = c.header()
			if err := stream.Send(req); err != nil {
				c.invalidate(pc)
				return err
			}
		case err := <-broken:
			c.invalidate(pc)
			return err
		case <-h.ctx.Done():
			return nil
		case <-c.ctx.Done():
			return nil
		}
	}
}
