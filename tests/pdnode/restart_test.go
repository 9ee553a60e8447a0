package pdnode

import (
	"context"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	pdclient "github.com/strata-db/strata/internal/pd/client"
)

// tsoBurst asks for per timestamps from each of workers goroutines and
// checks them: strictly increasing per goroutine, all distinct, all above
// floor. It returns the largest.
func tsoBurst(t *testing.T, c *pdclient.Client, workers, per int, floor uint64) uint64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got := make([][]uint64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				ts, err := c.GetTS(ctx)
				if err != nil {
					errs[w] = err
					return
				}
				got[w] = append(got[w], ts)
			}
		}(w)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	var all []uint64
	for w, s := range got {
		for i, ts := range s {
			if i > 0 && ts <= s[i-1] {
				t.Fatalf("goroutine %d: timestamp %d after %d", w, ts, s[i-1])
			}
			if ts <= floor {
				t.Fatalf("goroutine %d: timestamp %d not above %d, the largest before", w, ts, floor)
			}
		}
		all = append(all, s...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("timestamp %d handed out twice", all[i])
		}
	}
	return all[len(all)-1]
}

// allocIDs takes n single ids and checks them against seen.
func allocIDs(t *testing.T, c *pdclient.Client, n int, seen map[uint64]bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := 0; i < n; i++ {
		id, err := c.AllocID(ctx, uint32(1+i%3))
		if err != nil {
			t.Fatal(err)
		}
		for k := uint64(0); k < uint64(1+i%3); k++ {
			if seen[id+k] || id+k == 0 {
				t.Fatalf("id %d handed out twice", id+k)
			}
			seen[id+k] = true
		}
	}
}

func maxKey(m map[uint64]bool) uint64 {
	var out uint64
	for k := range m {
		out = max(out, k)
	}
	return out
}

// TestSinglePDRestart: one PD process; bootstrap, ids and timestamps from
// 8 goroutines; then a restart after SIGTERM and one after kill -9: the
// cluster is still bootstrapped, and timestamps and ids continue above the
// previous ones. The same client rides through both restarts.
func TestSinglePDRestart(t *testing.T) {
	pd := startCluster(t, 1)
	c := newClient(t, pd.addrs())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	first, err := c.AllocID(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	store := &pdpb.Store{Id: first, Address: "127.0.0.1:20160"}
	region := &kvrpcpb.Region{Id: first + 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
		Peers: []*kvrpcpb.Peer{{Id: first + 2, StoreId: first}}}
	if err := c.Bootstrap(ctx, store, region); err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]bool{first: true, first + 1: true, first + 2: true}
	allocIDs(t, c, 200, seen)
	last := tsoBurst(t, c, 8, 300, 0)

	for _, how := range []string{"SIGTERM", "kill -9"} {
		if how == "SIGTERM" {
			pd.term(0)
		} else {
			pd.kill9(0)
		}
		pd.restart(0)
		floorID := maxKey(seen)
		last = tsoBurst(t, c, 8, 300, last)
		allocIDs(t, c, 200, seen)
		id, err := c.AllocID(ctx, 1)
		if err != nil || id <= floorID {
			t.Fatalf("after %s: id %d not above %d (%v)", how, id, floorID, err)
		}
		seen[id] = true
		if ok, err := c.IsBootstrapped(ctx); err != nil || !ok {
			t.Fatalf("after %s: bootstrapped %v, %v", how, ok, err)
		}
		r, err := c.GetRegionByID(ctx, region.Id)
		if err != nil || r.Meta.GetPeers()[0].GetStoreId() != store.Id {
			t.Fatalf("after %s: region %v, %v", how, r, err)
		}
		if err := c.Bootstrap(ctx, store, region); !errors.Is(err, pdclient.ErrAlreadyBootstrapped) {
			t.Fatalf("after %s: Bootstrap again: %v", how, err)
		}
	}
}
