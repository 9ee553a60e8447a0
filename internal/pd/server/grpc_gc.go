package server

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// GetGCSafePoint returns the GC safe point.
func (g *grpcService) GetGCSafePoint(_ context.Context, req *pdpb.GetGCSafePointRequest) (*pdpb.GetGCSafePointResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetGCSafePointResponse{Header: hdr}, nil
	}
	t.gc.Lock()
	defer t.gc.Unlock()
	return &pdpb.GetGCSafePointResponse{Header: s.header(), SafePoint: t.gc.safePoint}, nil
}

// UpdateGCSafePoint moves the safe point forward (never back) and returns
// the one in force.
func (g *grpcService) UpdateGCSafePoint(ctx context.Context, req *pdpb.UpdateGCSafePointRequest) (*pdpb.UpdateGCSafePointResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.UpdateGCSafePointResponse{Header: hdr}, nil
	}
	t.gc.Lock()
	defer t.gc.Unlock()
	if sp := req.GetSafePoint(); sp > t.gc.safePoint {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := t.txn(ctx, putUint(keyGCSafePoint, sp)); err != nil {
			return &pdpb.UpdateGCSafePointResponse{Header: s.errorHeader(err)}, nil
		}
		t.gc.safePoint = sp
	}
	return &pdpb.UpdateGCSafePointResponse{Header: s.header(), NewSafePoint: t.gc.safePoint}, nil
}
