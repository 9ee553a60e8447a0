package pdctl

import (
	"errors"
	"strings"
	"testing"
	"time"

	pdserver "github.com/strata-db/strata/internal/pd/server"
)

func TestWriteStores(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	s := pdserver.StoresJSON{Count: 2, Stores: []pdserver.StoreInfoJSON{
		{Store: pdserver.StoreJSON{ID: 5, Address: "127.0.0.1:20161", StateName: "Up"},
			Status: pdserver.StoreStatusJSON{RegionCount: 1, LastHeartbeatTS: now.Add(-time.Minute).Format(time.RFC3339Nano)}},
		{Store: pdserver.StoreJSON{ID: 1, Address: "127.0.0.1:20160", StateName: "Up", Labels: map[string]string{"zone": "z1", "host": "h1"}},
			Status: pdserver.StoreStatusJSON{RegionCount: 3, LeaderCount: 2, LastHeartbeatTS: now.Add(-1500 * time.Millisecond).Format(time.RFC3339Nano)}},
	}}
	var b strings.Builder
	if err := WriteStores(&b, s, now); err != nil {
		t.Fatal(err)
	}
	want := `ID  ADDRESS          STATE         LABELS           REGIONS  LEADERS  LAST HEARTBEAT
1   127.0.0.1:20160  Up            host=h1,zone=z1  3        2        1.5s ago
5   127.0.0.1:20161  Disconnected  -                1        0        1m0s ago
(2 stores)
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestWriteRegions(t *testing.T) {
	rs := pdserver.RegionsJSON{Count: 2, Regions: []pdserver.RegionJSON{
		{ID: 8, StartKey: "7480000000000000FF", EndKey: "", Peers: []pdserver.PeerJSON{{ID: 9, StoreID: 1, Role: "Voter"}, {ID: 10, StoreID: 2, Role: "Learner"}},
			Leader: &pdserver.PeerJSON{ID: 9, StoreID: 1}, ApproximateSize: 3 << 20, ApproximateKeys: 1000},
		{ID: 2, StartKey: "", EndKey: "7480000000000000FF", Peers: []pdserver.PeerJSON{{ID: 3, StoreID: 1, Role: "Voter"}}},
	}}
	var b strings.Builder
	if err := WriteRegions(&b, rs); err != nil {
		t.Fatal(err)
	}
	want := `ID  START KEY  END KEY  LEADER  PEERS  SIZE    KEYS
2   -inf       t255     -       1      0B      0
8   t255       +inf     1       1,2L   3.0MiB  1000
(2 regions)
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := WriteRegion(&b, rs.Regions[0]); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"start key         t255 (hex 7480000000000000FF)", "end key           +inf",
		"leader            peer 9 on store 1", "peer 10 on store 2 (Learner)", "3.0MiB (1000 keys)"} {
		if !strings.Contains(b.String(), s) {
			t.Fatalf("region view lacks %q:\n%s", s, b.String())
		}
	}
}

func TestOperators(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	// Strata's shape, then PD's.
	raw := `[{"region_id": 4, "kind": "replica", "name": "replace-down-peer", "desc": "add learner peer 9 on store 3, promote",
	  "step": 1, "steps": 2, "status": "running", "created": "2025-01-01T11:59:58Z", "age": "2.1s"},
	 {"region_id": 6, "kind": "balance-leader", "name": "balance-leader", "desc": "transfer leader to store 2",
	  "step": 0, "steps": 1, "status": "canceled", "reason": "epoch changed", "created": "2025-01-01T11:59:00Z", "age": "1s"},
	 {"region": 5, "kind": "admin", "description": "transfer leader to store 2", "status": "finished", "create_time": "2025-01-01T11:58:30Z"}]`
	ops, err := DecodeOperators([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteOperators(&b, ops, now); err != nil {
		t.Fatal(err)
	}
	want := `REGION  KIND            DESCRIPTION                                                STATUS                   AGE
4       replica         replace-down-peer: add learner peer 9 on store 3, promote  running (step 2/2)       2.1s
6       balance-leader  balance-leader: transfer leader to store 2                 canceled: epoch changed  1s
5       admin           transfer leader to store 2                                 finished                 1m30s
(3 operators)
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	if ops, err := DecodeOperators([]byte(`{"operators": []}`)); err != nil || len(ops) != 0 {
		t.Fatalf("object form: %v %v", ops, err)
	}
	if _, err := DecodeOperators([]byte(`"nope"`)); err == nil {
		t.Fatal("a string decoded as operators")
	}
}

func TestConfig(t *testing.T) {
	raw := []byte(`{"replication": {"max-replicas": 3, "location-labels": null},
	  "schedule": {"max-store-down-time": "30m0s", "leader-schedule-limit": 4, "enable-x": true}}`)
	flat, err := FlattenConfig(raw)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteConfig(&b, flat); err != nil {
		t.Fatal(err)
	}
	want := `KEY                             VALUE
replication.location-labels     ""
replication.max-replicas        3
schedule.enable-x               true
schedule.leader-schedule-limit  4
schedule.max-store-down-time    30m0s
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	for _, c := range []struct{ key, val, full, body string }{
		{"max-replicas", "5", "replication.max-replicas", "5"},
		{"schedule.max-store-down-time", "1h", "schedule.max-store-down-time", "1h"},
		{"location-labels", "zone, host", "replication.location-labels", "[zone host]"},
		{"enable-x", "false", "schedule.enable-x", "false"},
	} {
		full, body, err := ConfigUpdate(flat, c.key, c.val)
		if err != nil || full != c.full || FormatValue(body[full]) != strings.ReplaceAll(strings.Trim(c.body, "[]"), " ", ",") {
			t.Errorf("ConfigUpdate(%s, %s) = %s %v %v", c.key, c.val, full, body, err)
		}
	}
	if _, _, err := ConfigUpdate(flat, "nope", "1"); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("unknown key: %v", err)
	}
	if _, _, err := ConfigUpdate(flat, "max-replicas", "many"); !errors.Is(err, ErrBadValue) {
		t.Errorf("bad number: %v", err)
	}
}

func TestWriteMembers(t *testing.T) {
	m := pdserver.MembersJSON{Members: []pdserver.MemberJSON{
		{Name: "pd-1", MemberID: 2, ClientURLs: []string{"http://h:2381"}, PeerURLs: []string{"http://h:2382"}},
		{Name: "pd-0", MemberID: 1, ClientURLs: []string{"http://h:2379"}, PeerURLs: []string{"http://h:2380"}},
	}}
	m.Leader = &m.Members[0]
	var b strings.Builder
	if err := WriteMembers(&b, m); err != nil {
		t.Fatal(err)
	}
	want := `NAME  MEMBER ID  CLIENT URLS    PEER URLS      LEADER
pd-0  1          http://h:2379  http://h:2380  
pd-1  2          http://h:2381  http://h:2382  *
`
	if b.String() != want {
		t.Fatalf("got:\n%q\nwant:\n%q", b.String(), want)
	}
}
