package playground

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/cluster"
	"github.com/strata-db/strata/tests/testproc"
)

// Real sysbench against `strata playground --kv 3` with its default
// config, as a user runs it (issue 4): 4 tables × 100,000 rows, every
// oltp_* workload at 16 and then 64 threads, right after the load, while
// PD still splits and balances. Every run must finish with zero errors:
// no FATAL (sysbench stops on any error but a deadlock or lock wait
// timeout), no reconnects, and no ignored error on the single-statement
// workloads. Multi-statement transactions (read_write, write_only) may
// lock two rows in opposite orders, as on InnoDB; the deadlock victims
// they retry are logged.
func TestPlaygroundSysbench(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	sb := testproc.Sysbench(t)
	topo := cluster.Topology{PD: 1, KV: 3, SQL: 1}
	off := freeOffset(t, topo)
	pg := startPlayground(t, t.TempDir(), true, "--kv", "3", "--sql", "1", "--port-offset", strconv.Itoa(off))
	// Without --config every process reads the playground's one-machine
	// settings (one raft append in flight per follower), so the
	// workloads below run with them.
	st := pg.state(t)
	want := filepath.Join(st.Dir, cluster.OneMachineConfigName)
	for _, p := range st.Processes {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.PID))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(cmdline), "\x00--config\x00"+want+"\x00") {
			t.Fatalf("%s runs without --config %s: %q", p.Name, want, cmdline)
		}
	}
	if !strings.Contains(pg.proc.Output(), "Each process reads config "+want+" (raftstore.raft-max-inflight-msgs = 1") {
		t.Fatalf("the playground does not name its config:\n%s", pg.proc.Output())
	}
	mustExec(t, pg.db(t), "CREATE DATABASE sbtest")
	common := []string{"--db-driver=mysql", "--mysql-host=127.0.0.1", "--mysql-port=" + strconv.Itoa(pg.port),
		"--mysql-user=root", "--mysql-db=sbtest", "--tables=4", "--table-size=100000"}
	run := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
		defer cancel()
		start := time.Now()
		out, err := exec.CommandContext(ctx, sb, append(args, common...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("sysbench %v: %v after %v\n%s", args, err, time.Since(start).Round(time.Millisecond), testproc.LastLines(string(out), 30))
		}
		return string(out)
	}
	run("/usr/share/sysbench/oltp_common.lua", "--threads=4", "prepare")
	for _, threads := range []string{"16", "64"} {
		for _, w := range testproc.OLTPWorkloads {
			out := run("/usr/share/sysbench/"+w+".lua", "--threads="+threads, "--time=3", "--report-interval=0", "run")
			c := testproc.ParseSysbench(out)
			txns, ignored, recs := c.Txns, c.Ignored, c.Reconnects
			t.Logf("%s at %s threads: %d transactions, %d ignored errors, %d reconnects", w, threads, txns, ignored, recs)
			multi := w == "oltp_read_write" || w == "oltp_write_only"
			if txns <= 0 || recs != 0 || (ignored != 0 && !multi) || strings.Contains(out, "FATAL") {
				t.Errorf("%s at %s threads:\n%s", w, threads, testproc.LastLines(out, 30))
			}
		}
	}
}
