package txnclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// ErrSplitNotSupported is SplitRegions against stores that cannot split.
var ErrSplitNotSupported = errors.New("txnclient: " + kvrpcpb.SplitNotSupported)

// splitBackoffMs bounds the retries of one key's split.
const splitBackoffMs = 20000

// SplitRegions makes each key the start of a region (TiDB's split-table
// and SPLIT): the region holding a key, unless the key already starts it,
// is split there by its leader. Keys are handled one by one; the first
// failure is returned.
func (c *Client) SplitRegions(ctx context.Context, keys [][]byte) error {
	for _, k := range keys {
		bo := c.newBackoffer(ctx, splitBackoffMs)
		resp, err := locate.SendKey(c.sender, bo, k,
			&kvrpcpb.SplitRegionRequest{SplitKeys: [][]byte{k}}, splitRegion)
		if err != nil {
			return err
		}
		if e := resp.GetOtherError(); e == kvrpcpb.SplitNotSupported {
			return ErrSplitNotSupported
		} else if e != "" {
			return fmt.Errorf("txnclient: split region at %q: %s", k, e)
		}
		// The regions changed: forget them, so the next request learns
		// the halves.
		for _, r := range resp.GetRegions() {
			c.sender.Cache().InvalidateRegion(r.GetId())
		}
	}
	return nil
}

func splitRegion(api rpc.StoreAPI, ctx context.Context, r *kvrpcpb.SplitRegionRequest) (*kvrpcpb.SplitRegionResponse, error) {
	sp, ok := api.(kvrpcpb.RegionSplitter)
	if !ok {
		return &kvrpcpb.SplitRegionResponse{OtherError: kvrpcpb.SplitNotSupported}, nil
	}
	return sp.SplitRegion(ctx, r)
}
