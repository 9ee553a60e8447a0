package server

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// MaxSplitCount bounds the new regions of one AskBatchSplit.
const MaxSplitCount = 1000

// AskBatchSplit allocates, for each of split_count new regions, a region
// id and one peer id per peer of the parent (in the parent's peer order).
// A request whose epoch is behind PD's answers STALE_REGION.
func (g *grpcService) AskBatchSplit(_ context.Context, req *pdpb.AskBatchSplitRequest) (*pdpb.AskBatchSplitResponse, error) {
	s := g.s
	t, hdr := s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.AskBatchSplitResponse{Header: hdr}, nil
	}
	region, count := req.GetRegion(), req.GetSplitCount()
	if count == 0 || count > MaxSplitCount {
		return &pdpb.AskBatchSplitResponse{Header: s.errHeader(pdpb.ErrorType_UNKNOWN,
			"split count %d out of [1, %d]", count, MaxSplitCount)}, nil
	}
	if err := t.cluster.CheckSplit(region); err != nil {
		return &pdpb.AskBatchSplitResponse{Header: s.errorHeader(err)}, nil
	}
	per := uint64(1 + len(region.GetPeers()))
	n := uint64(count) * per
	first, err := t.ids.alloc(n)
	if err != nil {
		return &pdpb.AskBatchSplitResponse{Header: s.errorHeader(err)}, nil
	}
	s.metrics.idsAllocated.Add(float64(n))
	resp := &pdpb.AskBatchSplitResponse{Header: s.header()}
	id := first
	for i := uint32(0); i < count; i++ {
		sid := &pdpb.SplitID{NewRegionId: id}
		id++
		for range region.GetPeers() {
			sid.NewPeerIds = append(sid.NewPeerIds, id)
			id++
		}
		resp.Ids = append(resp.Ids, sid)
	}
	return resp, nil
}

// ReportBatchSplit applies the regions a split produced to the region
// tree (see meta.Cluster.ReportSplit).
func (g *grpcService) ReportBatchSplit(_ context.Context, req *pdpb.ReportBatchSplitRequest) (*pdpb.ReportBatchSplitResponse, error) {
	s := g.s
	t, hdr := s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.ReportBatchSplitResponse{Header: hdr}, nil
	}
	if err := t.cluster.ReportSplit(req.GetRegions()); err != nil {
		return &pdpb.ReportBatchSplitResponse{Header: s.errorHeader(err)}, nil
	}
	return &pdpb.ReportBatchSplitResponse{Header: s.header()}, nil
}
