package rpc

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// entry is one caller's request waiting for its response.
type entry struct {
	id   uint64
	req  *kvrpcpb.BatchCommandsRequest_Request
	done chan result // buffered 1: the deliverer never blocks
	gen  uint64      // stream generation it was sent on; under batchConn.mu
	// canceled is set under batchConn.mu by a caller that gave up.
	canceled bool
}

type result struct {
	resp *kvrpcpb.BatchCommandsResponse_Response
	err  error
}

// batchConn is one gRPC connection with one BatchCommands stream. Callers
// put entries on queue; the sender goroutine drains it into batches and
// sends them on the current stream (opening a new one after a break); one
// receiver goroutine per stream hands responses to the entries in pending.
//
// Lock order: batchConn.mu only; never held while sending, receiving or
// delivering.
type batchConn struct {
	addr   string
	opts   *GRPCOptions
	cc     *grpc.ClientConn
	client kvrpcpb.TikvClient
	queue  chan *entry
	closed chan struct{}
	nextID atomic.Uint64
	// inflight counts calls between enqueue and return.
	inflight atomic.Int64

	closeOnce sync.Once
	senderWG  sync.WaitGroup

	mu struct {
		sync.Mutex
		gen     uint64 // generation of stream; bumped on every new stream
		stream  kvrpcpb.Tikv_BatchCommandsClient
		cancel  context.CancelFunc
		pending map[uint64]*entry
	}
}

func newBatchConn(addr string, opts *GRPCOptions) (*batchConn, error) {
	cc, err := grpc.NewClient(addr, opts.dialOptions()...)
	if err != nil {
		return nil, err
	}
	bc := &batchConn{
		addr:   addr,
		opts:   opts,
		cc:     cc,
		client: kvrpcpb.NewTikvClient(cc),
		queue:  make(chan *entry, opts.QueueSize),
		closed: make(chan struct{}),
	}
	bc.mu.pending = make(map[uint64]*entry)
	bc.senderWG.Add(1)
	go bc.sendLoop()
	return bc, nil
}

// call sends one request and waits for its response, ctx, or close.
func (bc *batchConn) call(ctx context.Context, req *kvrpcpb.BatchCommandsRequest_Request) (*kvrpcpb.BatchCommandsResponse_Response, error) {
	e := &entry{id: bc.nextID.Add(1), req: req, done: make(chan result, 1)}
	bc.inflight.Add(1)
	defer bc.inflight.Add(-1)
	select {
	case bc.queue <- e:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-bc.closed:
		return nil, ErrClientClosed
	}
	select {
	case r := <-e.done:
		return r.resp, r.err
	case <-ctx.Done():
		bc.mu.Lock()
		e.canceled = true
		delete(bc.mu.pending, e.id)
		bc.mu.Unlock()
		return nil, ctx.Err()
	case <-bc.closed:
		return nil, ErrClientClosed
	}
}

// sendLoop gathers queued entries into batches and sends them.
func (bc *batchConn) sendLoop() {
	defer bc.senderWG.Done()
	batch := make([]*entry, 0, bc.opts.MaxBatchSize)
	for {
		batch = batch[:0]
		select {
		case e := <-bc.queue:
			batch = append(batch, e)
		case <-bc.closed:
			return
		}
		batch = bc.gather(batch)
		bc.send(batch)
	}
}

// gather adds what is queued to batch, up to MaxBatchSize; with
// MaxBatchWait, a batch smaller than BatchWaitSize then waits up to that
// long for more.
func (bc *batchConn) gather(batch []*entry) []*entry {
	max := bc.opts.MaxBatchSize
	yielded := false
	for len(batch) < max {
		select {
		case e := <-bc.queue:
			batch = append(batch, e)
			continue
		default:
		}
		if yielded || bc.inflight.Load() < 2 {
			break
		}
		// Others have requests in flight: let callers that were just
		// handed their responses queue their next request, so that one
		// message carries them all (fewer syscalls per request).
		yielded = true
		runtime.Gosched()
	}
	enough := min(bc.opts.BatchWaitSize, max)
	if bc.opts.MaxBatchWait <= 0 || len(batch) >= enough {
		return batch
	}
	timer := time.NewTimer(bc.opts.MaxBatchWait)
	defer timer.Stop()
	for len(batch) < enough {
		select {
		case e := <-bc.queue:
			batch = append(batch, e)
		case <-timer.C:
			return batch
		case <-bc.closed:
			return batch
		}
	}
	return batch
}

// send registers the batch as pending on the current stream and sends it.
func (bc *batchConn) send(batch []*entry) {
	stream, gen, err := bc.getStream()
	if err != nil {
		for _, e := range batch {
			e.done <- result{err: bc.unreachable(err)}
		}
		return
	}
	msg := &kvrpcpb.BatchCommandsRequest{
		Requests:   make([]*kvrpcpb.BatchCommandsRequest_Request, 0, len(batch)),
		RequestIds: make([]uint64, 0, len(batch)),
	}
	bc.mu.Lock()
	for _, e := range batch {
		if e.canceled {
			continue
		}
		e.gen = gen
		bc.mu.pending[e.id] = e
		msg.Requests = append(msg.Requests, e.req)
		msg.RequestIds = append(msg.RequestIds, e.id)
	}
	bc.mu.Unlock()
	if len(msg.Requests) == 0 {
		return
	}
	if err := stream.Send(msg); err != nil {
		bc.breakStream(gen, err)
	}
}

// getStream returns the current stream, opening one (and its receiver)
// if there is none.
func (bc *batchConn) getStream() (kvrpcpb.Tikv_BatchCommandsClient, uint64, error) {
	bc.mu.Lock()
	if bc.mu.stream != nil {
		s, g := bc.mu.stream, bc.mu.gen
		bc.mu.Unlock()
		return s, g, nil
	}
	bc.mu.Unlock()
	select {
	case <-bc.closed:
		return nil, 0, ErrClientClosed
	default:
	}
	// Only the sender opens streams, so nobody races us here.
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := bc.client.BatchCommands(ctx)
	if err != nil {
		cancel()
		return nil, 0, err
	}
	bc.mu.Lock()
	bc.mu.gen++
	gen := bc.mu.gen
	bc.mu.stream, bc.mu.cancel = stream, cancel
	bc.mu.Unlock()
	go bc.recvLoop(stream, gen)
	return stream, gen, nil
}

// recvLoop delivers the responses of one stream until it breaks.
func (bc *batchConn) recvLoop(stream kvrpcpb.Tikv_BatchCommandsClient, gen uint64) {
	for {
		msg, err := stream.Recv()
		if err != nil {
			bc.breakStream(gen, err)
			return
		}
		resps := msg.GetResponses()
		for i, id := range msg.GetRequestIds() {
			bc.mu.Lock()
			e, ok := bc.mu.pending[id]
			delete(bc.mu.pending, id)
			bc.mu.Unlock()
			if !ok {
				continue // its caller gave up
			}
			if i >= len(resps) {
				e.done <- result{err: fmt.Errorf("rpc: store %s: batch response without a response for request %d", bc.addr, id)}
				continue
			}
			e.done <- result{resp: resps[i]}
		}
	}
}

// breakStream forgets the stream of generation gen (if still current) and
// fails every request pending on it.
func (bc *batchConn) breakStream(gen uint64, cause error) {
	bc.mu.Lock()
	if bc.mu.gen == gen && bc.mu.stream != nil {
		bc.mu.stream = nil
		bc.mu.cancel()
		bc.mu.cancel = nil
	}
	var failed []*entry
	for id, e := range bc.mu.pending {
		if e.gen == gen {
			failed = append(failed, e)
			delete(bc.mu.pending, id)
		}
	}
	bc.mu.Unlock()
	err := bc.unreachable(cause)
	for _, e := range failed {
		e.done <- result{err: err}
	}
}

func (bc *batchConn) unreachable(cause error) error {
	select {
	case <-bc.closed:
		return ErrClientClosed
	default:
	}
	return fmt.Errorf("%w: %s: %v", ErrStoreUnreachable, bc.addr, cause)
}

// close stops the sender, breaks the stream and closes the connection.
// Callers still waiting return ErrClientClosed.
func (bc *batchConn) close() {
	bc.closeOnce.Do(func() {
		close(bc.closed)
		// Closing the connection first unblocks a sender that is opening
		// a stream.
		_ = bc.cc.Close()
		bc.senderWG.Wait()
		bc.mu.Lock()
		gen := bc.mu.gen
		bc.mu.Unlock()
		bc.breakStream(gen, ErrClientClosed)
	})
}
