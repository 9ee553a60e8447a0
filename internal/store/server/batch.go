package server

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// answer is one finished request of a stream.
type answer struct {
	id   uint64
	resp *kvrpcpb.BatchCommandsResponse_Response
}

// batchStream is the state of one BatchCommands call.
//
// Lock order: mu only. workers.Add happens under mu while !stopped, so
// Wait after setting stopped sees every Add.
type batchStream struct {
	n       *Node
	stream  kvrpcpb.Tikv_BatchCommandsServer
	out     chan answer
	workers sync.WaitGroup
	running atomic.Int64 // workers that have not queued their answer yet

	mu      sync.Mutex
	stopped bool
}

// BatchCommands implements kvrpcpb.TikvServer: requests of each incoming
// batch run concurrently; responses are sent back batched as they finish.
func (n *Node) BatchCommands(stream kvrpcpb.Tikv_BatchCommandsServer) error {
	bs := &batchStream{n: n, stream: stream, out: make(chan answer, n.opts.MaxBatchSize)}
	ctx := stream.Context()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		bs.sendLoop()
	}()
	received := make(chan struct{})
	go func() {
		defer close(received)
		bs.recvLoop(ctx)
	}()
	select {
	case <-received: // client closed its side, or the stream broke
	case <-n.draining:
	case <-ctx.Done():
	}
	// Stop taking requests, let the running ones answer, flush, end.
	bs.mu.Lock()
	bs.stopped = true
	bs.mu.Unlock()
	bs.workers.Wait()
	close(bs.out)
	<-sent
	// recvLoop, if still blocked in Recv, returns once the handler does.
	return nil
}

// recvLoop reads batches and starts one worker per request.
func (bs *batchStream) recvLoop(ctx context.Context) {
	for {
		msg, err := bs.stream.Recv()
		if err != nil {
			return
		}
		reqs, ids := msg.GetRequests(), msg.GetRequestIds()
		for i := 0; i < len(reqs) && i < len(ids); i++ {
			select {
			case bs.n.sem <- struct{}{}:
			case <-ctx.Done():
				return
			case <-bs.n.draining:
				return
			}
			bs.mu.Lock()
			if bs.stopped {
				bs.mu.Unlock()
				<-bs.n.sem
				return
			}
			bs.workers.Add(1)
			bs.running.Add(1)
			bs.mu.Unlock()
			id, req, received := ids[i], reqs[i], time.Time{}
			if bs.n.durations != nil {
				received = time.Now()
			}
			bs.n.workers.submit(func() { bs.run(ctx, id, req, received) })
		}
	}
}

// run executes one request, received at received, and queues its answer.
func (bs *batchStream) run(ctx context.Context, id uint64, req *kvrpcpb.BatchCommandsRequest_Request, received time.Time) {
	defer bs.workers.Done()
	defer func() { <-bs.n.sem }()
	resp, err := kvrpcpb.Dispatch(ctx, bs.n, req)
	if err != nil {
		resp = kvrpcpb.RegionErrorResponse(req, &kvrpcpb.RegionError{
			Message:      err.Error(),
			ServerIsBusy: &kvrpcpb.ServerIsBusy{Reason: err.Error()},
		})
		if resp == nil { // no command: an empty response tells the caller
			resp = &kvrpcpb.BatchCommandsResponse_Response{}
		}
	}
	if bs.n.durations != nil {
		bs.n.durations[kvrpcpb.CmdName(req)].Observe(time.Since(received).Seconds())
	}
	bs.running.Add(-1)
	bs.out <- answer{id: id, resp: resp}
}

// sendLoop sends answers, gathering every answer that is ready into one
// message. After a send error it keeps draining so workers never block.
func (bs *batchStream) sendLoop() {
	max := bs.n.opts.MaxBatchSize
	broken := false
	for a := range bs.out {
		msg := &kvrpcpb.BatchCommandsResponse{
			Responses:  []*kvrpcpb.BatchCommandsResponse_Response{a.resp},
			RequestIds: []uint64{a.id},
		}
		open, yielded := true, false
	gather:
		for open && len(msg.RequestIds) < max {
			select {
			case a, ok := <-bs.out:
				if !ok {
					open = false
					break gather
				}
				msg.Responses = append(msg.Responses, a.resp)
				msg.RequestIds = append(msg.RequestIds, a.id)
				continue
			default:
			}
			if yielded || bs.running.Load() == 0 {
				break
			}
			// Requests of this stream are still running: give them a
			// chance to finish so their answers share this message.
			yielded = true
			runtime.Gosched()
		}
		if !broken {
			if err := bs.stream.Send(msg); err != nil {
				broken = true
			}
		}
		if !open {
			return
		}
	}
}
