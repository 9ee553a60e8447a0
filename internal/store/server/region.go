package server

import (
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"google.golang.org/protobuf/proto"
)

// The single region a node serves until the raftstore exists.
const (
	RegionID = 1
	PeerID   = 1
	StoreID  = 1
	ConfVer  = 1
	Version  = 1
)

// Region returns the region a node serves today: id 1, epoch (1, 1), the
// whole key space, one peer on store 1. Each call returns a new copy.
func Region() *kvrpcpb.Region {
	return &kvrpcpb.Region{
		Id:          RegionID,
		RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: ConfVer, Version: Version},
		Peers:       []*kvrpcpb.Peer{{Id: PeerID, StoreId: StoreID}},
	}
}

// checkContext returns the region error for a request routed with c, or
// nil when the node serves it.
func checkContext(region *kvrpcpb.Region, c *kvrpcpb.Context) *kvrpcpb.RegionError {
	if c == nil {
		return &kvrpcpb.RegionError{
			Message:        "request without context",
			RegionNotFound: &kvrpcpb.RegionNotFound{},
		}
	}
	if c.GetRegionId() != region.GetId() {
		return &kvrpcpb.RegionError{
			Message:        "region not found",
			RegionNotFound: &kvrpcpb.RegionNotFound{RegionId: c.GetRegionId()},
		}
	}
	want, got := region.GetRegionEpoch(), c.GetRegionEpoch()
	if got.GetConfVer() != want.GetConfVer() || got.GetVersion() != want.GetVersion() {
		return &kvrpcpb.RegionError{
			Message:       "epoch not match",
			EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: []*kvrpcpb.Region{proto.Clone(region).(*kvrpcpb.Region)}},
		}
	}
	if p := c.GetPeer(); p != nil && p.GetId() != 0 && !hasPeer(region, p.GetId()) {
		return &kvrpcpb.RegionError{
			Message:   "peer not found on this store",
			NotLeader: &kvrpcpb.NotLeader{RegionId: region.GetId(), Leader: proto.Clone(region.GetPeers()[0]).(*kvrpcpb.Peer)},
		}
	}
	return nil
}

func hasPeer(r *kvrpcpb.Region, id uint64) bool {
	for _, p := range r.GetPeers() {
		if p.GetId() == id {
			return true
		}
	}
	return false
}
