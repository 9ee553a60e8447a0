package raftstore

import (
	"bytes"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// regionSnapshot is a kvdb snapshot seen through one region: iterators of
// each MVCC key space are clamped to the region's range, so a command
// routed to the region (a ResolveLock scanning for a txn's locks, a scan
// a client did not bound) never reads — and so never writes back — keys
// of other regions this store also holds.
type regionSnapshot struct {
	engine.Snapshot
	ranges [][2][]byte // per key space, as mvcc.EngineRanges
}

func newRegionSnapshot(snap engine.Snapshot, ranges [][2][]byte) engine.Snapshot {
	return &regionSnapshot{Snapshot: snap, ranges: ranges}
}

// PrefixSeeks implements engine.PrefixSnapshot for the underlying one.
func (s *regionSnapshot) PrefixSeeks() bool {
	ps, ok := s.Snapshot.(engine.PrefixSnapshot)
	return ok && ps.PrefixSeeks()
}

// Covers implements engine.PartialSnapshot: key lies in the region.
func (s *regionSnapshot) Covers(key []byte) bool { return mvcc.InEngineRanges(key, s.ranges) }

// NewIter implements engine.Snapshot with bounds clamped to the region in
// the key space lower (or upper) falls in.
func (s *regionSnapshot) NewIter(lower, upper []byte) (engine.Iterator, error) {
	probe := lower
	if len(probe) == 0 {
		probe = upper
	}
	if len(probe) > 0 {
		for _, rg := range s.ranges {
			if rg[0][0] != probe[0] {
				continue
			}
			if len(lower) == 0 || bytes.Compare(lower, rg[0]) < 0 {
				lower = rg[0]
			}
			if len(upper) == 0 || bytes.Compare(upper, rg[1]) > 0 {
				upper = rg[1]
			}
			if bytes.Compare(lower, upper) > 0 {
				upper = lower // empty
			}
			break
		}
	}
	return s.Snapshot.NewIter(lower, upper)
}

// checkKeysInRegion returns KeyNotInRegion for the first op of b whose
// engine key lies outside the region's engine ranges (no user key is
// decoded: this runs on every write).
func checkKeysInRegion(b *engine.Batch, r *kvrpcpb.Region, ranges [][2][]byte) error {
	for _, op := range b.Ops() {
		if !mvcc.InEngineRanges(op.Key, ranges) {
			k, ok := mvcc.UserKeyOf(op.Key)
			if !ok {
				k = op.Key
			}
			return errKeyNotInRegion(k, r)
		}
	}
	return nil
}
