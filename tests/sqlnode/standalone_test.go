package sqlnode

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/tests/testproc"
)

// TestSQLOverKVNode: `strata sql --store` serves SQL over a separate
// `strata kv` process reached by gRPC.
func TestSQLOverKVNode(t *testing.T) {
	dir := t.TempDir()
	kv := testproc.Start(t, "kv", "--data-dir", filepath.Join(dir, "kv"), "--addr", "127.0.0.1:0", "--status-addr", "")
	kvAddr := kv.WaitLine(regexp.MustCompile(`strata kv serving on (127\.0\.0\.1:\d+)`), time.Minute)[1]
	sqlp := testproc.Start(t, "sql", "--store", kvAddr, "--data-dir", filepath.Join(dir, "sql"), "--port", "0", "--status-port", "-1")
	port := sqlp.WaitLine(regexp.MustCompile(`strata sql ready: mysql --host \S+ --port (\d+) -u root`), time.Minute)[1]
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%s)/", port))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{"CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))", "SET GLOBAL tidb_enable_async_commit = OFF"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var name string
	if err := db.QueryRow("SHOW TABLES").Scan(&name); err != nil || name != "t" {
		t.Fatalf("SHOW TABLES: %q %v", name, err)
	}
}

// TestBadConfig: a malformed config file is a clear error and exit status
// 2; unknown keys are warnings and the server starts.
func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[log]\nlevel = \n"), 0o644)
	p := testproc.Start(t, "server", "--data-dir", filepath.Join(dir, "d1"), "--port", "0", "--status-port", "-1", "--config", bad)
	p.WaitLine(regexp.MustCompile(`strata server: .*line 2`), time.Minute)
	if exited, err := p.Wait(30 * time.Second); !exited || err == nil || !strings.Contains(err.Error(), "exit status 2") {
		t.Errorf("bad config: exited=%v err=%v, want exit status 2", exited, err)
	}

	unknown := filepath.Join(dir, "unknown.toml")
	os.WriteFile(unknown, []byte("[log]\nlevel = \"warn\"\n[no-such-section]\nkey = 1\n"), 0o644)
	p = testproc.Start(t, "server", "--data-dir", filepath.Join(dir, "d2"), "--port", "0", "--status-port", "-1", "--config", unknown)
	p.WaitLine(regexp.MustCompile(`strata server: unknown config key "no-such-section" ignored`), time.Minute)
	p.WaitLine(readyRE, time.Minute)
}
