package schedule

import "sort"

// OpBalanceLeader names balance-leader's operators.
const OpBalanceLeader = "balance-leader"

// upStores returns the views of the stores that are up, sorted by key
// (ascending), then by id.
func upStores(v *view, key func(*storeView) int, desc bool) []*storeView {
	var out []*storeView
	for _, s := range v.stores {
		if s.state == StoreUp {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := key(out[i]), key(out[j])
		if a != b {
			return (a > b) == desc
		}
		return out[i].id < out[j].id
	})
	return out
}

// balanceLeader moves one leader from the store leading the most regions
// to the one leading the fewest, when their counts (with the running
// operators' influence) differ by more than Options.LeaderTolerance. The
// region must have a healthy voter (not down, not pending) on the target.
// Only stores that are up take part. Nil when balanced or no region fits.
func balanceLeader(v *view, busy func(regionID uint64) bool) (*Operator, error) {
	if v.room[KindLeader] <= 0 {
		return nil, nil
	}
	leaders := func(s *storeView) int { return s.leaders }
	sources := upStores(v, leaders, true)
	targets := upStores(v, leaders, false)
	for _, src := range sources {
		for _, dst := range targets {
			if src.leaders-dst.leaders <= v.opts.LeaderTolerance {
				break
			}
			for _, r := range v.counts.led[src.id] {
				if busy(r.ID()) {
					continue
				}
				if p := r.PeerOnStore(dst.id); p == nil || !v.healthyVoter(r, p) {
					continue
				}
				return v.newOperator(OpBalanceLeader, KindLeader, r,
					TransferLeader{FromStore: src.id, ToStore: dst.id}), nil
			}
		}
	}
	return nil, nil
}
