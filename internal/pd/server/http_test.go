package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/server"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
)

var noRedirect = &http.Client{
	Timeout:       10 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// get fetches url and returns the status code and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := noRedirect.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := noRedirect.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("decode %q: %v", body, err)
	}
	return v
}

func TestHTTPAPI(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	pd.WaitLeader(20 * time.Second)
	base := pd.Addrs()[0]
	c := pdClient(t, pd.Addrs())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if code, body := get(t, base+"/pd/api/v1/stores"); code != 200 || decode[server.StoresJSON](t, body).Count != 0 {
		t.Fatalf("stores before bootstrap: %d %s", code, body)
	}
	store := &pdpb.Store{Id: 1, Address: "127.0.0.1:20160", Labels: []*pdpb.StoreLabel{{Key: "zone", Value: "z1"}}}
	region := &kvrpcpb.Region{Id: 2, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}, Peers: []*kvrpcpb.Peer{{Id: 3, StoreId: 1}}}
	if err := c.Bootstrap(ctx, store, region); err != nil {
		t.Fatal(err)
	}
	if err := c.StoreHeartbeat(ctx, &pdpb.StoreStats{StoreId: 1, Capacity: 1000, Available: 400}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTS(ctx); err != nil {
		t.Fatal(err)
	}

	code, body := get(t, base+"/status")
	st := decode[map[string]any](t, body)
	if code != 200 || st["role"] != "pd" || st["is_leader"] != true {
		t.Fatalf("/status: %d %s", code, body)
	}
	code, body = get(t, base+"/metrics")
	if code != 200 || !strings.Contains(body, "strata_pd_tso_requests_total") || !strings.Contains(body, "etcd_server_has_leader") {
		t.Fatalf("/metrics: %d, missing PD or etcd metrics", code)
	}
	if code, body = get(t, base+"/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Fatalf("/debug/pprof/: %d, no goroutine profile listed", code)
	}
	code, body = get(t, base+"/pd/api/v1/members")
	if m := decode[server.MembersJSON](t, body); code != 200 || len(m.Members) != 1 || m.Leader == nil || m.Leader.Name != "pd1" {
		t.Fatalf("members: %d %s", code, body)
	}
	code, body = get(t, base+"/pd/api/v1/leader")
	if m := decode[server.MemberJSON](t, body); code != 200 || m.Name != "pd1" || len(m.ClientURLs) == 0 {
		t.Fatalf("leader: %d %s", code, body)
	}
	code, body = get(t, base+"/pd/api/v1/stores")
	stores := decode[server.StoresJSON](t, body)
	if code != 200 || stores.Count != 1 || stores.Stores[0].Store.Address != store.Address ||
		stores.Stores[0].Store.StateName != "Up" || stores.Stores[0].Store.Labels["zone"] != "z1" ||
		stores.Stores[0].Status.Capacity != 1000 || stores.Stores[0].Status.LastHeartbeatTS == "" {
		t.Fatalf("stores: %d %s", code, body)
	}
	code, body = get(t, base+"/pd/api/v1/regions")
	if r := decode[server.RegionsJSON](t, body); code != 200 || r.Count != 1 || r.Regions[0].ID != 2 || r.Regions[0].Epoch.Version != 1 {
		t.Fatalf("regions: %d %s", code, body)
	}
	code, body = get(t, base+"/pd/api/v1/region/id/2")
	if r := decode[server.RegionJSON](t, body); code != 200 || r.ID != 2 || len(r.Peers) != 1 || r.Peers[0].StoreID != 1 {
		t.Fatalf("region/id/2: %d %s", code, body)
	}
	if code, body := get(t, base+"/pd/api/v1/region/id/77"); code != 404 {
		t.Fatalf("region/id/77: %d %s", code, body)
	}
	if code, body := get(t, base+"/pd/api/v1/region/id/x"); code != 400 {
		t.Fatalf("region/id/x: %d %s", code, body)
	}
	if code, body := get(t, base+"/pd/api/v1/operators"); code != 200 || strings.TrimSpace(body) != "[]" {
		t.Fatalf("operators: %d %s", code, body)
	}

	// An admin operator: transfer-leader, as PD's API takes it; it goes
	// back to the leader in the region's next heartbeat response.
	if err := c.PutStore(ctx, &pdpb.Store{Id: 5, Address: "127.0.0.1:20161"}); err != nil {
		t.Fatal(err)
	}
	two := &kvrpcpb.Region{Id: 2, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 2, Version: 1},
		Peers: []*kvrpcpb.Peer{{Id: 3, StoreId: 1}, {Id: 4, StoreId: 5}}}
	answers := make(chan *pdpb.RegionHeartbeatResponse, 16)
	hb := c.RegionHeartbeat(ctx, func(r *pdpb.RegionHeartbeatResponse) { answers <- r })
	defer hb.Close()
	heartbeat := func() {
		t.Helper()
		if err := hb.Send(&pdpb.RegionHeartbeatRequest{Region: two, Leader: two.Peers[0], Term: 1}); err != nil {
			t.Fatal(err)
		}
	}
	heartbeat()
	waitFor(t, "region 2 led from store 1 with a voter on store 5", func() bool {
		_, body := get(t, base+"/pd/api/v1/region/id/2")
		r := decode[server.RegionJSON](t, body)
		return r.Leader != nil && r.Leader.StoreID == 1 && len(r.Peers) == 2
	})
	for _, bad := range []struct {
		body string
		code int
	}{
		{`{"name": "transfer-leader", "region_id": 2, "to_store_id": 1}`, 400}, // leads there already
		{`{"name": "transfer-leader", "region_id": 2, "to_store_id": 9}`, 400}, // no voter there
		{`{"name": "transfer-leader", "region_id": 77, "to_store_id": 5}`, 404},
		{`{"name": "split-region", "region_id": 2}`, 400},
		{`not json`, 400},
	} {
		if code, body := post(t, base+"/pd/api/v1/operators", bad.body); code != bad.code {
			t.Fatalf("operator %s: %d %s, want %d", bad.body, code, body, bad.code)
		}
	}
	code, body = post(t, base+"/pd/api/v1/operators", `{"name": "transfer-leader", "region_id": 2, "to_store_id": 5}`)
	if op := decode[map[string]any](t, body); code != 200 || op["kind"] != "admin" || op["status"] != "running" || op["region_id"] != 2.0 {
		t.Fatalf("transfer-leader operator: %d %s", code, body)
	}
	heartbeat()
	select {
	case r := <-answers:
		if r.GetTransferLeader().GetPeer().GetId() != 4 {
			t.Fatalf("heartbeat answer %v, want a transfer to peer 4", r)
		}
	case <-ctx.Done():
		t.Fatal("no heartbeat answer with the transfer")
	}
	if code, body := get(t, base+"/pd/api/v1/operators"); code != 200 || !strings.Contains(body, "admin-transfer-leader") {
		t.Fatalf("operators: %d %s", code, body)
	}

	// Config: defaults, an update, a refused update, persisted across a
	// restart.
	code, body = get(t, base+"/pd/api/v1/config")
	cfg := decode[map[string]map[string]any](t, body)
	if code != 200 || cfg["replication"]["max-replicas"] != 3.0 || cfg["schedule"]["max-store-down-time"] != "30m0s" ||
		cfg["schedule"]["region-schedule-limit"] != 2048.0 {
		t.Fatalf("config: %d %s", code, body)
	}
	if code, body := post(t, base+"/pd/api/v1/config", `{"max-replicas": 5, "schedule.max-store-down-time": "1h"}`); code != 200 {
		t.Fatalf("config update: %d %s", code, body)
	}
	for _, bad := range []string{`{"max-replicas": "five"}`, `{"nope": 1}`, `not json`} {
		if code, body := post(t, base+"/pd/api/v1/config", bad); code != 400 {
			t.Fatalf("config update %s: %d %s", bad, code, body)
		}
	}
	pd.Stop(0)
	pd.Restart(0)
	pd.WaitLeader(20 * time.Second)
	code, body = get(t, base+"/pd/api/v1/config")
	cfg = decode[map[string]map[string]any](t, body)
	if code != 200 || cfg["replication"]["max-replicas"] != 5.0 || cfg["schedule"]["max-store-down-time"] != "1h0m0s" {
		t.Fatalf("config after restart: %d %s", code, body)
	}
}

// waitFor polls cond until it holds, or fails the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
