package playground

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/strata-db/strata/internal/cluster"
	"github.com/strata-db/strata/tests/testproc"
)

func TestMain(m *testing.M) {
	if _, err := testproc.Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// fastConfig makes raft and heartbeats fast enough for tests.
const fastConfig = `
[raftstore]
raft-base-tick-interval = "100ms"
raft-election-timeout-ticks = 10
raft-heartbeat-ticks = 2
pd-heartbeat-tick-interval = "500ms"
pd-store-heartbeat-tick-interval = "500ms"
`

// connRE is the playground's connection line.
var connRE = regexp.MustCompile(`^mysql --host (\S+) --port (\d+) -u root$`)

// freeOffset picks a port offset under which every port of topo is free.
// Offsets stay in 1000..12000, so every port stays below Linux's
// ephemeral range (32768 and up).
func freeOffset(t *testing.T, topo cluster.Topology) int {
	t.Helper()
	for range 200 {
		topo.PortOffset = 1000 + rand.IntN(11000)
		insts, err := cluster.Plan(topo, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if cluster.CheckPorts(insts) == nil {
			return topo.PortOffset
		}
	}
	t.Fatal("no port offset with every port free")
	return 0
}

func writeConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "strata.toml")
	if err := os.WriteFile(path, []byte(fastConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// playground is a running `strata playground`.
type playground struct {
	proc    *testproc.Proc
	dataDir string // its --data-dir
	dsn     string
	port    int // SQL server's MySQL port
}

// startPlayground starts `strata playground args...` under dataDir and
// waits for its connection line (when it has SQL servers) or its
// running line.
func startPlayground(t *testing.T, dataDir string, withSQL bool, args ...string) *playground {
	t.Helper()
	args = append([]string{"playground", "--data-dir", dataDir}, args...)
	pg := &playground{proc: testproc.Start(t, args...), dataDir: dataDir}
	if !withSQL {
		pg.proc.WaitLine(regexp.MustCompile(`^Playground ".*" is running`), 90*time.Second)
		return pg
	}
	m := pg.proc.WaitLine(connRE, 90*time.Second)
	pg.port, _ = strconv.Atoi(m[2])
	pg.dsn = fmt.Sprintf("root@tcp(%s:%s)/?timeout=10s&readTimeout=30s&writeTimeout=30s", m[1], m[2])
	return pg
}

// state reads the playground's state file (the only playground under its
// data dir).
func (pg *playground) state(t *testing.T) cluster.State {
	t.Helper()
	states, err := cluster.ReadStates(pg.dataDir)
	if err != nil || len(states) != 1 {
		t.Fatalf("state files under %s: %v, %v", pg.dataDir, states, err)
	}
	return states[0]
}

func (pg *playground) db(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", pg.dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// strata runs the binary to completion and returns stdout, stderr and the
// exit status.
func strata(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	bin, err := testproc.Binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("strata %v did not finish within 60s", args)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("strata %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// waitFor polls cond every 50 ms until it holds or timeout passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, state := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s (last: %s)", timeout, what, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// gone reports whether no process has this pid (kill(pid, 0) fails with
// ESRCH).
func gone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// waitGone waits until every pid is gone.
func waitGone(t *testing.T, procs []cluster.ProcessState, timeout time.Duration) {
	t.Helper()
	waitFor(t, "every child to be gone", timeout, func() (bool, string) {
		for _, p := range procs {
			if !gone(p.PID) {
				return false, fmt.Sprintf("%s (pid %d) still exists", p.Name, p.PID)
			}
		}
		return true, ""
	})
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
