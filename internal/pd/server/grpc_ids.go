package server

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// AllocID hands out count (0 means 1) consecutive ids, never handed out
// before by any leader.
func (g *grpcService) AllocID(_ context.Context, req *pdpb.AllocIDRequest) (*pdpb.AllocIDResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.AllocIDResponse{Header: hdr}, nil
	}
	count := max(req.GetCount(), 1)
	first, err := t.ids.alloc(uint64(count))
	if err != nil {
		return &pdpb.AllocIDResponse{Header: s.errorHeader(err)}, nil
	}
	s.metrics.idsAllocated.Add(float64(count))
	return &pdpb.AllocIDResponse{Header: s.header(), Id: first, Count: count}, nil
}
