package locate

import (
	"bytes"
	"context"
	"sort"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// RegionCache caches the regions learnt from a RegionSource, ordered by
// start key. It is safe for concurrent use.
type RegionCache struct {
	src RegionSource

	mu struct {
		sync.RWMutex
		sorted []*KeyLocation // by StartKey; ranges never overlap
		byID   map[uint64]*KeyLocation
	}
}

// NewRegionCache returns an empty cache fed by src.
func NewRegionCache(src RegionSource) *RegionCache {
	c := &RegionCache{src: src}
	c.mu.byID = make(map[uint64]*KeyLocation)
	return c
}

// LocateKey returns the location of the region that contains key, loading
// it from the source on a miss. Source failures are retried with the
// regionMiss backoff until bo's budget is spent.
func (c *RegionCache) LocateKey(ctx context.Context, bo *Backoffer, key []byte) (*KeyLocation, error) {
	for {
		if loc := c.lookup(key); loc != nil {
			return loc, nil
		}
		info, err := c.src.RegionByKey(ctx, key)
		if err == nil {
			return c.insert(info), nil
		}
		if err := bo.Backoff(BoRegionMiss, err); err != nil {
			return nil, err
		}
	}
}

// LocateEndKey returns the location of the region holding the keys just
// below key (where a reverse scan that ends at key starts). An empty key
// means +inf.
func (c *RegionCache) LocateEndKey(ctx context.Context, bo *Backoffer, key []byte) (*KeyLocation, error) {
	for {
		if loc := c.lookupBefore(key); loc != nil {
			return loc, nil
		}
		info, err := c.src.RegionBeforeKey(ctx, key)
		if err == nil {
			return c.insert(info), nil
		}
		if err := bo.Backoff(BoRegionMiss, err); err != nil {
			return nil, err
		}
	}
}

// LocateRegionByID returns the cached location of a region, or nil.
func (c *RegionCache) LocateRegionByID(id uint64) *KeyLocation {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.byID[id]
}

// KeyGroup is a set of keys that live in one region.
type KeyGroup struct {
	Location *KeyLocation
	Keys     [][]byte
}

// GroupKeysByRegion splits keys by region. Groups come in the order of
// their first key in keys, and keep keys' order inside each group.
func (c *RegionCache) GroupKeysByRegion(ctx context.Context, bo *Backoffer, keys [][]byte) ([]KeyGroup, error) {
	var (
		groups []KeyGroup
		index  = make(map[uint64]int)
		last   *KeyLocation
	)
	for _, k := range keys {
		if last == nil || !last.Contains(k) {
			loc, err := c.LocateKey(ctx, bo, k)
			if err != nil {
				return nil, err
			}
			last = loc
		}
		i, ok := index[last.RegionID]
		if !ok {
			i = len(groups)
			index[last.RegionID] = i
			groups = append(groups, KeyGroup{Location: last})
		}
		groups[i].Keys = append(groups[i].Keys, k)
	}
	return groups, nil
}

// InvalidateRegion drops region id from the cache; the next lookup of its
// keys goes to the source.
func (c *RegionCache) InvalidateRegion(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(id)
}

// OnNotLeader switches the leader of region id to the hinted peer. It
// reports whether the cache changed (false: no hint, an unknown region, or
// the hint is the leader already); without a usable hint the region is
// dropped so that it is reloaded.
func (c *RegionCache) OnNotLeader(ctx context.Context, id uint64, leader *kvrpcpb.Peer) bool {
	cur := c.LocateRegionByID(id)
	if cur == nil {
		return false
	}
	if leader == nil || leader.GetStoreId() == 0 && leader.GetId() == 0 {
		c.InvalidateRegion(id)
		return false
	}
	if leader.GetId() == cur.Leader.GetId() && leader.GetStoreId() == cur.Leader.GetStoreId() {
		return false
	}
	addr, err := c.src.StoreAddr(ctx, leader.GetStoreId())
	if err != nil {
		c.InvalidateRegion(id)
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.mu.byID[id]; now == cur {
		c.replaceLocked(cur.withLeader(leader, addr))
	}
	return true
}

// OnEpochNotMatch replaces region stale (as the request saw it) by the
// current regions storage reported. It reports whether it learnt anything
// newer; with no current regions the stale one is dropped.
func (c *RegionCache) OnEpochNotMatch(ctx context.Context, stale *KeyLocation, current []*kvrpcpb.Region) bool {
	if len(current) == 0 {
		c.InvalidateRegion(stale.RegionID)
		return false
	}
	changed := false
	c.InvalidateRegion(stale.RegionID)
	for _, r := range current {
		if r.GetId() == stale.RegionID && !epochNewer(r.GetRegionEpoch(), stale.Epoch) {
			continue
		}
		leader := leaderGuess(r, stale.Leader)
		addr, err := c.src.StoreAddr(ctx, leader.GetStoreId())
		if err != nil {
			continue
		}
		c.insert(&RegionInfo{Region: r, Leader: leader, Addr: addr})
		changed = true
	}
	return changed
}

// leaderGuess picks the peer of r on the store that answered (it led the
// region before), else r's first peer.
func leaderGuess(r *kvrpcpb.Region, old *kvrpcpb.Peer) *kvrpcpb.Peer {
	for _, p := range r.GetPeers() {
		if p.GetStoreId() == old.GetStoreId() {
			return p
		}
	}
	if len(r.GetPeers()) > 0 {
		return r.GetPeers()[0]
	}
	return old
}

// lookup returns the cached region containing key, or nil.
func (c *RegionCache) lookup(key []byte) *KeyLocation {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := c.mu.sorted
	i := sort.Search(len(s), func(i int) bool { return bytes.Compare(s[i].StartKey, key) > 0 }) - 1
	if i >= 0 && s[i].Contains(key) {
		return s[i]
	}
	return nil
}

// lookupBefore returns the cached region holding the keys just below key.
func (c *RegionCache) lookupBefore(key []byte) *KeyLocation {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := c.mu.sorted
	i := len(s) - 1
	if len(key) > 0 {
		i = sort.Search(len(s), func(i int) bool { return bytes.Compare(s[i].StartKey, key) >= 0 }) - 1
	}
	if i >= 0 && s[i].ContainsBefore(key) {
		return s[i]
	}
	return nil
}

// insert caches info, evicting every region it overlaps, and returns its
// location.
func (c *RegionCache) insert(info *RegionInfo) *KeyLocation {
	loc := newLocation(info)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.replaceLocked(loc)
	return loc
}

// replaceLocked puts loc in the cache, evicting overlapping regions.
func (c *RegionCache) replaceLocked(loc *KeyLocation) {
	if old := c.mu.byID[loc.RegionID]; old != nil {
		c.removeLocked(loc.RegionID)
	}
	kept := c.mu.sorted[:0:0]
	for _, r := range c.mu.sorted {
		if overlaps(r, loc) {
			delete(c.mu.byID, r.RegionID)
			continue
		}
		kept = append(kept, r)
	}
	i := sort.Search(len(kept), func(i int) bool { return bytes.Compare(kept[i].StartKey, loc.StartKey) > 0 })
	kept = append(kept, nil)
	copy(kept[i+1:], kept[i:])
	kept[i] = loc
	c.mu.sorted = kept
	c.mu.byID[loc.RegionID] = loc
}

// removeLocked drops region id.
func (c *RegionCache) removeLocked(id uint64) {
	old := c.mu.byID[id]
	if old == nil {
		return
	}
	delete(c.mu.byID, id)
	for i, r := range c.mu.sorted {
		if r == old {
			c.mu.sorted = append(c.mu.sorted[:i:i], c.mu.sorted[i+1:]...)
			return
		}
	}
}

// overlaps reports whether two ranges intersect.
func overlaps(a, b *KeyLocation) bool {
	aBeforeB := len(a.EndKey) > 0 && bytes.Compare(a.EndKey, b.StartKey) <= 0
	bBeforeA := len(b.EndKey) > 0 && bytes.Compare(b.EndKey, a.StartKey) <= 0
	return !aBeforeB && !bBeforeA
}
