package txn

import (
	"context"
	"time"
)

// wantFloor asks the floor loop (RunNewestFloor), if one runs, to
// establish the newest-write record's floor.
func (n *newestWrites) wantFloor() {
	select {
	case n.needFloor <- struct{}{}:
	default:
	}
}

// beginFloor begins establishing the floor; the timestamp endFloor is
// given must be asked of the TSO after beginFloor returns gen.
func (n *newestWrites) beginFloor() (gen uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.floorGen++
	n.raisedSince = 0
	return n.floorGen
}

// endFloor establishes the floor at ts, or above it at what the floor was
// raised to since beginFloor. Every record the engine held at beginFloor
// is at most ts; every record written since was seen by afterWrite, which
// raised the floor to it or made it an entry. It fails, leaving the floor
// unknown, when a range rewrite (which writes unseen) is under way or
// ended since: that rewrite's end asks for a new floor.
func (n *newestWrites) endFloor(gen, ts uint64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if gen != n.floorGen || n.replacing > 0 {
		return false
	}
	if n.floorOK {
		n.floor = max(n.floor, ts, n.raisedSince)
	} else {
		n.floor, n.floorOK = max(ts, n.raisedSince), true
	}
	return true
}

// RunNewestFloor establishes the floor of the store's newest-write record
// (see newestWrites) with timestamps from tso (PD's TSO) whenever it has
// none: at once, and after every range rewrite (a raft snapshot's
// install, a peer's destroy). It returns when ctx ends. Without it the
// floor stays unknown: a newer-version check of a key the record has no
// entry for seeks, as it always did.
func (s *Storage) RunNewestFloor(ctx context.Context, tso func(context.Context) (uint64, error)) {
	n := s.newest
	if n == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.needFloor:
		}
		for attempt := 0; ; attempt++ {
			gen := n.beginFloor()
			ts, err := tso(ctx)
			if err == nil {
				n.endFloor(gen, ts) // a failure is retried when the rewrite ends
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(min(time.Duration(attempt+1)*50*time.Millisecond, time.Second)):
			}
		}
	}
}
