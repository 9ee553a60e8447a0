package server

import (
	"errors"
	"io"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/tso"
	"google.golang.org/grpc"
)

// Tso serves a stream of TsoRequests: each gets count consecutive
// timestamps, of which the response carries the last. A timestamp is
// sent only if the term was still valid after it was allocated, so no
// timestamp leaves a member whose lease may have run out. On a follower,
// or once leadership is lost, the stream answers NOT_LEADER and ends.
func (g *grpcService) Tso(stream grpc.BidiStreamingServer[pdpb.TsoRequest, pdpb.TsoResponse]) error {
	s := g.s
	ctx := stream.Context()
	done := make(chan struct{})
	defer close(done)
	msgs := receive(done, stream.Recv)
	for {
		var req *pdpb.TsoRequest
		select {
		case m := <-msgs:
			if m.err == io.EOF {
				return nil
			}
			if m.err != nil {
				return m.err
			}
			req = m.msg
		case <-s.ctx.Done():
			return nil
		}
		t, hdr := s.checkRequest(req.GetHeader())
		if hdr != nil {
			return stream.Send(&pdpb.TsoResponse{Header: hdr})
		}
		count := req.GetCount()
		if count == 0 || count >= tso.MaxLogical {
			if err := stream.Send(&pdpb.TsoResponse{Header: s.errHeader(pdpb.ErrorType_UNKNOWN,
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
			return stream.Send(&pdpb.TsoResponse{Header: s.errorHeader(err)})
		}
		if !t.valid() {
			return stream.Send(&pdpb.TsoResponse{Header: s.errHeader(pdpb.ErrorType_NOT_LEADER, "leadership lost")})
		}
		last := first + uint64(count) - 1
		s.metrics.tsoRequests.Inc()
		s.metrics.tsoTimestamps.Add(float64(count))
		if err := stream.Send(&pdpb.TsoResponse{
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
