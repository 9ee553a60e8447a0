package difftest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/strata-db/strata/tests/testproc"
)

var (
	strataReadyRE = regexp.MustCompile(`strata server ready: mysql --host (\S+) --port (\d+) -u root`)
	mariaReadyRE  = regexp.MustCompile(`ready for connections`)
)

// mysql8Mode is MySQL 8.0's default sql_mode; MariaDB's session is set to it
// so that both servers judge queries by the same rules.
const mysql8Mode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// startStrata starts `strata server` with its own data dir and returns the
// address of its MySQL port.
func startStrata(t *testing.T) string {
	t.Helper()
	p := testproc.Start(t, "server", "--data-dir", filepath.Join(t.TempDir(), "strata"), "--port", "0", "--status-port", "-1")
	m := p.WaitLine(strataReadyRE, 2*time.Minute)
	return fmt.Sprintf("%s:%s", m[1], m[2])
}

// startMariaDB initialises a data dir and starts Debian's mariadbd on a free
// loopback port, without grant tables; it skips the test when MariaDB is not
// installed. The server is stopped (SIGTERM, then SIGKILL) at cleanup.
func startMariaDB(t *testing.T) string {
	t.Helper()
	mariadbd, err := findBinary("mariadbd", "/usr/sbin/mariadbd")
	if err != nil {
		t.Skip("difftest: mariadbd is not installed (apt-get install mariadb-server); skipping the differential test")
	}
	installDB, err := findBinary("mariadb-install-db", "/usr/bin/mariadb-install-db")
	if err != nil {
		t.Skip("difftest: mariadb-install-db is not installed (apt-get install mariadb-server); skipping the differential test")
	}
	dir := t.TempDir()
	datadir := filepath.Join(dir, "data")
	var userArgs []string
	if os.Geteuid() == 0 {
		userArgs = []string{"--user=root"} // mariadbd refuses to run as root otherwise
	}
	args := append([]string{"--no-defaults", "--datadir=" + datadir, "--auth-root-authentication-method=normal",
		"--skip-test-db", "--skip-name-resolve"}, userArgs...)
	if out, err := exec.Command(installDB, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	port := testproc.FreePort(t)
	args = append([]string{"--no-defaults", "--datadir=" + datadir, "--socket=" + filepath.Join(dir, "mysqld.sock"),
		"--pid-file=" + filepath.Join(dir, "mysqld.pid"), "--port=" + strconv.Itoa(port), "--bind-address=127.0.0.1",
		"--skip-grant-tables", "--skip-log-bin", "--innodb-buffer-pool-size=32M", "--innodb-flush-log-at-trx-commit=0",
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"}, userArgs...)
	p := testproc.StartProgram(t, mariadbd, args...)
	t.Cleanup(func() { _ = p.Stop(30 * time.Second) }) // before StartProgram's kill -9
	p.WaitLine(mariaReadyRE, 2*time.Minute)
	return fmt.Sprintf("127.0.0.1:%d", port)
}

func findBinary(name, fallback string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	if _, err := os.Stat(fallback); err == nil {
		return fallback, nil
	}
	return "", fmt.Errorf("%s not found", name)
}
