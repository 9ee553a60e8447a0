package meta

import (
	"bytes"

	"github.com/google/btree"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// regionTree indexes regions by start key (a B-tree) and by id (a map).
// The ranges in the tree never overlap: inserting a region first removes
// every region it overlaps. It is not safe for concurrent use; Cluster
// guards it.
type regionTree struct {
	tree *btree.BTreeG[*RegionInfo]
	byID map[uint64]*RegionInfo
}

func lessByStart(a, b *RegionInfo) bool { return bytes.Compare(a.StartKey(), b.StartKey()) < 0 }

func newRegionTree() *regionTree {
	return &regionTree{tree: btree.NewG(32, lessByStart), byID: map[uint64]*RegionInfo{}}
}

// probe is a search key for the tree.
func probe(start []byte) *RegionInfo {
	return &RegionInfo{Meta: regionWithStart(start)}
}

func (t *regionTree) len() int { return len(t.byID) }

// byKey returns the region containing key, or nil.
func (t *regionTree) byKey(key []byte) *RegionInfo {
	var found *RegionInfo
	t.tree.DescendLessOrEqual(probe(key), func(r *RegionInfo) bool {
		found = r
		return false
	})
	if found != nil && found.Contains(key) {
		return found
	}
	return nil
}

// before returns the region holding the keys just below key: start < key
// <= end. An empty key means +inf, i.e. the last region (empty end).
func (t *regionTree) before(key []byte) *RegionInfo {
	var found *RegionInfo
	if len(key) == 0 {
		t.tree.Descend(func(r *RegionInfo) bool {
			found = r
			return false
		})
		if found != nil && len(found.EndKey()) == 0 {
			return found
		}
		return nil
	}
	t.tree.DescendLessOrEqual(probe(key), func(r *RegionInfo) bool {
		if bytes.Equal(r.StartKey(), key) {
			return true // starts at key: holds nothing below it
		}
		found = r
		return false
	})
	if found != nil && (len(found.EndKey()) == 0 || bytes.Compare(key, found.EndKey()) <= 0) {
		return found
	}
	return nil
}

// overlaps returns the regions whose ranges intersect [start, end), in key
// order (an empty end means +inf).
func (t *regionTree) overlaps(start, end []byte) []*RegionInfo {
	var out []*RegionInfo
	// The region starting at or before start may reach into the range.
	t.tree.DescendLessOrEqual(probe(start), func(r *RegionInfo) bool {
		if len(r.EndKey()) == 0 || bytes.Compare(r.EndKey(), start) > 0 {
			out = append(out, r)
		}
		return false
	})
	t.tree.AscendGreaterOrEqual(probe(start), func(r *RegionInfo) bool {
		if len(end) > 0 && bytes.Compare(r.StartKey(), end) >= 0 {
			return false
		}
		if len(out) > 0 && out[0] == r {
			return true // the region starting exactly at start, seen above
		}
		out = append(out, r)
		return true
	})
	return out
}

// scan returns up to limit regions (0: no limit) intersecting
// [start, end), starting with the one containing start.
func (t *regionTree) scan(start, end []byte, limit int) []*RegionInfo {
	rs := t.overlaps(start, end)
	if limit > 0 && len(rs) > limit {
		rs = rs[:limit]
	}
	return rs
}

// ascend calls fn for every region in key order until fn returns false.
func (t *regionTree) ascend(fn func(*RegionInfo) bool) { t.tree.Ascend(fn) }

// remove drops r (by id) from both indexes.
func (t *regionTree) remove(r *RegionInfo) {
	cur, ok := t.byID[r.ID()]
	if !ok {
		return
	}
	delete(t.byID, r.ID())
	if got, ok := t.tree.Get(cur); ok && got.ID() == cur.ID() {
		t.tree.Delete(cur)
	}
}

// put inserts r, removing the region with the same id and every region
// whose range r overlaps. It returns the removed regions other than the
// one with r's id.
func (t *regionTree) put(r *RegionInfo) []*RegionInfo {
	if old, ok := t.byID[r.ID()]; ok {
		t.remove(old)
	}
	var removed []*RegionInfo
	for _, o := range t.overlaps(r.StartKey(), r.EndKey()) {
		t.remove(o)
		removed = append(removed, o)
	}
	t.tree.ReplaceOrInsert(r)
	t.byID[r.ID()] = r
	return removed
}

func regionWithStart(start []byte) *kvrpcpb.Region { return &kvrpcpb.Region{StartKey: start} }
