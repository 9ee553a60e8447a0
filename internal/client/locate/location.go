package locate

import (
	"bytes"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"google.golang.org/protobuf/proto"
)

// KeyLocation is where a key lives: a region's identity, range and leader.
// It is an immutable snapshot of the cache entry; the cache replaces, never
// mutates, the locations it handed out.
type KeyLocation struct {
	RegionID uint64
	Epoch    *kvrpcpb.RegionEpoch
	StartKey []byte // inclusive; empty means -inf
	EndKey   []byte // exclusive; empty means +inf
	Leader   *kvrpcpb.Peer
	Addr     string // address of the leader's store
}

// newLocation copies info into a KeyLocation.
func newLocation(info *RegionInfo) *KeyLocation {
	r := info.Region
	epoch := r.GetRegionEpoch()
	if epoch == nil {
		epoch = &kvrpcpb.RegionEpoch{}
	}
	leader := info.Leader
	if leader == nil {
		leader = &kvrpcpb.Peer{}
	}
	return &KeyLocation{
		RegionID: r.GetId(),
		Epoch:    proto.Clone(epoch).(*kvrpcpb.RegionEpoch),
		StartKey: bytes.Clone(r.GetStartKey()),
		EndKey:   bytes.Clone(r.GetEndKey()),
		Leader:   proto.Clone(leader).(*kvrpcpb.Peer),
		Addr:     info.Addr,
	}
}

// Contains reports whether key lies in [StartKey, EndKey).
func (l *KeyLocation) Contains(key []byte) bool {
	return bytes.Compare(key, l.StartKey) >= 0 && (len(l.EndKey) == 0 || bytes.Compare(key, l.EndKey) < 0)
}

// ContainsBefore reports whether the keys just below key belong to this
// region, i.e. StartKey < key <= EndKey; an empty key means +inf.
func (l *KeyLocation) ContainsBefore(key []byte) bool {
	if len(key) == 0 {
		return len(l.EndKey) == 0
	}
	return bytes.Compare(l.StartKey, key) < 0 && (len(l.EndKey) == 0 || bytes.Compare(key, l.EndKey) <= 0)
}

// Context returns the kvrpcpb.Context that routes a request to this region.
func (l *KeyLocation) Context() *kvrpcpb.Context {
	return &kvrpcpb.Context{
		RegionId:    l.RegionID,
		RegionEpoch: proto.Clone(l.Epoch).(*kvrpcpb.RegionEpoch),
		Peer:        proto.Clone(l.Leader).(*kvrpcpb.Peer),
	}
}

// withLeader returns a copy of l led by leader at addr.
func (l *KeyLocation) withLeader(leader *kvrpcpb.Peer, addr string) *KeyLocation {
	c := *l
	c.Leader = proto.Clone(leader).(*kvrpcpb.Peer)
	c.Addr = addr
	return &c
}

// epochNewer reports whether a is a later epoch than b.
func epochNewer(a, b *kvrpcpb.RegionEpoch) bool {
	return a.GetVersion() > b.GetVersion() ||
		a.GetVersion() == b.GetVersion() && a.GetConfVer() > b.GetConfVer()
}
