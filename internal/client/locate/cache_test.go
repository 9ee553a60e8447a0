package locate

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"testing"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// splitSource serves regions cut at the given split keys, region ids 1..n.
type splitSource struct {
	regions []*kvrpcpb.Region
	loads   int
}

func newSplitSource(version uint64, splits ...string) *splitSource {
	s := &splitSource{}
	start := ""
	for i := 0; i <= len(splits); i++ {
		end := ""
		if i < len(splits) {
			end = splits[i]
		}
		s.regions = append(s.regions, &kvrpcpb.Region{Id: uint64(i + 1), StartKey: []byte(start), EndKey: []byte(end),
			RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: version}, Peers: []*kvrpcpb.Peer{{Id: uint64(10 + i), StoreId: 1}}})
		start = end
	}
	return s
}

func (s *splitSource) RegionByKey(_ context.Context, key []byte) (*RegionInfo, error) {
	s.loads++
	for _, r := range s.regions {
		if regionContains(r, key) {
			return &RegionInfo{Region: r, Leader: r.Peers[0], Addr: "s1"}, nil
		}
	}
	return nil, fmt.Errorf("no region for %q", key)
}

func (s *splitSource) RegionBeforeKey(_ context.Context, key []byte) (*RegionInfo, error) {
	s.loads++
	for _, r := range s.regions {
		if newLocation(&RegionInfo{Region: r}).ContainsBefore(key) {
			return &RegionInfo{Region: r, Leader: r.Peers[0], Addr: "s1"}, nil
		}
	}
	return nil, fmt.Errorf("no region before %q", key)
}

func (s *splitSource) StoreAddr(context.Context, uint64) (string, error) { return "s1", nil }

func TestLocateAndGroup(t *testing.T) {
	src := newSplitSource(1, "c", "f")
	c := NewRegionCache(src)
	bo := NewBackoffer(context.Background(), 100)
	ctx := context.Background()
	for _, tc := range []struct {
		key    string
		region uint64
	}{{"a", 1}, {"c", 2}, {"e", 2}, {"f", 3}, {"zz", 3}, {"b", 1}} {
		loc, err := c.LocateKey(ctx, bo, []byte(tc.key))
		if err != nil || loc.RegionID != tc.region {
			t.Fatalf("LocateKey(%q) = %v, %v; want region %d", tc.key, loc, err, tc.region)
		}
	}
	if src.loads != 3 {
		t.Fatalf("loads = %d, want 3 (one per region)", src.loads)
	}
	for _, tc := range []struct {
		key    string
		region uint64
	}{{"", 3}, {"c", 1}, {"d", 2}, {"f", 2}, {"g", 3}} {
		loc, err := c.LocateEndKey(ctx, bo, []byte(tc.key))
		if err != nil || loc.RegionID != tc.region {
			t.Fatalf("LocateEndKey(%q) = %v, %v; want region %d", tc.key, loc, err, tc.region)
		}
	}
	groups, err := c.GroupKeysByRegion(ctx, bo, [][]byte{[]byte("a"), []byte("d"), []byte("b"), []byte("x"), []byte("e")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range groups {
		got = append(got, fmt.Sprintf("%d:%s", g.Location.RegionID, bytes.Join(g.Keys, []byte(","))))
	}
	if want := "[1:a,b 2:d,e 3:x]"; fmt.Sprint(got) != want {
		t.Fatalf("groups %v, want %s", got, want)
	}
}

func TestEpochNotMatchReplacesOverlaps(t *testing.T) {
	src := newSplitSource(1) // one region, id 1, whole space
	c := NewRegionCache(src)
	ctx := context.Background()
	bo := NewBackoffer(ctx, 100)
	stale, _ := c.LocateKey(ctx, bo, []byte("m"))
	split := newSplitSource(2, "m")
	split.regions[1].Id = 9
	if !c.OnEpochNotMatch(ctx, stale, split.regions) {
		t.Fatal("newer regions not learnt")
	}
	for key, want := range map[string]uint64{"a": 1, "m": 9, "z": 9} {
		loc := c.lookup([]byte(key))
		if loc == nil || loc.RegionID != want || loc.Epoch.Version != 2 {
			t.Fatalf("lookup(%q) = %v, want region %d at version 2", key, loc, want)
		}
	}
	c.mu.RLock()
	n := len(c.mu.sorted)
	sorted := sort.SliceIsSorted(c.mu.sorted, func(i, j int) bool { return bytes.Compare(c.mu.sorted[i].StartKey, c.mu.sorted[j].StartKey) < 0 })
	c.mu.RUnlock()
	if n != 2 || !sorted {
		t.Fatalf("cache holds %d regions (sorted=%v), want 2", n, sorted)
	}
	c.InvalidateRegion(9)
	if c.lookup([]byte("z")) != nil || c.lookup([]byte("a")) == nil {
		t.Fatal("invalidate dropped the wrong region")
	}
}
