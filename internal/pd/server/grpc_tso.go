package server

import (
	"errors"
	"io"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/tso"
	"google.golang.org/grpc"
)

// Tso serves a stream of TsoRequests: each gets count consecutive
// timestamps, of which the response carries the last. A timestamp is
// sent only if the term was still valid after it was allocated, so no
// timestamp leaves a member whose lease may have run out. On a follower,
// or once leadership is lost, the stream answers NOT_LEADER and ends.
//
// One goroutine receives, allocates and answers, so a request costs no
// hand-off between goroutines; the handler itself only waits for it or
// for the server closing (a handler blocked in Recv would hold up etcd's
// graceful stop). Once the handler returned, nothing more is sent.
func (g *grpcService) Tso(stream grpc.BidiStreamingServer[pdpb.TsoRequest, pdpb.TsoResponse]) error {
	ts := &tsoStream{s: g.s, stream: stream}
	errc := make(chan error, 1)
	go func() { errc <- ts.serve() }()
	select {
	case err := <-errc:
		return err
	case <-g.s.ctx.Done():
		ts.mu.Lock()
		ts.ended = true
		ts.mu.Unlock()
		return nil
	}
}

// tsoStream is one Tso stream being served.
type tsoStream struct {
	s      *Server
	stream grpc.BidiStreamingServer[pdpb.TsoRequest, pdpb.TsoResponse]

	mu    sync.Mutex
	ended bool // the handler returned: the stream is gone
}

// send answers resp unless the handler already returned.
func (ts *tsoStream) send(resp *pdpb.TsoResponse) error {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.ended {
		return io.EOF
	}
	return ts.stream.Send(resp)
}

// serve answers the stream's requests until it ends or fails.
func (ts *tsoStream) serve() error {
	s := ts.s
	ctx := ts.stream.Context()
	for {
		req, err := ts.stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		t, hdr := s.checkRequest(req.GetHeader())
		if hdr != nil {
			return ts.send(&pdpb.TsoResponse{Header: hdr})
		}
		count := req.GetCount()
		if count == 0 || count >= tso.MaxLogical {
			if err := ts.send(&pdpb.TsoResponse{Header: s.errHeader(pdpb.ErrorType_UNKNOWN,
				"tso count %d out of [1, %d)", count, tso.MaxLogical)}); err != nil {
				return err
			}
			continue
		}
		first, err := t.tso.GetTimestamps(ctx, int(count))
		if err != nil {
			if errors.Is(err, ErrNotLeader) {
				t.lose("tso window write refused")
			}
			return ts.send(&pdpb.TsoResponse{Header: s.errorHeader(err)})
		}
		if !t.valid() {
			return ts.send(&pdpb.TsoResponse{Header: s.errHeader(pdpb.ErrorType_NOT_LEADER, "leadership lost")})
		}
		last := first + uint64(count) - 1
		s.metrics.tsoRequests.Inc()
		s.metrics.tsoTimestamps.Add(float64(count))
		if err := ts.send(&pdpb.TsoResponse{
			Header: s.header(),
			Count:  count,
			Timestamp: &pdpb.Timestamp{
				Physical: int64(tso.ExtractPhysical(last)),
				Logical:  int64(tso.ExtractLogical(last)),
			},
		}); err != nil {
			return err
		}
	}
}
