package schedule

import (
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// Step is one change an operator asks of a region's leader: AddLearner,
// PromoteLearner, RemovePeer or TransferLeader. A step is done when the
// region's reported state shows it, never because it was sent: sending
// is repeated on heartbeats until then.
type Step interface {
	fmt.Stringer
	// IsFinished reports whether region's observed state shows the step
	// done.
	IsFinished(region *meta.RegionInfo) bool

	// applied reports whether the step's change is visible in region
	// (for a conf change: its conf_ver bump happened). It can be true
	// while the step is not finished: a learner that is still catching
	// up is there, but not yet finished.
	applied(region *meta.RegionInfo) bool
	// confChange reports whether the step bumps conf_ver (+1) when
	// applied.
	confChange() bool
	// check returns ErrStepConflict when region's state makes the step
	// impossible.
	check(region *meta.RegionInfo) error
	// request is the heartbeat response carrying the step (header and
	// region fields are the Controller's).
	request(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse
}

// AddLearner adds peer PeerID on store ToStore as a learner; done once the
// learner is there and has caught up (not pending), so that promoting it
// never adds a lagging voter.
type AddLearner struct {
	// ToStore is the store that gets the peer.
	ToStore uint64
	// PeerID is the new peer's id, from PD's allocator.
	PeerID uint64
}

// String describes the step.
func (s AddLearner) String() string {
	return fmt.Sprintf("add learner peer %d on store %d", s.PeerID, s.ToStore)
}

// IsFinished reports whether the peer is there (learner or already voter)
// and not pending.
func (s AddLearner) IsFinished(region *meta.RegionInfo) bool {
	return s.applied(region) && !isPending(region, s.PeerID)
}

func (s AddLearner) applied(region *meta.RegionInfo) bool {
	p := region.PeerOnStore(s.ToStore)
	return p != nil && p.GetId() == s.PeerID
}

func (s AddLearner) confChange() bool { return true }

func (s AddLearner) check(region *meta.RegionInfo) error {
	if p := region.PeerOnStore(s.ToStore); p != nil && p.GetId() != s.PeerID {
		return fmt.Errorf("%w: store %d holds peer %d, not %d", ErrStepConflict, s.ToStore, p.GetId(), s.PeerID)
	}
	return nil
}

func (s AddLearner) request(*meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	return &pdpb.RegionHeartbeatResponse{ChangePeer: &pdpb.ChangePeer{
		Peer:       &kvrpcpb.Peer{Id: s.PeerID, StoreId: s.ToStore, Role: kvrpcpb.PeerRole_Learner},
		ChangeType: pdpb.ConfChangeType_AddLearnerNode,
	}}
}

// PromoteLearner makes learner PeerID on store ToStore a voter.
type PromoteLearner struct {
	// ToStore is the learner's store.
	ToStore uint64
	// PeerID is the learner's id.
	PeerID uint64
}

// String describes the step.
func (s PromoteLearner) String() string {
	return fmt.Sprintf("promote peer %d on store %d", s.PeerID, s.ToStore)
}

// IsFinished reports whether the peer is a voter.
func (s PromoteLearner) IsFinished(region *meta.RegionInfo) bool { return s.applied(region) }

func (s PromoteLearner) applied(region *meta.RegionInfo) bool {
	p := region.PeerOnStore(s.ToStore)
	return p != nil && p.GetId() == s.PeerID && p.GetRole() == kvrpcpb.PeerRole_Voter
}

func (s PromoteLearner) confChange() bool { return true }

func (s PromoteLearner) check(region *meta.RegionInfo) error {
	if p := region.PeerOnStore(s.ToStore); p == nil || p.GetId() != s.PeerID {
		return fmt.Errorf("%w: peer %d on store %d to promote is gone", ErrStepConflict, s.PeerID, s.ToStore)
	}
	return nil
}

func (s PromoteLearner) request(*meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	return &pdpb.RegionHeartbeatResponse{ChangePeer: &pdpb.ChangePeer{
		Peer:       &kvrpcpb.Peer{Id: s.PeerID, StoreId: s.ToStore, Role: kvrpcpb.PeerRole_Voter},
		ChangeType: pdpb.ConfChangeType_AddNode,
	}}
}

// RemovePeer removes peer PeerID from store FromStore. The Controller
// never sends it while that peer leads: it asks for a leader transfer
// first.
type RemovePeer struct {
	// FromStore is the peer's store.
	FromStore uint64
	// PeerID is the peer's id.
	PeerID uint64
}

// String describes the step.
func (s RemovePeer) String() string {
	return fmt.Sprintf("remove peer %d on store %d", s.PeerID, s.FromStore)
}

// IsFinished reports whether the peer is gone.
func (s RemovePeer) IsFinished(region *meta.RegionInfo) bool { return s.applied(region) }

func (s RemovePeer) applied(region *meta.RegionInfo) bool { return findPeer(region, s.PeerID) == nil }

func (s RemovePeer) confChange() bool { return true }

func (s RemovePeer) check(*meta.RegionInfo) error { return nil }

func (s RemovePeer) request(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	peer := &kvrpcpb.Peer{Id: s.PeerID, StoreId: s.FromStore}
	if p := findPeer(region, s.PeerID); p != nil {
		peer.Role = p.GetRole()
	}
	return &pdpb.RegionHeartbeatResponse{ChangePeer: &pdpb.ChangePeer{
		Peer: peer, ChangeType: pdpb.ConfChangeType_RemoveNode,
	}}
}

// TransferLeader moves the region's leadership from store FromStore to
// the voter on store ToStore.
type TransferLeader struct {
	// FromStore is the leader's store when the operator was made.
	FromStore uint64
	// ToStore is the store whose voter is to lead.
	ToStore uint64
}

// String describes the step.
func (s TransferLeader) String() string {
	return fmt.Sprintf("transfer leader from store %d to store %d", s.FromStore, s.ToStore)
}

// IsFinished reports whether the leader is on ToStore.
func (s TransferLeader) IsFinished(region *meta.RegionInfo) bool { return s.applied(region) }

func (s TransferLeader) applied(region *meta.RegionInfo) bool {
	return region.Leader != nil && region.Leader.GetStoreId() == s.ToStore
}

func (s TransferLeader) confChange() bool { return false }

func (s TransferLeader) check(region *meta.RegionInfo) error {
	if p := region.PeerOnStore(s.ToStore); p == nil || p.GetRole() != kvrpcpb.PeerRole_Voter {
		return fmt.Errorf("%w: store %d holds no voter to lead", ErrStepConflict, s.ToStore)
	}
	return nil
}

func (s TransferLeader) request(region *meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
	return transferTo(region.PeerOnStore(s.ToStore))
}

func transferTo(p *kvrpcpb.Peer) *pdpb.RegionHeartbeatResponse {
	return &pdpb.RegionHeartbeatResponse{TransferLeader: &pdpb.TransferLeader{
		Peer: &kvrpcpb.Peer{Id: p.GetId(), StoreId: p.GetStoreId(), Role: p.GetRole()},
	}}
}

// findPeer returns region's peer id, or nil.
func findPeer(region *meta.RegionInfo, id uint64) *kvrpcpb.Peer {
	for _, p := range region.Meta.GetPeers() {
		if p.GetId() == id {
			return p
		}
	}
	return nil
}

// isPending reports whether the leader reports peer id as lagging.
func isPending(region *meta.RegionInfo, id uint64) bool {
	for _, p := range region.PendingPeers {
		if p.GetId() == id {
			return true
		}
	}
	return false
}

// isDown reports whether the leader reports peer id as unreachable.
func isDown(region *meta.RegionInfo, id uint64) bool {
	for _, p := range region.DownPeers {
		if p.GetPeer().GetId() == id {
			return true
		}
	}
	return false
}
