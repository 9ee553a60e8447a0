package server

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

func regionResponse(s *Server, r *meta.RegionInfo) *pdpb.GetRegionResponse {
	resp := &pdpb.GetRegionResponse{Header: s.header()}
	if r == nil {
		return resp // PD answers an unknown region with no region
	}
	resp.Region, resp.Leader, resp.PendingPeers = r.Meta, r.Leader, r.PendingPeers
	for _, d := range r.DownPeers {
		resp.DownPeers = append(resp.DownPeers, d.GetPeer())
	}
	return resp
}

// GetRegion returns the region containing the key, and its leader.
func (g *grpcService) GetRegion(_ context.Context, req *pdpb.GetRegionRequest) (*pdpb.GetRegionResponse, error) {
	t, hdr := g.s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetRegionResponse{Header: hdr}, nil
	}
	return regionResponse(g.s, t.cluster.RegionByKey(req.GetRegionKey())), nil
}

// GetPrevRegion returns the region holding the keys just below the key
// (an empty key: the last region).
func (g *grpcService) GetPrevRegion(_ context.Context, req *pdpb.GetRegionRequest) (*pdpb.GetRegionResponse, error) {
	t, hdr := g.s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetRegionResponse{Header: hdr}, nil
	}
	return regionResponse(g.s, t.cluster.RegionBefore(req.GetRegionKey())), nil
}

// GetRegionByID returns a region by id.
func (g *grpcService) GetRegionByID(_ context.Context, req *pdpb.GetRegionByIDRequest) (*pdpb.GetRegionResponse, error) {
	t, hdr := g.s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetRegionResponse{Header: hdr}, nil
	}
	return regionResponse(g.s, t.cluster.Region(req.GetRegionId())), nil
}

// ScanRegions returns up to limit regions intersecting [start, end).
func (g *grpcService) ScanRegions(_ context.Context, req *pdpb.ScanRegionsRequest) (*pdpb.ScanRegionsResponse, error) {
	s := g.s
	t, hdr := s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.ScanRegionsResponse{Header: hdr}, nil
	}
	resp := &pdpb.ScanRegionsResponse{Header: s.header()}
	for _, r := range t.cluster.ScanRegions(req.GetStartKey(), req.GetEndKey(), int(max(req.GetLimit(), 0))) {
		ri := &pdpb.RegionInfo{Region: r.Meta, Leader: r.Leader, PendingPeers: r.PendingPeers,
			ApproximateSize: r.ApproximateSize, ApproximateKeys: r.ApproximateKeys}
		for _, d := range r.DownPeers {
			ri.DownPeers = append(ri.DownPeers, d.GetPeer())
		}
		resp.Regions = append(resp.Regions, ri)
	}
	return resp, nil
}
