package client_test

import (
	"bytes"
	"context"
	"errors"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/client"
	"github.com/strata-db/strata/internal/pd/meta"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
)

func newClient(t testing.TB, addrs []string) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := client.New(ctx, addrs, client.Options{Logger: pdtest.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 15s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func epoch(conf, ver uint64) *kvrpcpb.RegionEpoch {
	return &kvrpcpb.RegionEpoch{ConfVer: conf, Version: ver}
}

// TestEveryRPC exercises each PD RPC through the client against one
// in-process member.
func TestEveryRPC(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	c := newClient(t, pd.Addrs())
	ctx := ctxT(t)

	if id := c.ClusterID(); id == 0 || id != pd.Servers[0].ClusterID() {
		t.Fatalf("cluster id %d, server has %d", id, pd.Servers[0].ClusterID())
	}
	members, err := c.GetMembers(ctx)
	if err != nil || len(members.Members) != 1 || members.Leader.GetName() != "pd1" {
		t.Fatalf("GetMembers: %v %v", members, err)
	}

	// Before bootstrap.
	if ok, err := c.IsBootstrapped(ctx); err != nil || ok {
		t.Fatalf("IsBootstrapped = %v, %v", ok, err)
	}
	if _, err := c.GetRegion(ctx, []byte("a")); !errors.Is(err, client.ErrNotBootstrapped) {
		t.Fatalf("GetRegion before bootstrap: %v", err)
	}
	if _, err := c.GetAllStores(ctx, false); !errors.Is(err, client.ErrNotBootstrapped) {
		t.Fatalf("GetAllStores before bootstrap: %v", err)
	}
	first, err := c.AllocID(ctx, 3)
	if err != nil || first == 0 {
		t.Fatalf("AllocID: %d %v", first, err)
	}
	storeID, regionID, peerID := first, first+1, first+2
	store := &pdpb.Store{Id: storeID, Address: "127.0.0.1:20160", Version: "test"}
	if err := c.PutStore(ctx, store); err != nil {
		t.Fatalf("PutStore before bootstrap: %v", err)
	}
	if st, _, err := c.GetStore(ctx, storeID); err != nil || st.GetAddress() != store.Address {
		t.Fatalf("GetStore: %v %v", st, err)
	}

	region := &kvrpcpb.Region{Id: regionID, RegionEpoch: epoch(1, 1), Peers: []*kvrpcpb.Peer{{Id: peerID, StoreId: storeID}}}
	if err := c.Bootstrap(ctx, store, &kvrpcpb.Region{Id: regionID, StartKey: []byte("a"), RegionEpoch: epoch(1, 1), Peers: region.Peers}); err == nil {
		t.Fatal("Bootstrap with a partial first region succeeded")
	}
	if err := c.Bootstrap(ctx, store, region); err != nil {
		t.Fatalf("Bootstrap: %v", err)
	}
	if err := c.Bootstrap(ctx, store, region); !errors.Is(err, client.ErrAlreadyBootstrapped) {
		t.Fatalf("second Bootstrap: %v", err)
	}
	if ok, err := c.IsBootstrapped(ctx); err != nil || !ok {
		t.Fatalf("IsBootstrapped after bootstrap = %v, %v", ok, err)
	}

	// Stores.
	if _, _, err := c.GetStore(ctx, 999999); !errors.Is(err, client.ErrStoreNotFound) {
		t.Fatalf("GetStore(unknown): %v", err)
	}
	var perr *client.Error
	if err := c.PutStore(ctx, &pdpb.Store{Id: storeID + 100, Address: store.Address}); !errors.As(err, &perr) {
		t.Fatalf("PutStore on a taken address: %v", err)
	}
	store2 := &pdpb.Store{Id: storeID + 100, Address: "127.0.0.1:20161"}
	if err := c.PutStore(ctx, store2); err != nil {
		t.Fatal(err)
	}
	if err := c.StoreHeartbeat(ctx, &pdpb.StoreStats{StoreId: storeID, Capacity: 100, Available: 60, RegionCount: 1}); err != nil {
		t.Fatalf("StoreHeartbeat: %v", err)
	}
	st, stats, err := c.GetStore(ctx, storeID)
	if err != nil || st.GetLastHeartbeat() == 0 || stats.GetCapacity() != 100 {
		t.Fatalf("GetStore after heartbeat: %v %v %v", st, stats, err)
	}
	all, err := c.GetAllStores(ctx, true)
	if err != nil || len(all) != 2 {
		t.Fatalf("GetAllStores: %v %v", all, err)
	}
	if addr, err := c.StoreAddr(ctx, storeID); err != nil || addr != store.Address {
		t.Fatalf("StoreAddr: %q %v", addr, err)
	}

	// Region heartbeats, with a hook answering one operator step.
	pd.Servers[0].SetHeartbeatHook(func(r *meta.RegionInfo) *pdpb.RegionHeartbeatResponse {
		if len(r.Meta.GetPeers()) < 2 {
			return nil
		}
		return &pdpb.RegionHeartbeatResponse{RegionId: r.ID(), RegionEpoch: r.Epoch(),
			TransferLeader: &pdpb.TransferLeader{Peer: r.Meta.GetPeers()[1]}}
	})
	var (
		mu    sync.Mutex
		resps []*pdpb.RegionHeartbeatResponse
	)
	hb := c.RegionHeartbeat(ctx, func(r *pdpb.RegionHeartbeatResponse) {
		mu.Lock()
		defer mu.Unlock()
		resps = append(resps, r)
	})
	defer hb.Close()
	region = &kvrpcpb.Region{Id: regionID, RegionEpoch: epoch(2, 1), Peers: []*kvrpcpb.Peer{
		{Id: peerID, StoreId: storeID}, {Id: peerID + 100, StoreId: store2.Id}}}
	if err := hb.Send(&pdpb.RegionHeartbeatRequest{Region: region, Leader: region.Peers[0], ApproximateSize: 42}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "heartbeat applied", func() bool {
		r, err := c.GetRegionByID(ctx, regionID)
		return err == nil && r.Meta.GetRegionEpoch().GetConfVer() == 2 && r.Leader.GetId() == peerID
	})
	eventually(t, "operator received", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(resps) == 1 && resps[0].GetTransferLeader().GetPeer().GetId() == peerID+100
	})

	// Split: [, +inf) into [, g), [g, p), [p, +inf).
	if _, err := c.AskBatchSplit(ctx, &kvrpcpb.Region{Id: regionID, RegionEpoch: epoch(1, 1), Peers: region.Peers}, 2); !errors.Is(err, client.ErrStaleRegion) {
		t.Fatalf("AskBatchSplit with a stale epoch: %v", err)
	}
	ids, err := c.AskBatchSplit(ctx, region, 2)
	if err != nil || len(ids) != 2 || len(ids[0].NewPeerIds) != 2 {
		t.Fatalf("AskBatchSplit: %v %v", ids, err)
	}
	seen := map[uint64]bool{}
	for _, s := range ids {
		for _, id := range append([]uint64{s.NewRegionId}, s.NewPeerIds...) {
			if seen[id] || id <= first+2 {
				t.Fatalf("split id %d repeated or not fresh", id)
			}
			seen[id] = true
		}
	}
	peersOf := func(ids []uint64) []*kvrpcpb.Peer {
		return []*kvrpcpb.Peer{{Id: ids[0], StoreId: storeID}, {Id: ids[1], StoreId: store2.Id}}
	}
	split := []*kvrpcpb.Region{
		{Id: regionID, EndKey: []byte("g"), RegionEpoch: epoch(2, 3), Peers: region.Peers},
		{Id: ids[0].NewRegionId, StartKey: []byte("g"), EndKey: []byte("p"), RegionEpoch: epoch(2, 3), Peers: peersOf(ids[0].NewPeerIds)},
		{Id: ids[1].NewRegionId, StartKey: []byte("p"), RegionEpoch: epoch(2, 3), Peers: peersOf(ids[1].NewPeerIds)},
	}
	if err := c.ReportBatchSplit(ctx, split); err != nil {
		t.Fatalf("ReportBatchSplit: %v", err)
	}
	scan, err := c.ScanRegions(ctx, nil, nil, 0)
	if err != nil || len(scan) != 3 {
		t.Fatalf("ScanRegions: %v %v", scan, err)
	}
	for i, ri := range scan {
		if ri.Region.GetId() != split[i].Id || ri.Leader.GetStoreId() != storeID {
			t.Fatalf("scan[%d] = %v", i, ri)
		}
	}
	if scan, err := c.ScanRegions(ctx, []byte("h"), []byte("q"), 1); err != nil || len(scan) != 1 || scan[0].Region.GetId() != ids[0].NewRegionId {
		t.Fatalf("ScanRegions(h, q, 1): %v %v", scan, err)
	}
	r, err := c.GetRegion(ctx, []byte("h"))
	if err != nil || r.Meta.GetId() != ids[0].NewRegionId {
		t.Fatalf("GetRegion(h): %v %v", r, err)
	}
	r, err = c.GetPrevRegion(ctx, []byte("p"))
	if err != nil || r.Meta.GetId() != ids[0].NewRegionId {
		t.Fatalf("GetPrevRegion(p): %v %v", r, err)
	}
	r, err = c.GetPrevRegion(ctx, nil)
	if err != nil || r.Meta.GetId() != ids[1].NewRegionId {
		t.Fatalf("GetPrevRegion(): %v %v", r, err)
	}
	if _, err := c.GetRegionByID(ctx, 123456789); !errors.Is(err, client.ErrRegionNotFound) {
		t.Fatalf("GetRegionByID(unknown): %v", err)
	}
	info, err := c.RegionByKey(ctx, []byte("zz"))
	if err != nil || info.Region.GetId() != ids[1].NewRegionId || info.Addr != store.Address {
		t.Fatalf("RegionByKey: %+v %v", info, err)
	}
	info, err = c.RegionBeforeKey(ctx, []byte("g"))
	if err != nil || info.Region.GetId() != regionID || !bytes.Equal(info.Region.GetEndKey(), []byte("g")) {
		t.Fatalf("RegionBeforeKey: %+v %v", info, err)
	}

	// GC safe point never goes back.
	if sp, err := c.GetGCSafePoint(ctx); err != nil || sp != 0 {
		t.Fatalf("GetGCSafePoint: %d %v", sp, err)
	}
	if sp, err := c.UpdateGCSafePoint(ctx, 100); err != nil || sp != 100 {
		t.Fatalf("UpdateGCSafePoint(100): %d %v", sp, err)
	}
	if sp, err := c.UpdateGCSafePoint(ctx, 50); err != nil || sp != 100 {
		t.Fatalf("UpdateGCSafePoint(50): %d %v", sp, err)
	}

	// Timestamps.
	a, err := c.GetTS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.GetTimestamp(ctx)
	if err != nil || b <= a {
		t.Fatalf("GetTimestamp %d after %d: %v", b, a, err)
	}
	f := c.GetTSAsync(ctx)
	ended, end := context.WithCancel(ctx)
	end()
	if _, err := f.WaitContext(ended); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitContext with an ended ctx = %v", err)
	}
	ts, err := f.Wait() // still on its way, or already here
	if err != nil || ts <= b {
		t.Fatalf("GetTSAsync %d after %d: %v", ts, b, err)
	}
	if again, err := f.WaitContext(ctx); err != nil || again != ts {
		t.Fatalf("WaitContext after Wait = %d, %v; want %d", again, err, ts)
	}

	// Everything above survives a restart of the member.
	hb.Close()
	pd.Stop(0)
	pd.Restart(0)
	eventually(t, "regions back after restart", func() bool {
		scan, err := c.ScanRegions(ctx, nil, nil, 0)
		return err == nil && len(scan) == 3
	})
	if sp, err := c.GetGCSafePoint(ctx); err != nil || sp != 100 {
		t.Fatalf("GC safe point after restart: %d %v", sp, err)
	}
	if id, err := c.AllocID(ctx, 1); err != nil || seen[id] || id <= first+2 {
		t.Fatalf("AllocID after restart: %d %v", id, err)
	}
	if ts, err := c.GetTS(ctx); err != nil || ts <= b {
		t.Fatalf("GetTS after restart: %d %v", ts, err)
	}
	if ok, err := c.IsBootstrapped(ctx); err != nil || !ok {
		t.Fatalf("IsBootstrapped after restart: %v %v", ok, err)
	}
}

// TestTSOConcurrentCallers: timestamps from concurrent callers are
// strictly increasing per caller and distinct overall.
func TestTSOConcurrentCallers(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	c := newClient(t, pd.Addrs())
	ctx := ctxT(t)
	const workers, per = 8, 500
	got := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i++ {
				ts, err := c.GetTS(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				got[w] = append(got[w], ts)
			}
		}(w)
	}
	wg.Wait()
	var all []uint64
	for w, s := range got {
		for i := 1; i < len(s); i++ {
			if s[i] <= s[i-1] {
				t.Fatalf("worker %d: %d after %d", w, s[i], s[i-1])
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
	if len(all) != workers*per {
		t.Fatalf("%d timestamps, want %d", len(all), workers*per)
	}
}

func TestClientContextAndClose(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	c := newClient(t, pd.Addrs())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.GetTS(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("GetTS with a cancelled ctx: %v", err)
	}
	if _, err := c.AllocID(ctx, 1); !errors.Is(err, context.Canceled) {
		t.Fatalf("AllocID with a cancelled ctx: %v", err)
	}
	c.Close()
	if _, err := c.GetTS(context.Background()); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("GetTS after Close: %v", err)
	}
	if _, err := c.AllocID(context.Background(), 1); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("AllocID after Close: %v", err)
	}

	// No PD at all: New gives up when its context ends.
	ports, err := pdtest.FreePorts(1)
	if err != nil {
		t.Fatal(err)
	}
	nctx, ncancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer ncancel()
	if _, err := client.New(nctx, []string{"127.0.0.1:" + strconv.Itoa(ports[0])}, client.Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("New without PD: %v", err)
	}
}
