package server

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMySQLCommandLineClient runs Debian's mysql (MariaDB) client against
// the server, when installed: login with and without a password, text
// results, multi-statements, an error with its number, `status`.
func TestMySQLCommandLineClient(t *testing.T) {
	bin, err := exec.LookPath("mysql")
	if err != nil {
		t.Skip("mysql client not installed")
	}
	ts := startServer(t, Config{})
	host, port, _ := net.SplitHostPort(ts.addr)
	stdin := ""
	run := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		base := []string{"--no-defaults", "-h", host, "-P", port, "--protocol=tcp", "-B"}
		cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("-uroot", "-e", "echo hello; select_all")
	if err != nil {
		t.Fatalf("mysql: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || lines[1] != "hello" || !strings.HasPrefix(lines[2], "c_tiny\tc_utiny") {
		t.Fatalf("unexpected output:\n%s", out)
	}
	if !strings.HasPrefix(lines[3], "-5\t250\t-300\t65000\t-8000000\t-2000000000\t4000000000\t-9000000000000000000\t18446744073709551615\t2024\t0.1\t3.141592653589793\t1e20\t12.50\théllo") {
		t.Errorf("row: %q", lines[3])
	}
	if !strings.HasSuffix(lines[3], "2024-02-29\t2024-02-29 13:14:15.123456\t1999-12-31 23:59:58\t-838:59:59\t01:02:03.450\tNULL") {
		t.Errorf("row end: %q", lines[3])
	}
	stdin = "ok 1;\nstatus\n"
	out, err = run("-ualice", "-psecret")
	stdin = ""
	if err != nil || !strings.Contains(out, "Uptime:") || !strings.Contains(out, "8.0.11-Strata") {
		t.Errorf("status: %v\n%s", err, out)
	}
	out, err = run("-ualice", "-pwrong", "-e", "ok 1")
	if err == nil || !strings.Contains(out, "ERROR 1045 (28000)") {
		t.Errorf("wrong password: %v\n%s", err, out)
	}
	out, err = run("-uroot", "-e", "error 1146")
	if err == nil || !strings.Contains(out, "ERROR 1146 (42S02)") {
		t.Errorf("error: %v\n%s", err, out)
	}
}
