package server_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/client"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// etcdClient is a plain etcd client of a member's client URL (etcd's own
// API is served there next to PD's).
func etcdClient(t *testing.T, url string) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{url}, DialTimeout: 5 * time.Second, Logger: nopZap()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

func pdClient(t *testing.T, addrs []string) *client.Client {
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

// TestThreeMembers: one leader; followers answer NOT_LEADER and name it;
// when the leader stops, another takes over within seconds while a client
// asks for timestamps and ids all along: timestamps only go up, ids never
// repeat.
func TestThreeMembers(t *testing.T) {
	pd := pdtest.Start(t, 3, nil)
	li := pd.WaitLeader(20 * time.Second)
	leader := pd.Servers[li]
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i, s := range pd.Servers {
		if i == li {
			continue
		}
		cli := dial(t, pd.Addrs()[i])
		resp, err := cli.AllocID(ctx, &pdpb.AllocIDRequest{})
		if err != nil || errType(resp.Header) != pdpb.ErrorType_NOT_LEADER {
			t.Fatalf("follower %s AllocID: %v %v", s.Name(), resp, err)
		}
		ts, err := tsoOnce(t, cli, 1)
		if err != nil || errType(ts.Header) != pdpb.ErrorType_NOT_LEADER {
			t.Fatalf("follower %s Tso: %v %v", s.Name(), ts, err)
		}
		m, err := cli.GetMembers(ctx, &pdpb.GetMembersRequest{})
		if err != nil || m.Header.Error != nil || len(m.Members) != 3 || m.Leader.GetName() != leader.Name() ||
			len(m.Leader.GetClientUrls()) == 0 || m.Leader.GetClientUrls()[0] != leader.ClientURLs()[0] {
			t.Fatalf("follower %s GetMembers: %v %v", s.Name(), m, err)
		}
	}

	// The HTTP API of a follower sends leader-only requests to the leader.
	follower := (li + 1) % 3
	code, _ := get(t, pd.Addrs()[follower]+"/pd/api/v1/stores")
	if code != http.StatusTemporaryRedirect {
		t.Fatalf("follower /stores: %d, want 307", code)
	}
	if code, body := get(t, pd.Addrs()[follower]+"/pd/api/v1/leader"); code != 200 || !strings.Contains(body, leader.Name()) {
		t.Fatalf("follower /leader: %d %s", code, body)
	}

	c := pdClient(t, pd.Addrs())
	var (
		stop     atomic.Bool
		mu       sync.Mutex
		stamps   []uint64 // in the order returned to one caller
		ids      []uint64
		failures int
	)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			ts, err := c.GetTS(ctx)
			id, err2 := c.AllocID(ctx, 2)
			mu.Lock()
			if err != nil || err2 != nil {
				failures++
			} else {
				stamps = append(stamps, ts)
				ids = append(ids, id, id+1)
			}
			mu.Unlock()
		}
	}()
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(stamps)
	}
	waitMore := func(n int) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for count() < n {
			if time.Now().After(deadline) {
				t.Fatalf("client stuck at %d timestamps", count())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitMore(50)
	before := count()
	start := time.Now()
	pd.Stop(li)
	next := pd.WaitLeader(20 * time.Second)
	waitMore(before + 50)
	t.Logf("failover from %s to %s served again after %v", leader.Name(), pd.Servers[next].Name(), time.Since(start))
	// The old leader comes back as a follower.
	pd.Restart(li)
	waitMore(count() + 50)
	stop.Store(true)
	wg.Wait()

	for i := 1; i < len(stamps); i++ {
		if stamps[i] <= stamps[i-1] {
			t.Fatalf("timestamp %d after %d", stamps[i], stamps[i-1])
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("id %d handed out twice", ids[i])
		}
	}
	if failures > 0 {
		t.Fatalf("%d calls failed instead of waiting for the new leader", failures)
	}
}

// TestLeaderKeyTaken: when the leader key stops being this member's (here
// another "member" takes it), the member stops serving at once, and when
// it leads again its timestamps continue above the old ones.
func TestLeaderKeyTaken(t *testing.T) {
	pd := pdtest.Start(t, 1, nil)
	pd.WaitLeader(20 * time.Second)
	s := pd.Servers[0]
	url := pd.Addrs()[0]
	cli := dial(t, url)
	ectx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r1, err := tsoOnce(t, cli, 1)
	if err != nil || r1.Header.Error != nil {
		t.Fatalf("tso: %v %v", r1, err)
	}

	// An impostor replaces the leader key under its own lease.
	etcd := etcdClient(t, url)
	lease, err := etcd.Grant(ectx, 60)
	if err != nil {
		t.Fatal(err)
	}
	fake, _ := proto.Marshal(&pdpb.Member{Name: "impostor", MemberId: 42, ClientUrls: []string{"http://127.0.0.1:1"}})
	if _, err := etcd.Put(ectx, "/strata/pd/leader", string(fake), clientv3.WithLease(lease.ID)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.IsLeader() {
		if time.Now().After(deadline) {
			t.Fatal("member still leads after losing its key")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := tsoOnce(t, cli, 1)
	if err != nil || errType(resp.Header) != pdpb.ErrorType_NOT_LEADER {
		t.Fatalf("tso after losing the key: %v %v", resp, err)
	}
	m, err := cli.GetMembers(ectx, &pdpb.GetMembersRequest{})
	if err != nil || m.Leader.GetName() != "impostor" {
		t.Fatalf("GetMembers names %v (%v), want the impostor", m.GetLeader(), err)
	}

	// The impostor goes away; the member leads again, above its old
	// timestamps.
	if _, err := etcd.Revoke(ectx, lease.ID); err != nil {
		t.Fatal(err)
	}
	pd.WaitLeader(20 * time.Second)
	var r2 *pdpb.TsoResponse
	for {
		r2, err = tsoOnce(t, cli, 1)
		if err == nil && r2.Header.Error == nil {
			break
		}
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatalf("no tso after re-election: %v %v", r2, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if r2.Timestamp.Physical < r1.Timestamp.Physical ||
		r2.Timestamp.Physical == r1.Timestamp.Physical && r2.Timestamp.Logical <= r1.Timestamp.Logical {
		t.Fatalf("tso went back across terms: %v then %v", r1.Timestamp, r2.Timestamp)
	}
}
