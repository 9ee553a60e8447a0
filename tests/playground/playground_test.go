package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/cluster"
)

// A playground of 1 PD, 3 KV and 1 SQL: SQL works through it, display
// and ctl show it, a KV node killed behind its back is reported while
// the rest runs on, and SIGTERM stops every child and removes the data.
func TestPlayground(t *testing.T) {
	topo := cluster.Topology{PD: 1, KV: 3, SQL: 1}
	off := freeOffset(t, topo)
	dataDir := t.TempDir()
	start := time.Now()
	cfgFile := writeConfig(t)
	pg := startPlayground(t, dataDir, true, "--kv", "3", "--sql", "1",
		"--port-offset", strconv.Itoa(off), "--config", cfgFile)
	t.Logf("playground up in %v", time.Since(start).Round(time.Millisecond))
	if pg.port != cluster.DefaultSQLPort+off {
		t.Fatalf("SQL port %d, want %d", pg.port, cluster.DefaultSQLPort+off)
	}

	db := pg.db(t)
	mustExec(t, db, "CREATE DATABASE d")
	mustExec(t, db, "CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(20))")
	mustExec(t, db, "INSERT INTO d.t VALUES (1, 'one'), (2, 'two'), (3, 'three')")
	var n int
	var v string
	if err := db.QueryRow("SELECT COUNT(*), MAX(v) FROM d.t").Scan(&n, &v); err != nil || n != 3 || v != "two" {
		t.Fatalf("select: %d %q %v", n, v, err)
	}

	st := pg.state(t)
	if len(st.Processes) != 5 || !st.Running() || st.Keep {
		t.Fatalf("state: %+v", st)
	}
	// The user's config file is given as it is.
	if !strings.Contains(pg.proc.Output(), "Each process reads config "+cfgFile+" (the playground's one-machine settings are not added)") {
		t.Fatalf("the playground does not name the user's config:\n%s", pg.proc.Output())
	}
	// Every child runs with its share of the CPUs (GOMAXPROCS).
	wantProcs := fmt.Sprintf("GOMAXPROCS=%d", max(runtime.NumCPU()/4, 1))
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		for _, p := range st.Processes {
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.PID))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(strings.Split(string(env), "\x00"), wantProcs) {
				t.Fatalf("%s runs without %s", p.Name, wantProcs)
			}
		}
		if !strings.Contains(pg.proc.Output(), "Each process runs with "+wantProcs+" per process") {
			t.Fatalf("the playground does not say %s:\n%s", wantProcs, pg.proc.Output())
		}
	}
	out, errOut, code := strata(t, "playground", "display", "--data-dir", dataDir)
	if code != 0 {
		t.Fatalf("display: exit %d: %s", code, errOut)
	}
	for _, p := range st.Processes {
		row := regexp.MustCompile(fmt.Sprintf(`(?m)^%s\s+%s\s+%s\s+\S+\s+%d\s+up\s+%s\s+%s$`,
			p.Name, p.Role, regexp.QuoteMeta(p.Addr), p.PID, regexp.QuoteMeta(p.DataDir), regexp.QuoteMeta(p.LogFile)))
		if !row.MatchString(out) {
			t.Fatalf("display lacks a row for %+v:\n%s", p, out)
		}
	}

	pdAddr := st.Processes[0].Addr
	waitFor(t, "ctl stores to list 3 stores", 30*time.Second, func() (bool, string) {
		out, errOut, code := strata(t, "ctl", "--pd", pdAddr, "stores")
		rows := regexp.MustCompile(`(?m)^\d+\s+127\.0\.0\.1:\d+\s+Up\s`).FindAllString(out, -1)
		return code == 0 && len(rows) == 3 && strings.Contains(out, "(3 stores)"), out + errOut
	})
	out, errOut, code = strata(t, "ctl", "regions", "--pd", pdAddr)
	if code != 0 || !regexp.MustCompile(`(?m)^\d+\s+-inf\s`).MatchString(out) || !regexp.MustCompile(`\(\d+ regions?\)`).MatchString(out) {
		t.Fatalf("ctl regions: exit %d:\n%s%s", code, out, errOut)
	}
	out, _, code = strata(t, "ctl", "--pd", pdAddr, "--json", "stores")
	var stores struct{ Count int }
	if code != 0 || json.Unmarshal([]byte(out), &stores) != nil || stores.Count != 3 {
		t.Fatalf("ctl --json stores: exit %d:\n%s", code, out)
	}
	out, _, code = strata(t, "ctl", "--pd", pdAddr, "members")
	if code != 0 || !regexp.MustCompile(`(?m)^pd-0\s.*\*$`).MatchString(out) {
		t.Fatalf("ctl members: exit %d:\n%s", code, out)
	}

	// A KV node killed behind the playground's back is reported; the
	// others keep running.
	kv2 := st.Processes[3]
	if kv2.Name != "kv-2" {
		t.Fatalf("fourth process is %s", kv2.Name)
	}
	if err := syscall.Kill(kv2.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	pg.proc.WaitLine(regexp.MustCompile(fmt.Sprintf(`process exited unexpectedly: kv-2 \(pid %d\) exited: signal: killed`, kv2.PID)), 30*time.Second)
	pg.proc.WaitLine(regexp.MustCompile(`^last lines of .*kv-2/kv\.log:$`), 10*time.Second)
	if exited, err := pg.proc.Exited(); exited {
		t.Fatalf("playground exited after one child died: %v", err)
	}
	out, _, _ = strata(t, "playground", "display", "--data-dir", dataDir)
	if !regexp.MustCompile(`(?m)^kv-2\s.*\sexited\s`).MatchString(out) || !regexp.MustCompile(`(?m)^sql-0\s.*\sup\s`).MatchString(out) {
		t.Fatalf("display after kv-2 died:\n%s", out)
	}

	if err := pg.proc.Stop(60 * time.Second); err != nil {
		t.Fatalf("playground after SIGTERM: %v\n%s", err, pg.proc.Output())
	}
	for _, p := range st.Processes {
		if !gone(p.PID) {
			t.Errorf("%s (pid %d) survived the playground", p.Name, p.PID)
		}
	}
	if _, err := os.Stat(st.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("data of an untagged playground not removed: %v", err)
	}
	if strings.Contains(pg.proc.Output(), "did not stop after SIGTERM") {
		t.Fatalf("a child needed SIGKILL:\n%s", pg.proc.Output())
	}
	for _, want := range []string{"Stopping 1 sql", "Stopping 3 kv", "Stopping 1 pd", "Stopped; removed " + st.Dir} {
		if !strings.Contains(pg.proc.Output(), want) {
			t.Fatalf("output lacks %q:\n%s", want, pg.proc.Output())
		}
	}
}

// A tagged playground keeps its data at stop and reuses it at the next
// start; killed with kill -9, it leaves no child behind either.
func TestPlaygroundTagKeepsData(t *testing.T) {
	topo := cluster.Topology{PD: 1, KV: 1, SQL: 1}
	off := strconv.Itoa(freeOffset(t, topo))
	dataDir, cfg := t.TempDir(), writeConfig(t)
	args := []string{"--tag", "keep", "--kv", "1", "--sql", "1", "--port-offset", off, "--config", cfg}

	pg := startPlayground(t, dataDir, true, args...)
	mustExec(t, pg.db(t), "CREATE DATABASE d")
	mustExec(t, pg.db(t), "CREATE TABLE d.t (id INT PRIMARY KEY)")
	mustExec(t, pg.db(t), "INSERT INTO d.t VALUES (7)")
	st := pg.state(t)
	if !st.Keep || st.Tag != "keep" {
		t.Fatalf("state: %+v", st)
	}
	// A second playground with the same tag is refused while this runs.
	_, errOut, code := strata(t, append([]string{"playground", "--data-dir", dataDir}, args...)...)
	if code != 1 || !strings.Contains(errOut, "already running") {
		t.Fatalf("second start of tag keep: exit %d: %s", code, errOut)
	}
	if err := pg.proc.Stop(60 * time.Second); err != nil {
		t.Fatalf("playground after SIGTERM: %v", err)
	}
	waitGone(t, st.Processes, 10*time.Second)
	for _, p := range st.Processes {
		if _, err := os.Stat(p.DataDir); err != nil {
			t.Fatalf("%s data of a tagged playground: %v", p.Name, err)
		}
	}

	pg = startPlayground(t, dataDir, true, args...)
	var id int
	if err := pg.db(t).QueryRow("SELECT id FROM d.t").Scan(&id); err != nil || id != 7 {
		t.Fatalf("row written before the restart: %d, %v", id, err)
	}
	st = pg.state(t)
	pg.proc.Kill()
	waitGone(t, st.Processes, 10*time.Second)
	if _, err := os.Stat(st.Dir); err != nil {
		t.Fatalf("tagged data after kill -9: %v", err)
	}
	out, _, _ := strata(t, "playground", "display", "--data-dir", dataDir)
	if !strings.Contains(out, "No playground is running") {
		t.Fatalf("display after kill -9:\n%s", out)
	}
}

// A taken default port is named, with the advice to use --port-offset,
// and nothing starts.
func TestPlaygroundPortTaken(t *testing.T) {
	off := freeOffset(t, cluster.Topology{PD: 1, KV: 1, SQL: 1})
	port := cluster.DefaultSQLPort + off
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dataDir := t.TempDir()
	_, errOut, code := strata(t, "playground", "--data-dir", dataDir, "--kv", "1", "--port-offset", strconv.Itoa(off))
	if code != 1 || !strings.Contains(errOut, fmt.Sprintf("%d (sql-0 MySQL)", port)) || !strings.Contains(errOut, "--port-offset") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if entries, _ := os.ReadDir(dataDir); len(entries) != 0 {
		t.Fatalf("a refused playground left %d folders", len(entries))
	}
	_, errOut, code = strata(t, "playground", "--data-dir", dataDir, "--kv", "0")
	if code != 2 || !strings.Contains(errOut, "--kv 0") {
		t.Fatalf("--kv 0: exit %d, stderr:\n%s", code, errOut)
	}
}

// ctl: bad usage exits 2, an unreachable PD exits 1 and says so.
func TestCtlErrors(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"ctl"}, 2, "no command"},
		{[]string{"ctl", "bogus"}, 2, "unknown command"},
		{[]string{"ctl", "region", "abc"}, 2, "not a region id"},
		{[]string{"ctl", "config", "set", "x"}, 2, "wrong arguments"},
		{[]string{"ctl", "operator", "add", "transfer-leader", "2", "x"}, 2, "are not ids"},
		{[]string{"ctl", "operator", "add", "split-region", "2"}, 2, "wrong arguments"},
		{[]string{"ctl", "--nope", "stores"}, 2, "flag provided but not defined"},
		{[]string{"ctl", "--pd", closed, "stores"}, 1, "cannot reach PD at " + closed},
	} {
		_, errOut, code := strata(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("strata %v: exit %d, stderr %q; want exit %d, ~%q", c.args, code, errOut, c.code, c.msg)
		}
	}
}
