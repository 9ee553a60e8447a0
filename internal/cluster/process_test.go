package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// shInstance is an instance whose "binary" is /bin/sh, for tests of the
// process handling without strata.
func shInstance(t *testing.T) Instance {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	return Instance{Role: RoleKV, Index: 0, Host: "127.0.0.1", Port: 1, StatusPort: 2, Dir: filepath.Join(t.TempDir(), "kv-0")}
}

func TestProcessReadyAndStop(t *testing.T) {
	in := shInstance(t)
	// Ignores SIGTERM, so the stop must fall back to SIGKILL.
	p, err := StartProcess("/bin/sh", in, []string{"-c", `trap "" TERM; echo starting; echo "strata kv serving on 127.0.0.1:1 (store 7)"; while :; do sleep 1; done`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := p.WaitReady(ctx, KVReadyRE)
	if err != nil {
		t.Fatal(err)
	}
	if m[2] != "7" {
		t.Fatalf("store %q", m[2])
	}
	start := time.Now()
	if killed := stopProcesses([]*Process{p}, 200*time.Millisecond, nil); len(killed) != 1 {
		t.Fatalf("killed %d processes, want 1", len(killed))
	}
	if !p.Exited() || PIDAlive(p.PID()) {
		t.Fatalf("pid %d survived the stop", p.PID())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("stop took %v", d)
	}
	if p.status != "signal: killed" {
		t.Fatalf("status %q, want signal: killed", p.status)
	}
}

func TestProcessExitBeforeReady(t *testing.T) {
	in := shInstance(t)
	// An older run's line in a reused log must not count.
	if err := os.MkdirAll(in.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in.LogFile(), []byte("strata kv serving on 127.0.0.1:1 (store 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := StartProcess("/bin/sh", in, []string{"-c", "echo one; echo two; echo boom >&2; exit 3"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = p.WaitReady(ctx, KVReadyRE)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("WaitReady = %v, want an ExitError", err)
	}
	if ee.Status != "exit status 3" || ee.Name != "kv-0" || ee.LogFile != in.LogFile() {
		t.Fatalf("exit error %+v", ee)
	}
	if got := strings.Join(ee.Tail, "|"); !strings.HasSuffix(got, "one|two|boom") {
		t.Fatalf("tail %q", got)
	}
}

func TestProcessReadyTimeout(t *testing.T) {
	in := shInstance(t)
	p, err := StartProcess("/bin/sh", in, []string{"-c", "echo nothing useful; exec sleep 60"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stopProcesses([]*Process{p}, time.Second, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := p.WaitReady(ctx, regexp.MustCompile("never")); !errors.Is(err, ErrNotReady) {
		t.Fatalf("WaitReady = %v, want ErrNotReady", err)
	}
}

func TestTailFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString("line " + strings.Repeat("x", i%50) + "\n")
	}
	b.WriteString("last\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tail := tailFile(path, 3)
	if len(tail) != 3 || tail[2] != "last" {
		t.Fatalf("tail %q", tail)
	}
	if tailFile(filepath.Join(t.TempDir(), "none"), 3) != nil {
		t.Fatal("tail of a missing file")
	}
}
