package client

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// Region is what PD knows about one region.
type Region struct {
	Meta         *kvrpcpb.Region // id, range, epoch, peers
	Leader       *kvrpcpb.Peer   // nil: unknown
	DownPeers    []*kvrpcpb.Peer // peers the leader has not heard from
	PendingPeers []*kvrpcpb.Peer // peers whose raft log lags
}

var _ locate.RegionSource = (*Client)(nil)

func (c *Client) getRegion(ctx context.Context, call func(context.Context, pdpb.PDClient) (*pdpb.GetRegionResponse, error), what string) (*Region, error) {
	var resp *pdpb.GetRegionResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = call(ctx, pd)
		return resp.GetHeader(), err
	})
	if err != nil {
		return nil, err
	}
	if resp.GetRegion() == nil {
		return nil, fmt.Errorf("%w: %s", ErrRegionNotFound, what)
	}
	return &Region{Meta: resp.GetRegion(), Leader: resp.GetLeader(),
		DownPeers: resp.GetDownPeers(), PendingPeers: resp.GetPendingPeers()}, nil
}

// GetRegion returns the region containing key.
func (c *Client) GetRegion(ctx context.Context, key []byte) (*Region, error) {
	return c.getRegion(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.GetRegionResponse, error) {
		return pd.GetRegion(ctx, &pdpb.GetRegionRequest{Header: c.header(), RegionKey: key})
	}, fmt.Sprintf("key %q", key))
}

// GetPrevRegion returns the region holding the keys just below key (an
// empty key: the last region).
func (c *Client) GetPrevRegion(ctx context.Context, key []byte) (*Region, error) {
	return c.getRegion(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.GetRegionResponse, error) {
		return pd.GetPrevRegion(ctx, &pdpb.GetRegionRequest{Header: c.header(), RegionKey: key})
	}, fmt.Sprintf("before key %q", key))
}

// GetRegionByID returns a region by id.
func (c *Client) GetRegionByID(ctx context.Context, id uint64) (*Region, error) {
	return c.getRegion(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.GetRegionResponse, error) {
		return pd.GetRegionByID(ctx, &pdpb.GetRegionByIDRequest{Header: c.header(), RegionId: id})
	}, fmt.Sprintf("id %d", id))
}

// ScanRegions returns up to limit regions (0: no limit) that intersect
// [start, end) (an empty end: +inf), in key order.
func (c *Client) ScanRegions(ctx context.Context, start, end []byte, limit int) ([]*pdpb.RegionInfo, error) {
	var resp *pdpb.ScanRegionsResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.ScanRegions(ctx, &pdpb.ScanRegionsRequest{Header: c.header(), StartKey: start, EndKey: end, Limit: int32(limit)})
		return resp.GetHeader(), err
	})
	return resp.GetRegions(), err
}

// RegionByKey is GetRegion for the region cache (locate.RegionSource):
// the region, its leader (its first peer while PD knows no leader) and
// the leader's store address.
func (c *Client) RegionByKey(ctx context.Context, key []byte) (*locate.RegionInfo, error) {
	r, err := c.GetRegion(ctx, key)
	if err != nil {
		return nil, err
	}
	return c.locateInfo(ctx, r)
}

// RegionBeforeKey is GetPrevRegion for the region cache.
func (c *Client) RegionBeforeKey(ctx context.Context, key []byte) (*locate.RegionInfo, error) {
	r, err := c.GetPrevRegion(ctx, key)
	if err != nil {
		return nil, err
	}
	return c.locateInfo(ctx, r)
}

func (c *Client) locateInfo(ctx context.Context, r *Region) (*locate.RegionInfo, error) {
	leader := r.Leader
	if leader == nil || leader.GetStoreId() == 0 {
		if len(r.Meta.GetPeers()) == 0 {
			return nil, fmt.Errorf("%w: region %d has no peers", ErrRegionNotFound, r.Meta.GetId())
		}
		leader = r.Meta.GetPeers()[0]
	}
	addr, err := c.StoreAddr(ctx, leader.GetStoreId())
	if err != nil {
		return nil, err
	}
	return &locate.RegionInfo{Region: r.Meta, Leader: leader, Addr: addr}, nil
}
