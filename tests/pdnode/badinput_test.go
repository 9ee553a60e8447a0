package pdnode

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-db/strata/tests/testproc"
)

// TestBadFlagsAndConfig: garbage flags, URLs and config files make
// `strata pd` exit with status 2 and a message naming the problem, before
// it starts anything.
func TestBadFlagsAndConfig(t *testing.T) {
	bin, err := testproc.Binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	data := filepath.Join(dir, "data")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--no-such-flag"}, "flag provided but not defined"},
		{[]string{"--data-dir", data, "extra-arg"}, "unexpected arguments"},
		{[]string{"--data-dir", data, "--client-urls", "not a url"}, "bad URL"},
		{[]string{"--data-dir", data, "--peer-urls", "https://127.0.0.1:1"}, "want http://host:port"},
		{[]string{"--data-dir", data, "--client-urls", "http://127.0.0.1"}, "want http://host:port"},
		{[]string{"--data-dir", data, "--initial-cluster", "garbage"}, "initial-cluster"},
		{[]string{"--data-dir", data, "--initial-cluster", "other=http://127.0.0.1:1"}, "does not name this member"},
		{[]string{"--config", write("garbage.toml", "this is = = not toml [")}, "garbage.toml"},
		{[]string{"--config", write("types.toml", "name = 5\n")}, "name"},
		{[]string{"--config", write("urls.toml", "client-urls = \"ftp://x:1\"\n"), "--data-dir", data}, "bad URL"},
		{[]string{"--config", write("replicas.toml", "[replication]\nmax-replicas = 0\n"), "--data-dir", data}, "max-replicas"},
		{[]string{"--config", filepath.Join(dir, "missing.toml")}, "missing.toml"},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, append([]string{"pd"}, c.args...)...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Errorf("strata pd %v: %v, want exit status 2\n%s", c.args, err, out)
			continue
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("strata pd %v: output does not mention %q:\n%s", c.args, c.want, out)
		}
	}
	if _, err := os.Stat(data); err == nil {
		t.Errorf("a refused start created the data dir %s", data)
	}
}
