package cluster

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/tests/testproc"
)

// A SQL server over 3 KV nodes: a table loaded until the key space holds
// at least 8 regions, each with 3 replicas on distinct stores and the
// leaders spread over all 3; every row reads back.
func TestClusterLoadAndSplit(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 3, sql: 1})
	db := c.db(0)
	mustExec(t, db, "CREATE DATABASE d")
	mustExec(t, db, "CREATE TABLE d.t (id INT PRIMARY KEY, k INT, pad VARCHAR(255), KEY k (k))")
	pad := strings.Repeat("x", 200)
	const rows = 3000
	for i := 0; i < rows; i += 100 {
		var sb strings.Builder
		sb.WriteString("INSERT INTO d.t VALUES ")
		for j := i; j < i+100; j++ {
			if j > i {
				sb.WriteString(",")
			}
			fmt.Fprintf(&sb, "(%d, %d, '%s')", j, j%97, pad)
		}
		mustExec(t, db, sb.String())
	}
	pc := c.pdClient()
	c.waitFor("at least 8 regions", 60*time.Second, func() (bool, string) {
		rs, err := scanRegions(pc)
		if err != nil {
			return false, err.Error()
		}
		return len(rs) >= 8, fmt.Sprintf("%d regions", len(rs))
	})
	// Every region has 3 voters on distinct stores, and the leaders are
	// spread over all 3 stores (PD's balance-leader).
	c.waitFor("3 replicas per region, leaders on every store", 90*time.Second, func() (bool, string) {
		rs, err := scanRegions(pc)
		if err != nil {
			return false, err.Error()
		}
		leaders := map[uint64]int{}
		for _, r := range rs {
			stores := map[uint64]bool{}
			for _, p := range r.GetRegion().GetPeers() {
				if p.GetRole() == kvrpcpb.PeerRole_Voter {
					stores[p.GetStoreId()] = true
				}
			}
			if len(stores) != 3 || len(r.GetRegion().GetPeers()) != 3 || r.GetLeader().GetId() == 0 {
				return false, fmt.Sprintf("region %d: peers %v, leader %v", r.GetRegion().GetId(), r.GetRegion().GetPeers(), r.GetLeader())
			}
			leaders[r.GetLeader().GetStoreId()]++
		}
		return len(leaders) == 3, fmt.Sprintf("%d regions, leaders per store %v", len(rs), leaders)
	})
	var n, sum int
	if err := db.QueryRow("SELECT COUNT(*), SUM(id) FROM d.t").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != rows || sum != rows*(rows-1)/2 {
		t.Fatalf("count %d sum %d, want %d rows", n, sum, rows)
	}
	for _, id := range []int{0, 1234, rows - 1} {
		var k int
		if err := db.QueryRow("SELECT k FROM d.t WHERE id = ?", id).Scan(&k); err != nil || k != id%97 {
			t.Fatalf("row %d: k=%d err=%v", id, k, err)
		}
	}
	var cnt int
	if err := db.QueryRow("SELECT COUNT(*) FROM d.t WHERE k = 5").Scan(&cnt); err != nil || cnt != 31 {
		t.Fatalf("index lookup k=5: %d, %v", cnt, err)
	}

	// Every store wrote raft logs; the leaders timed the load's requests
	// and the raft stages of their writes.
	sums := map[string]float64{}
	for i, kv := range c.kvs {
		m := testproc.Metrics(t, kv.statusAddr)
		if v := testproc.MetricValue(t, m, "strata_raftstore_append_log_duration_seconds_count"); v <= 0 {
			t.Errorf("store %d: no raft log write timed", i)
		}
		for _, series := range []string{`strata_grpc_msg_duration_seconds_count{type="kv_prewrite"}`,
			"strata_raftstore_commit_log_duration_seconds_count", "strata_raftstore_apply_duration_seconds_count",
			"strata_scheduler_latch_wait_duration_seconds_count"} {
			sums[series] += testproc.MetricValue(t, m, series)
		}
	}
	for series, v := range sums {
		if v <= 0 {
			t.Errorf("%s = %v on every store, want > 0", series, v)
		}
	}

	// A store's status port describes its engines.
	resp, err := http.Get("http://" + c.kvs[0].statusAddr + "/debug/engine")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("/debug/engine: %s, %v", resp.Status, err)
	}
	for _, want := range []string{"kvdb:\n", "raftdb:\n", "Block cache:", "Compactions:"} {
		if !strings.Contains(string(body), want) {
			t.Fatalf("/debug/engine lacks %q:\n%s", want, body)
		}
	}
}
