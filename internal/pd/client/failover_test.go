package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
)

// TestHeartbeatStreamFollowsLeader: a heartbeat stream reopens on the new
// leader after the old one stops, and region changes reported before the
// change are there on the new leader (written behind to etcd, flushed at
// the clean step-down).
func TestHeartbeatStreamFollowsLeader(t *testing.T) {
	pd := pdtest.Start(t, 3, nil)
	c := newClient(t, pd.Addrs())
	ctx := ctxT(t)
	first, err := c.AllocID(ctx, 4)
	if err != nil {
		t.Fatal(err)
	}
	store := &pdpb.Store{Id: first, Address: "127.0.0.1:20160"}
	peers := []*kvrpcpb.Peer{{Id: first + 2, StoreId: first}}
	region := &kvrpcpb.Region{Id: first + 1, RegionEpoch: epoch(1, 1), Peers: peers}
	if err := c.Bootstrap(ctx, store, region); err != nil {
		t.Fatal(err)
	}
	hb := c.RegionHeartbeat(ctx, nil)
	defer hb.Close()
	report := func(conf uint64) {
		t.Helper()
		r := &kvrpcpb.Region{Id: region.Id, RegionEpoch: epoch(conf, 1), Peers: peers}
		eventually(t, "heartbeat applied", func() bool {
			if err := hb.Send(&pdpb.RegionHeartbeatRequest{Region: r, Leader: peers[0]}); err != nil {
				t.Fatal(err)
			}
			got, err := c.GetRegionByID(ctx, region.Id)
			return err == nil && got.Meta.GetRegionEpoch().GetConfVer() == conf && got.Leader.GetId() == peers[0].Id
		})
	}
	report(2)
	old := pd.WaitLeader(20 * time.Second)
	pd.Stop(old)
	pd.WaitLeader(20 * time.Second)
	got, err := c.GetRegionByID(ctx, region.Id)
	if err != nil || got.Meta.GetRegionEpoch().GetConfVer() != 2 {
		t.Fatalf("region on the new leader: %v %v", got, err)
	}
	report(3)
	ts, err := c.GetTS(context.Background())
	if err != nil || ts == 0 {
		t.Fatalf("GetTS on the new leader: %d %v", ts, err)
	}
}
