package schedule

import (
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// OpBalanceRegion names balance-region's operators.
const OpBalanceRegion = "balance-region"

// balanceRegion moves one peer from the store holding the most regions to
// the one holding the fewest, when their counts (with the running
// operators' influence) differ by more than Options.RegionTolerance: add
// a learner on the target, promote it, move leadership to it if the
// source leads, remove the source's peer. The region must be healthy and
// fully replicated (no down or pending peers, no learner, max-replicas
// voters on stores that are up), and the target must be isolated by the
// location labels at least as well as the source. Regions the source
// does not lead go first (no leader transfer needed). Only stores that
// are up take part. The error is the ID allocator's.
func balanceRegion(v *view, busy func(regionID uint64) bool) (*Operator, error) {
	if v.room[KindRegion] <= 0 {
		return nil, nil
	}
	regions := func(s *storeView) int { return s.regions }
	sources := upStores(v, regions, true)
	targets := upStores(v, regions, false)
	for _, src := range sources {
		for _, dst := range targets {
			if src.regions-dst.regions <= v.opts.RegionTolerance {
				break
			}
			if !v.canReceive(dst) {
				continue
			}
			for _, leaderToo := range []bool{false, true} {
				for _, r := range v.counts.peers[src.id] {
					if leaderToo != (r.Leader.GetStoreId() == src.id) || busy(r.ID()) || !movable(v, r, src, dst) {
						continue
					}
					return moveOperator(v, r, src.id, dst.id)
				}
			}
		}
	}
	return nil, nil
}

// movable reports whether region's peer on src may move to dst.
func movable(v *view, r *meta.RegionInfo, src, dst *storeView) bool {
	if r.Leader == nil || len(r.DownPeers) > 0 || len(r.PendingPeers) > 0 || r.PeerOnStore(dst.id) != nil {
		return false
	}
	if len(r.Meta.GetPeers()) != int(v.cfg.Replication.MaxReplicas) {
		return false
	}
	for _, p := range r.Meta.GetPeers() {
		if p.GetRole() != kvrpcpb.PeerRole_Voter || v.state(p.GetStoreId()) != StoreUp {
			return false
		}
	}
	labels := v.cfg.Replication.LocationLabels
	others := v.peerStores(r, src.id)
	return distinctScore(labels, others, dst) >= distinctScore(labels, others, src)
}

// moveOperator moves region's peer from store from to store to: add
// before remove, never removing the leader without a transfer first.
func moveOperator(v *view, r *meta.RegionInfo, from, to uint64) (*Operator, error) {
	id, err := v.opts.AllocID()
	if err != nil {
		return nil, fmt.Errorf("schedule: move region %d from store %d: %w", r.ID(), from, err)
	}
	old := r.PeerOnStore(from)
	steps := []Step{AddLearner{ToStore: to, PeerID: id}, PromoteLearner{ToStore: to, PeerID: id}}
	if r.Leader.GetId() == old.GetId() {
		steps = append(steps, TransferLeader{FromStore: from, ToStore: to})
	}
	steps = append(steps, RemovePeer{FromStore: from, PeerID: old.GetId()})
	return v.newOperator(OpBalanceRegion, KindRegion, r, steps...), nil
}
