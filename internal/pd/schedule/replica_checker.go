package schedule

import (
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// Names of the replica checker's operators (Operator.Name).
const (
	// OpRemoveLostLearner removes a learner on a lost store.
	OpRemoveLostLearner = "remove-lost-learner"
	// OpRemoveExtraReplica removes a voter beyond max-replicas.
	OpRemoveExtraReplica = "remove-extra-replica"
	// OpReplaceLostReplica replaces a voter on a lost store.
	OpReplaceLostReplica = "replace-lost-replica"
	// OpPromoteLearner promotes a learner left behind.
	OpPromoteLearner = "promote-learner"
	// OpMakeUpReplica adds a missing voter.
	OpMakeUpReplica = "make-up-replica"
	// OpRemoveOrphanLearner removes a learner the region does not need.
	OpRemoveOrphanLearner = "remove-orphan-learner"
)

// checkReplicas is the replica checker: it returns the operator that
// brings region closer to max-replicas healthy voters, or nil. Rules, in
// order (one operator at a time; the next heartbeat or tick applies the
// next rule):
//
//  1. a learner on a lost store (down, offline, tombstone) is removed;
//  2. with more voters than max-replicas, one is removed: the worst by
//     store state, down/pending report, then load; never the leader
//     without a leader transfer first;
//  3. a voter on a lost store is replaced: add a learner on the best
//     store (or take a learner left behind), promote it, remove the lost
//     peer (add before remove);
//  4. with fewer voters than max-replicas, a learner left behind is
//     promoted once it has caught up, else a new peer is added as a
//     learner and promoted;
//  5. with max-replicas voters, a leftover learner is removed.
//
// Regions without a known leader, or in a joint configuration, are left
// alone. The error is the ID allocator's.
func checkReplicas(v *view, region *meta.RegionInfo) (*Operator, error) {
	if region.Leader == nil || v.room[KindReplica] <= 0 {
		return nil, nil
	}
	var voters, learners []*kvrpcpb.Peer
	for _, p := range region.Meta.GetPeers() {
		switch p.GetRole() {
		case kvrpcpb.PeerRole_Voter:
			voters = append(voters, p)
		case kvrpcpb.PeerRole_Learner:
			learners = append(learners, p)
		default:
			return nil, nil // joint state: not ours to touch
		}
	}
	max := int(v.cfg.Replication.MaxReplicas)

	// 1. Learners on lost stores.
	for _, l := range learners {
		if v.state(l.GetStoreId()).lost() {
			return v.newOperator(OpRemoveLostLearner, KindReplica, region,
				RemovePeer{FromStore: l.GetStoreId(), PeerID: l.GetId()}), nil
		}
	}
	// 2. Extra voters.
	if len(voters) > max {
		victim := worstVoter(v, region, voters)
		return v.newOperator(OpRemoveExtraReplica, KindReplica, region, removeSteps(v, region, victim)...), nil
	}
	// 3. Voters on lost stores.
	for _, p := range voters {
		if !v.state(p.GetStoreId()).lost() {
			continue
		}
		if l := usableLearner(v, region, learners); l != nil {
			if isPending(region, l.GetId()) {
				return nil, nil // wait until it has caught up
			}
			steps := []Step{PromoteLearner{ToStore: l.GetStoreId(), PeerID: l.GetId()}}
			steps = append(steps, removeSteps(v, region, p)...)
			return v.newOperator(OpReplaceLostReplica, KindReplica, region, steps...), nil
		}
		target := v.selectTarget(region, p.GetStoreId())
		if target == nil {
			return nil, nil
		}
		id, err := v.opts.AllocID()
		if err != nil {
			return nil, fmt.Errorf("schedule: replace peer %d of region %d: %w", p.GetId(), region.ID(), err)
		}
		steps := []Step{AddLearner{ToStore: target.id, PeerID: id}, PromoteLearner{ToStore: target.id, PeerID: id}}
		steps = append(steps, removeSteps(v, region, p)...)
		return v.newOperator(OpReplaceLostReplica, KindReplica, region, steps...), nil
	}
	// 4. Missing voters.
	if len(voters) < max {
		if l := usableLearner(v, region, learners); l != nil {
			if isPending(region, l.GetId()) {
				return nil, nil // wait until it has caught up
			}
			return v.newOperator(OpPromoteLearner, KindReplica, region,
				PromoteLearner{ToStore: l.GetStoreId(), PeerID: l.GetId()}), nil
		}
		target := v.selectTarget(region, 0)
		if target == nil {
			return nil, nil
		}
		id, err := v.opts.AllocID()
		if err != nil {
			return nil, fmt.Errorf("schedule: add a peer to region %d: %w", region.ID(), err)
		}
		return v.newOperator(OpMakeUpReplica, KindReplica, region,
			AddLearner{ToStore: target.id, PeerID: id}, PromoteLearner{ToStore: target.id, PeerID: id}), nil
	}
	// 5. Leftover learners.
	if len(learners) > 0 {
		l := learners[0]
		return v.newOperator(OpRemoveOrphanLearner, KindReplica, region,
			RemovePeer{FromStore: l.GetStoreId(), PeerID: l.GetId()}), nil
	}
	return nil, nil
}

// usableLearner returns a learner of region that can become a voter: on
// a store that is up and not reported down (it may still be pending), or
// nil.
func usableLearner(v *view, region *meta.RegionInfo, learners []*kvrpcpb.Peer) *kvrpcpb.Peer {
	for _, l := range learners {
		if v.state(l.GetStoreId()) == StoreUp && !isDown(region, l.GetId()) {
			return l
		}
	}
	return nil
}

// worstVoter picks the voter to drop from a region with too many: on a
// lost store first, then disconnected, then reported down, then pending,
// then not the leader, then on the store with the most regions, then the
// highest store id.
func worstVoter(v *view, region *meta.RegionInfo, voters []*kvrpcpb.Peer) *kvrpcpb.Peer {
	badness := func(p *kvrpcpb.Peer) [5]int {
		st := v.state(p.GetStoreId())
		b := [5]int{}
		if st.lost() {
			b[0] = 1
		}
		if st == StoreDisconnected {
			b[1] = 1
		}
		if isDown(region, p.GetId()) {
			b[2] = 1
		}
		if isPending(region, p.GetId()) {
			b[3] = 1
		}
		if p.GetId() != region.Leader.GetId() {
			b[4] = 1
		}
		return b
	}
	var worst *kvrpcpb.Peer
	var wb [5]int
	for _, p := range voters {
		b := badness(p)
		if worst == nil || worse(v, p, worst, b, wb) {
			worst, wb = p, b
		}
	}
	return worst
}

// worse reports whether voter a (badness ba) is a better pick for removal
// than b.
func worse(v *view, a, b *kvrpcpb.Peer, ba, bb [5]int) bool {
	for i := range ba {
		if ba[i] != bb[i] {
			return ba[i] > bb[i]
		}
	}
	ra, rb := 0, 0
	if s := v.byID[a.GetStoreId()]; s != nil {
		ra = s.regions
	}
	if s := v.byID[b.GetStoreId()]; s != nil {
		rb = s.regions
	}
	if ra != rb {
		return ra > rb
	}
	return a.GetStoreId() > b.GetStoreId()
}

// removeSteps removes peer p from region, moving leadership first if p
// leads (to the healthy voter on the store with the fewest leaders).
func removeSteps(v *view, region *meta.RegionInfo, p *kvrpcpb.Peer) []Step {
	rm := RemovePeer{FromStore: p.GetStoreId(), PeerID: p.GetId()}
	if p.GetId() != region.Leader.GetId() {
		return []Step{rm}
	}
	var to *storeView
	for _, o := range region.Meta.GetPeers() {
		if o.GetId() == p.GetId() || !v.healthyVoter(region, o) {
			continue
		}
		s := v.byID[o.GetStoreId()]
		if to == nil || s.leaders < to.leaders {
			to = s
		}
	}
	if to == nil {
		// No voter fit to lead now; the Controller still moves leadership
		// before it sends the removal.
		return []Step{rm}
	}
	return []Step{TransferLeader{FromStore: p.GetStoreId(), ToStore: to.id}, rm}
}
