package txnclient

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// cleanup rolls back every key of a failed commit (BatchRollback), the
// primary's region first. Failures are left to lock resolution: the locks
// expire with their TTL.
func (cm *committer) cleanup(ctx context.Context) {
	bo := cm.c.newBackoffer(context.WithoutCancel(ctx), locate.CleanupMaxBackoff)
	_ = cm.rollbackKeys(bo, cm.allKeys())
}

func (cm *committer) rollbackKeys(bo *locate.Backoffer, keys [][]byte) error {
	groups, err := cm.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, keys)
	if err != nil {
		return err
	}
	for _, g := range groups {
		req := &kvrpcpb.BatchRollbackRequest{Context: &kvrpcpb.Context{}, StartVersion: cm.startTS, Keys: g.Keys}
		resp, err := locate.Send(cm.c.sender, bo, g.Location, req, rpc.StoreAPI.KvBatchRollback)
		if errors.Is(err, locate.ErrRegionRetry) {
			err = cm.rollbackKeys(bo, g.Keys)
		} else if err == nil {
			err = resp.GetError().Err()
		}
		if err != nil {
			return err
		}
	}
	return nil
}
