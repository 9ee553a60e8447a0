package schedule

import (
	"math"

	"github.com/strata-db/strata/internal/pd/meta"
)

// replicaBaseScore weighs label levels in distinctScore: a difference at
// a higher level (zone) outweighs any number at lower ones (host).
const replicaBaseScore = 100

// label returns store s's value for label key ("" if none).
func label(s *meta.StoreInfo, key string) string {
	for _, l := range s.Meta.GetLabels() {
		if l.GetKey() == key {
			return l.GetValue()
		}
	}
	return ""
}

// distinctScore is how well store s is isolated from stores others by
// the location labels (ranked, highest level first), PD's DistinctScore:
// each other store adds replicaBaseScore^(levels below the first label
// that differs). With no labels every store scores 0.
func distinctScore(labels []string, others []*storeView, s *storeView) float64 {
	var score float64
	for _, o := range others {
		if o.id == s.id {
			continue
		}
		for i, key := range labels {
			if label(o.info, key) != label(s.info, key) {
				score += math.Pow(replicaBaseScore, float64(len(labels)-i-1))
				break
			}
		}
	}
	return score
}

// peerStores are the views of the stores holding region's peers, except
// store skip (a peer about to go) and unknown stores.
func (v *view) peerStores(region *meta.RegionInfo, skip uint64) []*storeView {
	var out []*storeView
	for _, p := range region.Meta.GetPeers() {
		if p.GetStoreId() == skip {
			continue
		}
		if s := v.byID[p.GetStoreId()]; s != nil {
			out = append(out, s)
		}
	}
	return out
}

// canReceive reports whether store s may get a new peer: up, not busy,
// and under the store limit.
func (v *view) canReceive(s *storeView) bool {
	return s.state == StoreUp && !s.info.Stats.GetIsBusy() && s.adding < v.opts.StoreLimit
}

// better reports whether candidate a beats b as a new peer's store:
// better isolated, then fewer regions, then more free space, then the
// lower id.
func better(a, b *storeView, sa, sb float64) bool {
	if sa != sb {
		return sa > sb
	}
	if a.regions != b.regions {
		return a.regions < b.regions
	}
	if a.available() != b.available() {
		return a.available() > b.available()
	}
	return a.id < b.id
}

// selectTarget picks the store for a new peer of region, replacing the
// peer on store replacing (0: none): a store that can receive, holds no
// peer of the region, and ranks best (see better). Nil if none fits.
func (v *view) selectTarget(region *meta.RegionInfo, replacing uint64) *storeView {
	others := v.peerStores(region, replacing)
	labels := v.cfg.Replication.LocationLabels
	var best *storeView
	var bestScore float64
	for _, s := range v.stores {
		if region.PeerOnStore(s.id) != nil || !v.canReceive(s) {
			continue
		}
		score := distinctScore(labels, others, s)
		if best == nil || better(s, best, score, bestScore) {
			best, bestScore = s, score
		}
	}
	return best
}
