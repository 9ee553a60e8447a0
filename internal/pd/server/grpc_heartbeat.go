package server

import (
	"errors"
	"io"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/grpc"
)

// RegionHeartbeat serves a store's stream of region heartbeats. Each
// accepted heartbeat updates the region tree (see meta.Cluster.PutRegion;
// stale ones are ignored, as in PD) and goes to the heartbeat hook, whose
// answer, if any, is sent back on the stream. On a follower, or once
// leadership is lost, the stream answers NOT_LEADER and ends.
func (g *grpcService) RegionHeartbeat(stream grpc.BidiStreamingServer[pdpb.RegionHeartbeatRequest, pdpb.RegionHeartbeatResponse]) error {
	s := g.s
	h := &hbStream{stream: stream}
	var bound *term
	defer func() {
		if bound != nil {
			bound.streams.unbind(h)
		}
	}()
	done := make(chan struct{})
	defer close(done)
	msgs := receive(done, stream.Recv)
	for {
		var req *pdpb.RegionHeartbeatRequest
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
		t, hdr := s.checkBootstrapped(req.GetHeader())
		if hdr != nil {
			return h.send(&pdpb.RegionHeartbeatResponse{Header: hdr})
		}
		if bound != t {
			if bound != nil {
				bound.streams.unbind(h)
			}
			bound = t
		}
		if store := req.GetLeader().GetStoreId(); store != 0 {
			t.streams.bind(store, h)
		}
		s.metrics.regionHeartbeats.Inc()
		info := meta.RegionFromHeartbeat(req)
		if _, err := t.cluster.PutRegion(info); err != nil {
			if errors.Is(err, meta.ErrStaleRegion) {
				s.log.Debug("pd: stale region heartbeat ignored", "err", err)
				continue
			}
			if err := h.send(&pdpb.RegionHeartbeatResponse{Header: s.errorHeader(err),
				RegionId: req.GetRegion().GetId()}); err != nil {
				return err
			}
			continue
		}
		// The scheduler answers, unless a hook replaces it (tests).
		answer := t.coord.HandleRegionHeartbeat
		if hook := s.hook.Load(); hook != nil {
			answer = *hook
		}
		if resp := answer(info); resp != nil {
			if resp.Header == nil {
				resp.Header = s.header()
			}
			if err := h.send(resp); err != nil {
				return err
			}
		}
	}
}
