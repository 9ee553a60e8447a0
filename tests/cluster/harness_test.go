package cluster

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	pdclient "github.com/strata-db/strata/internal/pd/client"
	"github.com/strata-db/strata/tests/testproc"
)

func TestMain(m *testing.M) {
	if _, err := testproc.Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// testConfig makes raft, heartbeats and splits fast enough for tests:
// 100 ms ticks (elections within ~1-2 s), 64 KiB regions.
const testConfig = `
[raftstore]
raft-base-tick-interval = "100ms"
raft-election-timeout-ticks = 10
raft-heartbeat-ticks = 2
pd-heartbeat-tick-interval = "500ms"
pd-store-heartbeat-tick-interval = "500ms"
split-region-check-tick-interval = "500ms"

[coprocessor]
region-split-size = "64KiB"
region-max-size = "96KiB"

[schedule]
max-store-down-time = "%s"
`

var (
	pdServingRE  = regexp.MustCompile(`strata pd serving on (http://\S+)`)
	kvServingRE  = regexp.MustCompile(`strata kv serving on (\S+) \(store (\d+)\)`)
	sqlServingRE = regexp.MustCompile(`strata sql ready: mysql --host (\S+) --port (\d+)`)
)

// cluster is one PD, some KV nodes and some SQL servers.
type cluster struct {
	t       *testing.T
	dir     string
	cfgFile string
	pdAddr  string // host:port of PD's client URLs, comma-separated
	pds     []*pdMember
	kvs     []*kvNode
	sqls    []*testproc.Proc
	sqlDSNs []string
}

type pdMember struct {
	name, clientURL string
	proc            *testproc.Proc
}

type kvNode struct {
	dir, addr, statusAddr string
	storeID               string
	proc                  *testproc.Proc
}

type clusterOpts struct {
	pd, kv, sql      int    // pd 0 means 1
	maxStoreDownTime string // PD's schedule.max-store-down-time (default 30m)
	topConfig        string // top-level config keys (before the sections)
}

// startCluster starts PD, then the KV nodes, then the SQL servers, each
// waiting for the line its process prints when it serves.
func startCluster(t *testing.T, o clusterOpts) *cluster {
	t.Helper()
	if o.maxStoreDownTime == "" {
		o.maxStoreDownTime = "30m"
	}
	c := &cluster{t: t, dir: t.TempDir()}
	c.cfgFile = filepath.Join(c.dir, "strata.toml")
	if err := os.WriteFile(c.cfgFile, []byte(o.topConfig+fmt.Sprintf(testConfig, o.maxStoreDownTime)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.startPDs(max(o.pd, 1))
	for range o.kv {
		c.addKV()
	}
	for range o.sql {
		c.addSQL()
	}
	return c
}

// startPDs starts n PD members forming one cluster.
func (c *cluster) startPDs(n int) {
	c.t.Helper()
	var initial, addrs []string
	type ports struct{ client, peer int }
	ps := make([]ports, n)
	for i := range ps {
		ps[i] = ports{testproc.FreePort(c.t), testproc.FreePort(c.t)}
		initial = append(initial, fmt.Sprintf("pd%d=http://127.0.0.1:%d", i+1, ps[i].peer))
	}
	for i, p := range ps {
		m := &pdMember{name: fmt.Sprintf("pd%d", i+1), clientURL: fmt.Sprintf("http://127.0.0.1:%d", p.client)}
		m.proc = testproc.Start(c.t, "pd", "--name", m.name, "--data-dir", filepath.Join(c.dir, m.name),
			"--client-urls", m.clientURL, "--peer-urls", fmt.Sprintf("http://127.0.0.1:%d", p.peer),
			"--initial-cluster", strings.Join(initial, ","), "--config", c.cfgFile)
		c.pds = append(c.pds, m)
		addrs = append(addrs, strings.TrimPrefix(m.clientURL, "http://"))
	}
	for _, m := range c.pds {
		m.proc.WaitLine(pdServingRE, 60*time.Second)
	}
	c.pdAddr = strings.Join(addrs, ",")
}

// pdLeader returns the member PD names as its leader.
func (c *cluster) pdLeader(pc *pdclient.Client) *pdMember {
	c.t.Helper()
	var leader *pdMember
	c.waitFor("a PD leader", 30*time.Second, func() (bool, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		resp, err := pc.GetMembers(ctx)
		if err != nil {
			return false, err.Error()
		}
		for _, m := range c.pds {
			for _, u := range resp.GetLeader().GetClientUrls() {
				if u == m.clientURL {
					leader = m
					return true, ""
				}
			}
		}
		return false, fmt.Sprintf("leader %v", resp.GetLeader())
	})
	return leader
}

// addKV starts a new KV node (its own data dir and a fixed port, so a
// restart comes back at the same address).
func (c *cluster) addKV() *kvNode {
	c.t.Helper()
	n := &kvNode{
		dir:        filepath.Join(c.dir, fmt.Sprintf("kv%d", len(c.kvs)+1)),
		addr:       fmt.Sprintf("127.0.0.1:%d", testproc.FreePort(c.t)),
		statusAddr: fmt.Sprintf("127.0.0.1:%d", testproc.FreePort(c.t)),
	}
	c.kvs = append(c.kvs, n)
	c.startKV(n)
	return n
}

func (c *cluster) startKV(n *kvNode) {
	c.t.Helper()
	n.proc = testproc.Start(c.t, "kv", "--pd", c.pdAddr, "--addr", n.addr, "--data-dir", n.dir,
		"--status-addr", n.statusAddr, "--config", c.cfgFile)
	m := n.proc.WaitLine(kvServingRE, 60*time.Second)
	n.storeID = m[2]
}

func (c *cluster) addSQL() string {
	c.t.Helper()
	p := testproc.Start(c.t, "sql", "--pd", c.pdAddr, "--port", "0", "--status-port", "-1",
		"--data-dir", filepath.Join(c.dir, fmt.Sprintf("sql%d", len(c.sqls)+1)), "--config", c.cfgFile)
	m := p.WaitLine(sqlServingRE, 60*time.Second)
	dsn := fmt.Sprintf("root@tcp(%s:%s)/?timeout=10s&readTimeout=60s&writeTimeout=60s", m[1], m[2])
	c.sqls = append(c.sqls, p)
	c.sqlDSNs = append(c.sqlDSNs, dsn)
	return dsn
}

// db opens a pool to SQL server i.
func (c *cluster) db(i int) *sql.DB {
	c.t.Helper()
	db, err := sql.Open("mysql", c.sqlDSNs[i])
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { db.Close() })
	return db
}

// pdClient returns a PD client of the cluster.
func (c *cluster) pdClient() *pdclient.Client {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pc, err := pdclient.New(ctx, strings.Split(c.pdAddr, ","), pdclient.Options{})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(pc.Close)
	return pc
}

// waitFor polls cond every 50 ms until it holds or timeout passes.
func (c *cluster) waitFor(what string, timeout time.Duration, cond func() (bool, string)) {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for {
		ok, state := cond()
		if ok {
			return
		}
		last = state
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out after %v waiting for %s (last: %s)", timeout, what, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// scanRegions returns every region as PD sees it (one request, at most
// 5 s).
func scanRegions(pc *pdclient.Client) ([]*pdpb.RegionInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return pc.ScanRegions(ctx, nil, nil, 0)
}

// waitReplicated waits until PD sees every region with n voters and a
// leader.
func (c *cluster) waitReplicated(n int, timeout time.Duration) {
	c.t.Helper()
	pc := c.pdClient()
	c.waitFor(fmt.Sprintf("every region with %d voters", n), timeout, func() (bool, string) {
		rs, err := scanRegions(pc)
		if err != nil {
			return false, err.Error()
		}
		for _, r := range rs {
			voters := 0
			for _, p := range r.GetRegion().GetPeers() {
				if p.GetRole() == kvrpcpb.PeerRole_Voter {
					voters++
				}
			}
			if voters != n || r.GetLeader().GetId() == 0 {
				return false, fmt.Sprintf("region %d: %d voters of %d peers, leader %v", r.GetRegion().GetId(), voters, len(r.GetRegion().GetPeers()), r.GetLeader())
			}
		}
		return len(rs) > 0, fmt.Sprintf("%d regions", len(rs))
	})
}

// isolate cuts (or heals) node n's raft traffic with the other stores
// through its fault-injection endpoint.
func (c *cluster) isolate(n *kvNode, on bool) {
	c.t.Helper()
	resp, err := http.Post(fmt.Sprintf("http://%s/debug/fail/raft-isolate?on=%v", n.statusAddr, on), "text/plain", nil)
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("raft-isolate on %s: %s", n.addr, resp.Status)
	}
}
