package testproc

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// OLTPWorkloads are sysbench 1.0.20's oltp_* workloads, in the order the
// tests run them.
var OLTPWorkloads = []string{
	"oltp_point_select", "oltp_read_only", "oltp_read_write", "oltp_write_only",
	"oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete",
}

// Sysbench returns the sysbench binary, installing Debian's package when
// it is missing and we may (root); the test is skipped otherwise.
func Sysbench(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("sysbench"); err == nil {
		return p
	}
	if os.Geteuid() == 0 {
		cmd := exec.Command("sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sysbench")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Logf("apt-get install sysbench: %v\n%s", err, out)
		}
		if p, err := exec.LookPath("sysbench"); err == nil {
			return p
		}
	}
	t.Skip("sysbench not installed and cannot be installed here")
	return ""
}

// SysbenchCounts are the counts of a sysbench run's report (-1: missing).
type SysbenchCounts struct {
	Txns, Ignored, Reconnects int
}

var (
	sbTxnsRE       = regexp.MustCompile(`transactions:\s+(\d+)`)
	sbIgnoredRE    = regexp.MustCompile(`ignored errors:\s+(\d+)`)
	sbReconnectsRE = regexp.MustCompile(`reconnects:\s+(\d+)`)
)

// ParseSysbench reads the counts from a sysbench run's output.
func ParseSysbench(out string) SysbenchCounts {
	return SysbenchCounts{
		Txns: MatchInt(sbTxnsRE, out), Ignored: MatchInt(sbIgnoredRE, out), Reconnects: MatchInt(sbReconnectsRE, out),
	}
}
