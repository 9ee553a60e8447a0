package sqlnode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-db/strata/tests/testproc"
)

// environGODEBUG returns the GODEBUG of process pid as it runs now (after any
// exec), and whether it has one.
func environGODEBUG(t *testing.T, pid int) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("GODEBUG=")); ok {
			return string(v), true
		}
	}
	return "", false
}

// strata re-executes itself, keeping its pid, with schedtrace (sysmon
// without deep sleep) and madvdontneed=0 (freed heap pages given back
// with MADV_FREE) added to GODEBUG (cmd/strata/godebug.go), keeps the
// operator's other GODEBUG settings, adds neither where the operator set
// its key, and leaves a GODEBUG that sets both alone.
func TestSysmonGODEBUG(t *testing.T) {
	for _, c := range []struct {
		name, env string
		unset     bool
		want      string
	}{
		{name: "unset", unset: true, want: "schedtrace=2147483647,madvdontneed=0"},
		{name: "other settings", env: "gctrace=0", want: "gctrace=0,schedtrace=2147483647,madvdontneed=0"},
		{name: "operator's madvdontneed", env: "madvdontneed=1", want: "madvdontneed=1,schedtrace=2147483647"},
		{name: "operator's schedtrace", env: "schedtrace=0", want: "schedtrace=0,madvdontneed=0"},
		{name: "operator's both", env: "schedtrace=0,madvdontneed=1", want: "schedtrace=0,madvdontneed=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GODEBUG", c.env)
			if c.unset {
				os.Unsetenv("GODEBUG")
			}
			p := testproc.Start(t, "server", "--data-dir", filepath.Join(t.TempDir(), "data"), "--port", "0", "--status-port", "-1")
			p.WaitLine(readyRE, 60*time.Second)
			got, ok := environGODEBUG(t, p.Pid())
			if !ok || got != c.want {
				t.Fatalf("GODEBUG of the running server = %q (set: %v), want %q", got, ok, c.want)
			}
		})
	}
}
