package meta

import (
	"sort"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/protobuf/proto"
)

// Storage persists the metadata a Cluster owns. The PD server backs it
// with etcd (writes guarded by its leadership); tests use MemStorage.
//
// SaveRegion and DeleteRegion are called with the Cluster's lock held, in
// the order the tree changed, so they must not block: an implementation
// may queue them and write them later in batches, keeping the order of the
// operations on each region id. SaveStore is called without the Cluster's
// lock and must be durable on return.
type Storage interface {
	// LoadStores calls fn for every persisted store.
	LoadStores(fn func(*pdpb.Store)) error
	// LoadRegions calls fn for every persisted region.
	LoadRegions(fn func(*kvrpcpb.Region)) error
	// SaveStore durably records s.
	SaveStore(s *pdpb.Store) error
	// SaveRegion records r (possibly later, see above).
	SaveRegion(r *kvrpcpb.Region)
	// DeleteRegion removes region id (possibly later, see above).
	DeleteRegion(id uint64)
}

// MemStorage is an in-memory Storage for tests. It is safe for concurrent
// use.
type MemStorage struct {
	mu      sync.Mutex
	stores  map[uint64]*pdpb.Store
	regions map[uint64]*kvrpcpb.Region
	// Err, when set, fails SaveStore.
	Err error
}

// NewMemStorage returns an empty MemStorage.
func NewMemStorage() *MemStorage {
	return &MemStorage{stores: map[uint64]*pdpb.Store{}, regions: map[uint64]*kvrpcpb.Region{}}
}

// LoadStores calls fn for every saved store, by id.
func (m *MemStorage) LoadStores(fn func(*pdpb.Store)) error {
	m.mu.Lock()
	ids := sortedKeys(m.stores)
	out := make([]*pdpb.Store, 0, len(ids))
	for _, id := range ids {
		out = append(out, proto.Clone(m.stores[id]).(*pdpb.Store))
	}
	m.mu.Unlock()
	for _, s := range out {
		fn(s)
	}
	return nil
}

// LoadRegions calls fn for every saved region, by id.
func (m *MemStorage) LoadRegions(fn func(*kvrpcpb.Region)) error {
	m.mu.Lock()
	ids := sortedKeys(m.regions)
	out := make([]*kvrpcpb.Region, 0, len(ids))
	for _, id := range ids {
		out = append(out, proto.Clone(m.regions[id]).(*kvrpcpb.Region))
	}
	m.mu.Unlock()
	for _, r := range out {
		fn(r)
	}
	return nil
}

// SaveStore records a copy of s.
func (m *MemStorage) SaveStore(s *pdpb.Store) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return m.Err
	}
	m.stores[s.GetId()] = proto.Clone(s).(*pdpb.Store)
	return nil
}

// SaveRegion records a copy of r.
func (m *MemStorage) SaveRegion(r *kvrpcpb.Region) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.regions[r.GetId()] = proto.Clone(r).(*kvrpcpb.Region)
}

// DeleteRegion removes region id.
func (m *MemStorage) DeleteRegion(id uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.regions, id)
}

// Region returns the saved copy of region id, or nil.
func (m *MemStorage) Region(id uint64) *kvrpcpb.Region {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.regions[id]
}

// RegionIDs lists the saved regions' ids in order.
func (m *MemStorage) RegionIDs() []uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return sortedKeys(m.regions)
}

func sortedKeys[V any](m map[uint64]V) []uint64 {
	ids := make([]uint64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
