package meta

import (
	"bytes"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/protobuf/proto"
)

// RegionInfo is what PD knows about one region: its metadata (range,
// epoch, peers) as last reported, and the volatile state of its last
// heartbeat. A RegionInfo in the tree is immutable: updates replace it,
// so readers may keep and marshal one without a lock.
type RegionInfo struct {
	// Meta is the region's descriptor: id, [start, end), epoch, peers.
	Meta *kvrpcpb.Region
	// Leader is the peer that sent the last heartbeat (nil: unknown, e.g.
	// a region loaded from storage or learnt from a split report).
	Leader *kvrpcpb.Peer
	// DownPeers are the peers the leader has not heard from lately.
	DownPeers []*pdpb.PeerStats
	// PendingPeers are the peers whose raft log lags behind.
	PendingPeers []*kvrpcpb.Peer
	// ApproximateSize and ApproximateKeys are the leader's estimates.
	ApproximateSize uint64
	// ApproximateKeys: see ApproximateSize.
	ApproximateKeys uint64
	// BytesWritten and KeysWritten are the writes since the previous
	// heartbeat.
	BytesWritten uint64
	// KeysWritten: see BytesWritten.
	KeysWritten uint64
	// Term is the leader's raft term (0: not reported).
	Term uint64
}

// RegionFromHeartbeat builds a RegionInfo from a heartbeat. It takes
// ownership of the request's messages.
func RegionFromHeartbeat(req *pdpb.RegionHeartbeatRequest) *RegionInfo {
	return &RegionInfo{
		Meta:            req.GetRegion(),
		Leader:          req.GetLeader(),
		DownPeers:       req.GetDownPeers(),
		PendingPeers:    req.GetPendingPeers(),
		ApproximateSize: req.GetApproximateSize(),
		ApproximateKeys: req.GetApproximateKeys(),
		BytesWritten:    req.GetBytesWritten(),
		KeysWritten:     req.GetKeysWritten(),
		Term:            req.GetTerm(),
	}
}

// ID is the region's id.
func (r *RegionInfo) ID() uint64 { return r.Meta.GetId() }

// StartKey is the inclusive start of the region's range (empty: -inf).
func (r *RegionInfo) StartKey() []byte { return r.Meta.GetStartKey() }

// EndKey is the exclusive end of the region's range (empty: +inf).
func (r *RegionInfo) EndKey() []byte { return r.Meta.GetEndKey() }

// Epoch is the region's epoch (never nil).
func (r *RegionInfo) Epoch() *kvrpcpb.RegionEpoch {
	if e := r.Meta.GetRegionEpoch(); e != nil {
		return e
	}
	return &kvrpcpb.RegionEpoch{}
}

// Contains reports whether key lies in the region's [start, end).
func (r *RegionInfo) Contains(key []byte) bool {
	return bytes.Compare(key, r.StartKey()) >= 0 && (len(r.EndKey()) == 0 || bytes.Compare(key, r.EndKey()) < 0)
}

// PeerOnStore returns the region's peer on store id, or nil.
func (r *RegionInfo) PeerOnStore(storeID uint64) *kvrpcpb.Peer {
	for _, p := range r.Meta.GetPeers() {
		if p.GetStoreId() == storeID {
			return p
		}
	}
	return nil
}

// String names the region for logs.
func (r *RegionInfo) String() string {
	e := r.Epoch()
	return fmt.Sprintf("region %d [%x, %x) v%d c%d", r.ID(), r.StartKey(), r.EndKey(), e.GetVersion(), e.GetConfVer())
}

// ValidateRegion checks the shape of a reported region: an id, at least
// one peer, and an end above the start.
func ValidateRegion(r *kvrpcpb.Region) error {
	if r == nil || r.GetId() == 0 {
		return fmt.Errorf("%w: no id", ErrInvalidRegion)
	}
	if len(r.GetPeers()) == 0 {
		return fmt.Errorf("%w: region %d has no peers", ErrInvalidRegion, r.GetId())
	}
	if len(r.GetEndKey()) > 0 && bytes.Compare(r.GetStartKey(), r.GetEndKey()) >= 0 {
		return fmt.Errorf("%w: region %d: end %x not above start %x", ErrInvalidRegion, r.GetId(), r.GetEndKey(), r.GetStartKey())
	}
	return nil
}

// EpochStale reports whether epoch a is older than b in either part: a
// report at a is stale against knowledge at b. PD accepts a report only
// when both version and conf_ver are at least what it knows.
func EpochStale(a, b *kvrpcpb.RegionEpoch) bool {
	return a.GetVersion() < b.GetVersion() || a.GetConfVer() < b.GetConfVer()
}

// checkStale applies PD's rule to a report r about to replace origin (the
// known region with the same id, or nil) and overlaps (the known regions
// whose ranges intersect r's): r is stale if its version is below any
// overlapping region's version (a split or merge happened that r has not
// seen), or if its version, conf_ver or term is below origin's.
func checkStale(r, origin *RegionInfo, overlaps []*RegionInfo) error {
	for _, o := range overlaps {
		if r.Epoch().GetVersion() < o.Epoch().GetVersion() {
			return fmt.Errorf("%w: %v behind overlapping %v", ErrStaleRegion, r, o)
		}
	}
	if origin == nil {
		return nil
	}
	if EpochStale(r.Epoch(), origin.Epoch()) || r.Term > 0 && r.Term < origin.Term {
		return fmt.Errorf("%w: %v (term %d) behind %v (term %d)", ErrStaleRegion, r, r.Term, origin, origin.Term)
	}
	return nil
}

// metaChanged reports whether the persisted part of a region (range,
// epoch, peers) differs between a and b.
func metaChanged(a, b *kvrpcpb.Region) bool {
	return !proto.Equal(a, b)
}
