package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/tso"
	"google.golang.org/grpc"
)

// tsoRequest is one caller's wait for a timestamp.
type tsoRequest struct {
	ctx  context.Context
	done chan struct{}
	ts   uint64
	err  error
}

func (r *tsoRequest) finish(ts uint64, err error) {
	r.ts, r.err = ts, err
	close(r.done)
}

// TSFuture is a timestamp on its way (GetTSAsync).
type TSFuture struct {
	req      *tsoRequest
	err      error
	loopDone <-chan struct{}
}

// Wait returns the timestamp, or why there is none.
func (f *TSFuture) Wait() (uint64, error) { return f.WaitContext(context.Background()) }

// WaitContext is Wait that also gives up when ctx ends; the request stays
// queued, so a later wait may still get the timestamp.
func (f *TSFuture) WaitContext(ctx context.Context) (uint64, error) {
	if f.err != nil {
		return 0, f.err
	}
	select {
	case <-f.req.done:
		return f.req.ts, f.req.err
	case <-f.req.ctx.Done():
		return 0, f.req.ctx.Err()
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-f.loopDone:
		// Closed: the request was answered before, or never will be.
		select {
		case <-f.req.done:
			return f.req.ts, f.req.err
		default:
			return 0, ErrClosed
		}
	}
}

// GetTSAsync asks for a timestamp without waiting for it.
func (c *Client) GetTSAsync(ctx context.Context) *TSFuture { return c.GetTSAsyncFor(ctx, ctx) }

// GetTSAsyncFor is GetTSAsync whose request lives until life ends (the
// TSO loop drops it then), while ctx bounds only the wait for a place in
// the queue.
func (c *Client) GetTSAsyncFor(ctx, life context.Context) *TSFuture {
	if c.ctx.Err() != nil {
		return &TSFuture{err: ErrClosed}
	}
	r := &tsoRequest{ctx: life, done: make(chan struct{})}
	select {
	case c.tsoCh <- r:
		return &TSFuture{req: r, loopDone: c.tsoDone}
	case <-ctx.Done():
		return &TSFuture{err: ctx.Err()}
	case <-c.ctx.Done():
		return &TSFuture{err: ErrClosed}
	}
}

// GetTS returns a timestamp (physical_ms<<18 | logical) greater than every
// timestamp any caller obtained from the cluster before this call began.
// Concurrent callers share one TsoRequest on a long-lived stream.
func (c *Client) GetTS(ctx context.Context) (uint64, error) { return c.GetTSAsync(ctx).Wait() }

// GetTimestamp is GetTS under the name of txnclient.Oracle.
func (c *Client) GetTimestamp(ctx context.Context) (uint64, error) { return c.GetTS(ctx) }

// tsoStream is one Tso stream on a member's connection.
type tsoStream struct {
	pc     *pdConn
	stream grpc.BidiStreamingClient[pdpb.TsoRequest, pdpb.TsoResponse]
	cancel context.CancelFunc
}

// tsoLoop gathers the waiting callers into batches and serves each batch
// with one round trip on its own stream to the leader, one batch at a
// time: while a batch is on the wire the next one fills, or leaves at
// once through another loop (SetTSOStreams). Loop i serves only while i
// is below the number of streams set; otherwise it closes its stream and
// waits to be woken.
func (c *Client) tsoLoop(i int) {
	var st *tsoStream
	defer func() {
		if st != nil {
			st.cancel()
		}
	}()
	batch := make([]*tsoRequest, 0, c.opts.MaxTSOBatch)
	for {
		if !c.tsoLoopActive(i) {
			if st != nil {
				st.cancel()
				st = nil
			}
			if !c.waitTSOLoopActive(i) {
				return
			}
		}
		select {
		case r := <-c.tsoCh:
			batch = append(batch, r)
		case <-c.ctx.Done():
			c.failTSO(batch)
			return
		}
	gather:
		for len(batch) < c.opts.MaxTSOBatch {
			select {
			case r := <-c.tsoCh:
				batch = append(batch, r)
			default:
				break gather
			}
		}
		for attempt := 0; ; attempt++ {
			batch = dropExpired(batch)
			if len(batch) == 0 {
				break
			}
			var err error
			if st == nil {
				st, err = c.openTSO()
			}
			if err == nil {
				var first uint64
				first, err = c.tsoRoundTrip(st, len(batch))
				if err == nil {
					for i, r := range batch {
						r.finish(first+uint64(i), nil)
					}
					break
				}
				st.cancel()
				c.invalidate(st.pc)
				st = nil
				var perr *Error
				if errors.As(err, &perr) && !errors.Is(err, ErrNotLeader) {
					for _, r := range batch {
						r.finish(0, err)
					}
					break
				}
			}
			c.log.Debug("tso request failed; retrying", "err", err, "attempt", attempt)
			if c.pause(c.ctx, attempt) != nil {
				c.failTSO(batch)
				return
			}
		}
		clear(batch)
		batch = batch[:0]
	}
}

// openTSO opens a Tso stream to the leader.
func (c *Client) openTSO() (*tsoStream, error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.RPCTimeout)
	pc, err := c.leaderConn(ctx)
	cancel()
	if err != nil {
		return nil, err
	}
	sctx, scancel := context.WithCancel(c.ctx)
	stream, err := pc.pd.Tso(sctx)
	if err != nil {
		scancel()
		c.invalidate(pc)
		return nil, err
	}
	return &tsoStream{pc: pc, stream: stream, cancel: scancel}, nil
}

// tsoRoundTrip asks for n timestamps and returns the first; a reply that
// takes longer than RPCTimeout breaks the stream.
func (c *Client) tsoRoundTrip(st *tsoStream, n int) (uint64, error) {
	timer := time.AfterFunc(c.opts.RPCTimeout, st.cancel)
	defer timer.Stop()
	c.tsoOnWire(1)
	defer c.tsoOnWire(-1)
	if err := st.stream.Send(&pdpb.TsoRequest{Header: c.header(), Count: uint32(n)}); err != nil {
		return 0, err
	}
	resp, err := st.stream.Recv()
	if err != nil {
		return 0, err
	}
	if err := headerError(resp.GetHeader()); err != nil {
		return 0, err
	}
	if int(resp.GetCount()) != n || resp.GetTimestamp() == nil {
		return 0, fmt.Errorf("pd client: tso asked %d timestamps, got %d", n, resp.GetCount())
	}
	ts := resp.GetTimestamp()
	last := tso.ComposeTS(uint64(ts.GetPhysical()), uint64(ts.GetLogical()))
	return last - uint64(n) + 1, nil
}

// dropExpired finishes the requests whose callers gave up.
func dropExpired(batch []*tsoRequest) []*tsoRequest {
	out := batch[:0]
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil {
			r.finish(0, err)
			continue
		}
		out = append(out, r)
	}
	clear(batch[len(out):])
	return out
}

func (c *Client) failTSO(batch []*tsoRequest) {
	for _, r := range batch {
		r.finish(0, ErrClosed)
	}
	for {
		select {
		case r := <-c.tsoCh:
			r.finish(0, ErrClosed)
		default:
			return
		}
	}
}
