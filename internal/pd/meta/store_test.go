package meta

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

func TestPutStoreRules(t *testing.T) {
	st := NewMemStorage()
	c := NewCluster(st)
	for _, bad := range []*pdpb.Store{nil, {Address: "a:1"}, {Id: 1}} {
		if err := c.PutStore(bad); !errors.Is(err, ErrInvalidStore) {
			t.Fatalf("PutStore(%v) = %v, want ErrInvalidStore", bad, err)
		}
	}
	if err := c.PutStore(&pdpb.Store{Id: 1, Address: "a:1"}); err != nil {
		t.Fatal(err)
	}
	if err := c.PutStore(&pdpb.Store{Id: 2, Address: "a:1"}); !errors.Is(err, ErrAddressTaken) {
		t.Fatalf("second store on a:1: %v, want ErrAddressTaken", err)
	}
	// Re-registering the same store (a restart) is fine, and a heartbeat
	// survives it.
	now := time.Unix(100, 0)
	if err := c.StoreHeartbeat(&pdpb.StoreStats{StoreId: 1, Capacity: 10}, now); err != nil {
		t.Fatal(err)
	}
	if err := c.PutStore(&pdpb.Store{Id: 1, Address: "a:1", Version: "v2"}); err != nil {
		t.Fatal(err)
	}
	s := c.Store(1)
	if s.Meta.GetVersion() != "v2" || s.Meta.GetLastHeartbeat() != now.UnixNano() || s.Stats.GetCapacity() != 10 {
		t.Fatalf("store after update: %v %v", s.Meta, s.Stats)
	}
	if err := c.StoreHeartbeat(&pdpb.StoreStats{StoreId: 9}, now); !errors.Is(err, ErrStoreNotFound) {
		t.Fatalf("heartbeat of unknown store: %v", err)
	}

	// A tombstone frees its address and cannot come back.
	tomb := &pdpb.Store{Id: 1, Address: "a:1", State: pdpb.StoreState_Tombstone}
	c.AddPersisted(tomb)
	if err := c.PutStore(&pdpb.Store{Id: 1, Address: "a:1"}); !errors.Is(err, ErrStoreTombstone) {
		t.Fatalf("tombstone re-put: %v", err)
	}
	if err := c.StoreHeartbeat(&pdpb.StoreStats{StoreId: 1}, now); !errors.Is(err, ErrStoreTombstone) {
		t.Fatalf("tombstone heartbeat: %v", err)
	}
	if err := c.PutStore(&pdpb.Store{Id: 2, Address: "a:1"}); err != nil {
		t.Fatalf("address of a tombstone: %v", err)
	}

	// Stores survive a reload (without their in-memory stats).
	c2 := NewCluster(st)
	if err := c2.Load(); err != nil {
		t.Fatal(err)
	}
	if got := len(c2.Stores()); got != 2 {
		t.Fatalf("reloaded %d stores, want 2", got)
	}
	if c2.Store(2).Stats != nil {
		t.Fatal("stats persisted")
	}

	st.Err = errors.New("disk on fire")
	if err := c.PutStore(&pdpb.Store{Id: 3, Address: "c:1"}); err == nil || c.Store(3) != nil {
		t.Fatalf("failed save: err %v, store %v", err, c.Store(3))
	}
}

// TestLoadOverlappingPrefersNewest: storage may keep a region whose
// deletion was queued but not written before a crash; the newer region
// covering its range wins on load.
func TestLoadOverlappingPrefersNewest(t *testing.T) {
	st := NewMemStorage()
	peers := []*kvrpcpb.Peer{{Id: 10, StoreId: 1}}
	st.SaveRegion(&kvrpcpb.Region{Id: 1, RegionEpoch: &kvrpcpb.RegionEpoch{Version: 1}, Peers: peers})
	st.SaveRegion(&kvrpcpb.Region{Id: 5, EndKey: []byte("m"), RegionEpoch: &kvrpcpb.RegionEpoch{Version: 2}, Peers: peers})
	st.SaveRegion(&kvrpcpb.Region{Id: 2, StartKey: []byte("m"), RegionEpoch: &kvrpcpb.RegionEpoch{Version: 2}, Peers: peers})
	c := NewCluster(st)
	if err := c.Load(); err != nil {
		t.Fatal(err)
	}
	if got := fmtRegions(c.Regions()); got != "r5 [, m) v2 c0 stores=1\nr2 [m, ) v2 c0 stores=1" {
		t.Fatalf("loaded:\n%s", got)
	}
	if ids := st.RegionIDs(); len(ids) != 2 {
		t.Fatalf("stale region not deleted from storage: %v", ids)
	}
}
