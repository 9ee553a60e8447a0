package server

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// SplitRegion implements kvrpcpb.TikvServer and kvrpcpb.RegionSplitter:
// the region's leader splits it at the request's keys that fall strictly
// inside it (others are skipped: a key at the region's start is already a
// boundary). The response lists the resulting regions in key order; with
// no key to split at, the region itself.
func (n *Node) SplitRegion(ctx context.Context, r *kvrpcpb.SplitRegionRequest) (*kvrpcpb.SplitRegionResponse, error) {
	if n.opts.Splitter == nil || n.opts.Router == nil {
		return &kvrpcpb.SplitRegionResponse{OtherError: kvrpcpb.SplitNotSupported}, nil
	}
	return handle(ctx, n, "SplitRegion", r, n.splitRegion,
		func(re *kvrpcpb.RegionError) *kvrpcpb.SplitRegionResponse {
			return &kvrpcpb.SplitRegionResponse{RegionError: re}
		})
}

func (n *Node) splitRegion(ctx context.Context, r *kvrpcpb.SplitRegionRequest) (*kvrpcpb.SplitRegionResponse, error) {
	regions, err := n.opts.Splitter.SplitRegionAt(ctx, r.GetContext().GetRegionId(), r.GetSplitKeys())
	if err != nil {
		if regionErrorOf(err) != nil {
			return nil, err
		}
		return &kvrpcpb.SplitRegionResponse{OtherError: err.Error()}, nil
	}
	return &kvrpcpb.SplitRegionResponse{Regions: regions}, nil
}
