package client

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// GetMembers lists PD's members and names the leader.
func (c *Client) GetMembers(ctx context.Context) (*pdpb.GetMembersResponse, error) {
	var resp *pdpb.GetMembersResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.GetMembers(ctx, &pdpb.GetMembersRequest{Header: c.header()})
		return resp.GetHeader(), err
	})
	return resp, err
}

// IsBootstrapped reports whether the cluster has its first store and
// region.
func (c *Client) IsBootstrapped(ctx context.Context) (bool, error) {
	var resp *pdpb.IsBootstrappedResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.IsBootstrapped(ctx, &pdpb.IsBootstrappedRequest{Header: c.header()})
		return resp.GetHeader(), err
	})
	return resp.GetBootstrapped(), err
}

// Bootstrap creates the cluster with its first store and region (which
// covers the whole key space and has a peer on the store).
// ErrAlreadyBootstrapped if it exists — also when an earlier attempt of
// this very call succeeded but its reply was lost; a caller that must
// know checks the region with GetRegionByID.
func (c *Client) Bootstrap(ctx context.Context, store *pdpb.Store, region *kvrpcpb.Region) error {
	return c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		resp, err := pd.Bootstrap(ctx, &pdpb.BootstrapRequest{Header: c.header(), Store: store, Region: region})
		return resp.GetHeader(), err
	})
}

// AllocID reserves count (0 means 1) consecutive ids, never handed out
// before or again, and returns the first.
func (c *Client) AllocID(ctx context.Context, count uint32) (uint64, error) {
	var resp *pdpb.AllocIDResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.AllocID(ctx, &pdpb.AllocIDRequest{Header: c.header(), Count: count})
		return resp.GetHeader(), err
	})
	return resp.GetId(), err
}

// AskBatchSplit asks for the ids of count new regions split off region:
// per new region a region id and one peer id per peer of region.
// ErrStaleRegion if region's epoch is behind PD's.
func (c *Client) AskBatchSplit(ctx context.Context, region *kvrpcpb.Region, count uint32) ([]*pdpb.SplitID, error) {
	var resp *pdpb.AskBatchSplitResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.AskBatchSplit(ctx, &pdpb.AskBatchSplitRequest{Header: c.header(), Region: region, SplitCount: count})
		return resp.GetHeader(), err
	})
	return resp.GetIds(), err
}

// ReportBatchSplit tells PD the regions a split produced.
func (c *Client) ReportBatchSplit(ctx context.Context, regions []*kvrpcpb.Region) error {
	return c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		resp, err := pd.ReportBatchSplit(ctx, &pdpb.ReportBatchSplitRequest{Header: c.header(), Regions: regions})
		return resp.GetHeader(), err
	})
}

// GetGCSafePoint returns the GC safe point.
func (c *Client) GetGCSafePoint(ctx context.Context) (uint64, error) {
	var resp *pdpb.GetGCSafePointResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.GetGCSafePoint(ctx, &pdpb.GetGCSafePointRequest{Header: c.header()})
		return resp.GetHeader(), err
	})
	return resp.GetSafePoint(), err
}

// UpdateGCSafePoint moves the GC safe point forward (never back) and
// returns the one in force.
func (c *Client) UpdateGCSafePoint(ctx context.Context, safePoint uint64) (uint64, error) {
	var resp *pdpb.UpdateGCSafePointResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.UpdateGCSafePoint(ctx, &pdpb.UpdateGCSafePointRequest{Header: c.header(), SafePoint: safePoint})
		return resp.GetHeader(), err
	})
	return resp.GetNewSafePoint(), err
}
