package locate

import (
	"bytes"
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// RegionInfo is what a RegionSource knows about one region: its metadata,
// its leader and the address of the leader's store.
type RegionInfo struct {
	Region *kvrpcpb.Region
	Leader *kvrpcpb.Peer
	Addr   string
}

// RegionSource is where the RegionCache learns regions: PD in a cluster, a
// fixed region in the embedded server.
type RegionSource interface {
	// RegionByKey returns the region whose [start, end) contains key.
	RegionByKey(ctx context.Context, key []byte) (*RegionInfo, error)
	// RegionBeforeKey returns the region that contains the keys just below
	// key (the region a reverse scan ending at key starts in). An empty key
	// means the last region.
	RegionBeforeKey(ctx context.Context, key []byte) (*RegionInfo, error)
	// StoreAddr returns the address of the store with the given id.
	StoreAddr(ctx context.Context, storeID uint64) (string, error)
}

// staticRegions serves one region whose peers all live at one address.
type staticRegions struct {
	info RegionInfo
}

// StaticRegions returns a RegionSource that serves exactly one region, led
// by its first peer (or an empty peer when it lists none), at addr. Every
// store id resolves to addr.
func StaticRegions(region *kvrpcpb.Region, addr string) RegionSource {
	leader := &kvrpcpb.Peer{}
	if len(region.GetPeers()) > 0 {
		leader = region.GetPeers()[0]
	}
	return &staticRegions{info: RegionInfo{Region: region, Leader: leader, Addr: addr}}
}

func (s *staticRegions) RegionByKey(_ context.Context, key []byte) (*RegionInfo, error) {
	if !regionContains(s.info.Region, key) {
		return nil, fmt.Errorf("locate: key %q outside the static region", key)
	}
	info := s.info
	return &info, nil
}

func (s *staticRegions) RegionBeforeKey(_ context.Context, key []byte) (*RegionInfo, error) {
	r := s.info.Region
	if len(key) > 0 && bytes.Compare(key, r.GetStartKey()) <= 0 ||
		len(key) == 0 && len(r.GetEndKey()) > 0 ||
		len(key) > 0 && len(r.GetEndKey()) > 0 && bytes.Compare(key, r.GetEndKey()) > 0 {
		return nil, fmt.Errorf("locate: no static region before %q", key)
	}
	info := s.info
	return &info, nil
}

func (s *staticRegions) StoreAddr(context.Context, uint64) (string, error) { return s.info.Addr, nil }

// regionContains reports whether key lies in r's [start, end).
func regionContains(r *kvrpcpb.Region, key []byte) bool {
	return bytes.Compare(key, r.GetStartKey()) >= 0 &&
		(len(r.GetEndKey()) == 0 || bytes.Compare(key, r.GetEndKey()) < 0)
}
