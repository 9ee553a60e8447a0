package sqlnode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/store/engine/syncring"
	"github.com/strata-db/strata/tests/testproc"
)

// hasIOUringFD reports whether process pid holds an io_uring.
func hasIOUringFD(t *testing.T, pid int) bool {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if l, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && strings.Contains(l, "io_uring") {
			return true
		}
	}
	return false
}

// TestFsyncThroughIOUring: a `strata server` runs its engines' fsyncs
// through io_uring by default (strata_engine_ring_fsyncs_total counts
// them; the process holds a ring), an acknowledged write survives kill -9
// with them, and storage.io-uring-sync = false leaves fsync the plain
// system call.
func TestFsyncThroughIOUring(t *testing.T) {
	r, err := syncring.New(0)
	if err != nil {
		t.Skipf("io_uring unavailable on this kernel: %v", err)
	}
	r.Close()
	ringFsyncs := func(status string) (ring, fallback float64) {
		m := testproc.Metrics(t, status)
		return testproc.MetricValue(t, m, `strata_engine_ring_fsyncs_total{path="io_uring"}`),
			testproc.MetricValue(t, m, `strata_engine_ring_fsyncs_total{path="fallback"}`)
	}

	t.Run("default", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "d")
		n, status := startServerWithStatusIn(t, dir)
		db := n.db("")
		for _, q := range []string{"CREATE DATABASE f", "CREATE TABLE f.t (a INT PRIMARY KEY, b INT)", "INSERT INTO f.t VALUES (1, 10)"} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if ring, _ := ringFsyncs(status); ring == 0 {
			t.Fatalf("no fsync went through io_uring after synced writes")
		}
		if !hasIOUringFD(t, n.proc.Pid()) {
			t.Fatalf("the server holds no io_uring")
		}
		db.Close()
		n.proc.Kill()

		n2, _ := startServerWithStatusIn(t, dir)
		var b int
		if err := n2.db("").QueryRow("SELECT b FROM f.t WHERE a = 1").Scan(&b); err != nil || b != 10 {
			t.Fatalf("acknowledged row after kill -9: b=%d, %v", b, err)
		}
	})

	t.Run("off", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "strata.toml")
		if err := os.WriteFile(cfg, []byte("[storage]\nio-uring-sync = false\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		n, status := startServerWithStatusIn(t, filepath.Join(t.TempDir(), "d"), "--config", cfg)
		db := n.db("")
		for _, q := range []string{"CREATE DATABASE f", "CREATE TABLE f.t (a INT PRIMARY KEY)", "INSERT INTO f.t VALUES (1)"} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if ring, fb := ringFsyncs(status); ring != 0 || fb != 0 {
			t.Fatalf("io-uring-sync = false, yet %v fsyncs went through the ring and %v fell back", ring, fb)
		}
		if hasIOUringFD(t, n.proc.Pid()) {
			t.Fatalf("io-uring-sync = false, yet the server holds an io_uring")
		}
	})
}
