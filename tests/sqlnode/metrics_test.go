package sqlnode

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/tests/testproc"
)

// startServerWithStatus starts a server with its status port on and
// returns it and the status address.
func startServerWithStatus(t *testing.T) (*sqlNode, string) {
	t.Helper()
	return startServerWithStatusIn(t, filepath.Join(t.TempDir(), "d"))
}

// startServerWithStatusIn is startServerWithStatus on data folder dir,
// with args added to the command line.
func startServerWithStatusIn(t *testing.T, dir string, args ...string) (*sqlNode, string) {
	t.Helper()
	p := testproc.Start(t, append([]string{"server", "--data-dir", dir, "--port", "0", "--status-port", "0"}, args...)...)
	statusAddr := p.WaitLine(regexp.MustCompile(`strata server status on (127\.0\.0\.1:\d+)`), time.Minute)[1]
	return &sqlNode{t: t, port: p.WaitLine(readyRE, time.Minute)[2], proc: p}, statusAddr
}

// statusGet returns the body of GET path on the status port, failing the
// test on anything but 200.
func statusGet(t *testing.T, statusAddr, path string) string {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://%s%s", statusAddr, path))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s", path, resp.Status)
	}
	return string(b)
}

// TestStatusPort: the status port serves /status, /metrics with the SQL
// layer's series, and pprof.
func TestStatusPort(t *testing.T) {
	n, statusAddr := startServerWithStatus(t)
	db := n.db("")
	if _, err := db.Exec("CREATE DATABASE m"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE TABLE m.t (a INT PRIMARY KEY)", "INSERT INTO m.t VALUES (1)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	var one int
	if err := db.QueryRow("SELECT a FROM m.t WHERE a = 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}
	get := func(path string) string { return statusGet(t, statusAddr, path) }
	m := get("/metrics")
	// The statements above were counted (every series exists from the
	// start, so presence alone proves nothing).
	for _, series := range []string{`strata_sql_queries_total{result="ok",type="Select"} `, `strata_sql_queries_total{result="ok",type="DDL"} `} {
		i := strings.Index(m, series)
		if i < 0 || strings.HasPrefix(m[i+len(series):], "0\n") {
			t.Errorf("%s not counted", series)
		}
	}
	for _, want := range []string{`strata_sql_queries_total{result="ok",type="Select"}`, `strata_sql_queries_total{result="ok",type="DDL"}`,
		"strata_sql_query_duration_seconds_bucket", "strata_sql_connections", "strata_sql_txn_commits_total", "strata_sql_txn_conflicts_total", "strata_sql_stmt_retries_total"} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// The latency series saw the writes and the point read above: the
	// client's RPCs and timestamp waits, and the embedded store's raft
	// and latch stages.
	for _, series := range []string{
		`strata_tikvclient_request_seconds_count{type="Get"}`, `strata_tikvclient_request_seconds_count{type="Prewrite"}`,
		"strata_tikvclient_tso_wait_seconds_count", "strata_scheduler_latch_wait_duration_seconds_count",
		"strata_raftstore_append_log_duration_seconds_count", "strata_raftstore_commit_log_duration_seconds_count",
		"strata_raftstore_apply_duration_seconds_count",
	} {
		if v := testproc.MetricValue(t, m, series); v <= 0 {
			t.Errorf("%s = %v, want > 0", series, v)
		}
	}
	if s := get("/status"); !strings.Contains(s, `"role":"server"`) {
		t.Errorf("/status: %s", s)
	}
	if s := get("/debug/pprof/"); !strings.Contains(s, "goroutine") {
		t.Errorf("/debug/pprof/ lacks goroutine")
	}
}
