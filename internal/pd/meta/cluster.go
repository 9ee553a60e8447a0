package meta

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/protobuf/proto"
)

// Cluster is PD's in-memory view of the cluster: the registered stores and
// the region tree, persisted through a Storage. It is safe for concurrent
// use.
type Cluster struct {
	storage Storage

	// putMu serializes store registrations (check, persist, publish), so
	// that two stores cannot claim one address at once; it is taken
	// before mu.
	putMu sync.Mutex

	mu struct {
		sync.RWMutex
		stores  map[uint64]*StoreInfo
		regions *regionTree
	}
}

// NewCluster returns an empty cluster over storage; call Load to read what
// storage holds.
func NewCluster(storage Storage) *Cluster {
	c := &Cluster{storage: storage}
	c.mu.stores = map[uint64]*StoreInfo{}
	c.mu.regions = newRegionTree()
	return c
}

// Load reads the stores and regions from storage. Regions are inserted
// from the lowest version up, so that when storage holds overlapping
// regions (a deletion that was queued but not written before a crash) the
// newest ones win.
func (c *Cluster) Load() error {
	var stores []*pdpb.Store
	if err := c.storage.LoadStores(func(s *pdpb.Store) { stores = append(stores, s) }); err != nil {
		return fmt.Errorf("meta: load stores: %w", err)
	}
	var regions []*kvrpcpb.Region
	if err := c.storage.LoadRegions(func(r *kvrpcpb.Region) { regions = append(regions, r) }); err != nil {
		return fmt.Errorf("meta: load regions: %w", err)
	}
	sort.SliceStable(regions, func(i, j int) bool {
		return regions[i].GetRegionEpoch().GetVersion() < regions[j].GetRegionEpoch().GetVersion()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range stores {
		c.mu.stores[s.GetId()] = &StoreInfo{Meta: s}
	}
	for _, r := range regions {
		for _, gone := range c.mu.regions.put(&RegionInfo{Meta: r}) {
			c.storage.DeleteRegion(gone.ID())
		}
	}
	return nil
}

// AddPersisted publishes a store and regions that the caller has already
// persisted (the bootstrap writes them in one etcd transaction).
func (c *Cluster) AddPersisted(store *pdpb.Store, regions ...*kvrpcpb.Region) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if store != nil {
		c.mu.stores[store.GetId()] = &StoreInfo{Meta: store}
	}
	for _, r := range regions {
		c.mu.regions.put(&RegionInfo{Meta: r})
	}
}

// ---------- stores ----------

// PutStore registers or updates a store. An update keeps the store's state
// and last heartbeat; a tombstone store cannot be updated
// (ErrStoreTombstone), and an address used by another store that is not a
// tombstone is refused (ErrAddressTaken).
func (c *Cluster) PutStore(s *pdpb.Store) error {
	if err := ValidateStore(s); err != nil {
		return err
	}
	c.putMu.Lock()
	defer c.putMu.Unlock()

	c.mu.RLock()
	old := c.mu.stores[s.GetId()]
	var clash *StoreInfo
	for _, o := range c.mu.stores {
		if o.ID() != s.GetId() && !o.IsTombstone() && o.Meta.GetAddress() == s.GetAddress() {
			clash = o
			break
		}
	}
	c.mu.RUnlock()
	if old != nil && old.IsTombstone() {
		return fmt.Errorf("%w: store %d", ErrStoreTombstone, s.GetId())
	}
	if clash != nil {
		return fmt.Errorf("%w: %s is store %d's", ErrAddressTaken, s.GetAddress(), clash.ID())
	}
	next := proto.Clone(s).(*pdpb.Store)
	var stats *pdpb.StoreStats
	if old != nil {
		next.State = old.Meta.GetState()
		next.LastHeartbeat = old.Meta.GetLastHeartbeat()
		stats = old.Stats
	}
	if err := c.storage.SaveStore(next); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := c.mu.stores[s.GetId()]; cur != nil {
		// A heartbeat may have landed meanwhile.
		next.LastHeartbeat = cur.Meta.GetLastHeartbeat()
		stats = cur.Stats
	}
	c.mu.stores[s.GetId()] = &StoreInfo{Meta: next, Stats: stats}
	return nil
}

// Store returns store id, or nil.
func (c *Cluster) Store(id uint64) *StoreInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.stores[id]
}

// Stores returns every store, by id.
func (c *Cluster) Stores() []*StoreInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*StoreInfo, 0, len(c.mu.stores))
	for _, s := range c.mu.stores {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// StoreHeartbeat records a store's statistics and sets its last heartbeat
// to now. Statistics are kept in memory only.
func (c *Cluster) StoreHeartbeat(stats *pdpb.StoreStats, now time.Time) error {
	id := stats.GetStoreId()
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.mu.stores[id]
	if old == nil {
		return fmt.Errorf("%w: %d", ErrStoreNotFound, id)
	}
	if old.IsTombstone() {
		return fmt.Errorf("%w: store %d", ErrStoreTombstone, id)
	}
	next := proto.Clone(old.Meta).(*pdpb.Store)
	next.LastHeartbeat = now.UnixNano()
	c.mu.stores[id] = &StoreInfo{Meta: next, Stats: stats}
	return nil
}

// ---------- regions ----------

// PutRegion applies a region report (a heartbeat): it is refused with
// ErrStaleRegion if its epoch or term is behind what PD knows (see
// checkStale); otherwise it replaces the region with its id and removes
// every region its range overlaps (after a split, the children replace the
// parent). It returns the regions removed besides the one with r's id.
// Changes of the persisted part (range, epoch, peers) go to storage.
func (c *Cluster) PutRegion(r *RegionInfo) ([]*RegionInfo, error) {
	if err := ValidateRegion(r.Meta); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.putRegionLocked(r)
}

func (c *Cluster) putRegionLocked(r *RegionInfo) ([]*RegionInfo, error) {
	t := c.mu.regions
	origin := t.byID[r.ID()]
	var overlaps []*RegionInfo
	for _, o := range t.overlaps(r.StartKey(), r.EndKey()) {
		if o.ID() != r.ID() {
			overlaps = append(overlaps, o)
		}
	}
	if err := checkStale(r, origin, overlaps); err != nil {
		return nil, err
	}
	removed := t.put(r)
	if origin == nil || metaChanged(origin.Meta, r.Meta) {
		c.storage.SaveRegion(r.Meta)
	}
	for _, o := range removed {
		c.storage.DeleteRegion(o.ID())
	}
	return removed, nil
}

// Region returns region id, or nil.
func (c *Cluster) Region(id uint64) *RegionInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.regions.byID[id]
}

// RegionByKey returns the region containing key, or nil.
func (c *Cluster) RegionByKey(key []byte) *RegionInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.regions.byKey(key)
}

// RegionBefore returns the region holding the keys just below key (start
// < key <= end); an empty key means the last region. Nil if PD knows no
// such region.
func (c *Cluster) RegionBefore(key []byte) *RegionInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.regions.before(key)
}

// ScanRegions returns up to limit regions (0: all) that intersect
// [start, end) (an empty end means +inf), in key order, starting with the
// region containing start.
func (c *Cluster) ScanRegions(start, end []byte, limit int) []*RegionInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.regions.scan(start, end, limit)
}

// Regions returns every region in key order.
func (c *Cluster) Regions() []*RegionInfo {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*RegionInfo, 0, c.mu.regions.len())
	c.mu.regions.ascend(func(r *RegionInfo) bool {
		out = append(out, r)
		return true
	})
	return out
}

// RegionCount is the number of regions.
func (c *Cluster) RegionCount() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.regions.len()
}

// CheckSplit validates a split request for region r: PD must know the
// region (ErrRegionNotFound) and r's epoch must not be behind PD's
// (ErrStaleRegion).
func (c *Cluster) CheckSplit(r *kvrpcpb.Region) error {
	if err := ValidateRegion(r); err != nil {
		return err
	}
	cur := c.Region(r.GetId())
	if cur == nil {
		return fmt.Errorf("%w: %d", ErrRegionNotFound, r.GetId())
	}
	if EpochStale(r.GetRegionEpoch(), cur.Epoch()) {
		return fmt.Errorf("%w: split of region %d at v%d c%d, PD has v%d c%d", ErrStaleRegion, r.GetId(),
			r.GetRegionEpoch().GetVersion(), r.GetRegionEpoch().GetConfVer(), cur.Epoch().GetVersion(), cur.Epoch().GetConfVer())
	}
	return nil
}

// ReportSplit applies the regions a split produced. Each is put like a
// heartbeat; reports older than what PD knows (a heartbeat got there
// first) are skipped. A region PD has not heard a heartbeat from yet is
// given, as its leader, its peer on the store that led the parent: the
// children of a split campaign at once on the store where the parent was
// leader.
func (c *Cluster) ReportSplit(regions []*kvrpcpb.Region) error {
	for _, r := range regions {
		if err := ValidateRegion(r); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var leaderStore uint64
	for _, r := range regions {
		if cur := c.mu.regions.byID[r.GetId()]; cur != nil && cur.Leader != nil {
			leaderStore = cur.Leader.GetStoreId()
			break
		}
		for _, o := range c.mu.regions.overlaps(r.GetStartKey(), r.GetEndKey()) {
			if o.Leader != nil {
				leaderStore = o.Leader.GetStoreId()
				break
			}
		}
		if leaderStore != 0 {
			break
		}
	}
	var errs []error
	for _, r := range regions {
		cur := c.mu.regions.byID[r.GetId()]
		if cur != nil && proto.Equal(cur.Meta, r) {
			continue // a heartbeat already told us
		}
		info := &RegionInfo{Meta: r}
		if cur != nil {
			info.Term = cur.Term
			info.ApproximateSize, info.ApproximateKeys = cur.ApproximateSize, cur.ApproximateKeys
			if cur.Leader != nil {
				info.Leader = info.PeerOnStore(cur.Leader.GetStoreId())
			}
		}
		if info.Leader == nil && leaderStore != 0 {
			info.Leader = info.PeerOnStore(leaderStore)
		}
		if _, err := c.putRegionLocked(info); err != nil && !errors.Is(err, ErrStaleRegion) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
