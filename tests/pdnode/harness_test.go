package pdnode

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	pdclient "github.com/strata-db/strata/internal/pd/client"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
	"github.com/strata-db/strata/tests/testproc"
)

func TestMain(m *testing.M) {
	if _, err := testproc.Binary(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

var servingRE = regexp.MustCompile(`strata pd serving on (http://\S+)`)

// proc is one `strata pd` process. Unlike testproc.Proc, waiting for its
// serving line returns an error instead of failing the test, so that a
// start that lost a port to another process can be retried.
type proc struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	out   bytes.Buffer
	lines chan string
	done  chan struct{}
	err   error
}

func startProc(args ...string) (*proc, error) {
	bin, err := testproc.Binary()
	if err != nil {
		return nil, err
	}
	p := &proc{cmd: exec.Command(bin, args...), lines: make(chan string, 1024), done: make(chan struct{})}
	pr, pw := io.Pipe()
	p.cmd.Stdout, p.cmd.Stderr = pw, pw
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.out.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	go func() {
		p.err = p.cmd.Wait()
		pw.Close()
		close(p.done)
	}()
	return p, nil
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitServing waits for the serving line and returns the client URL.
func (p *proc) waitServing(timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		select {
		case line := <-p.lines:
			if m := servingRE.FindStringSubmatch(line); m != nil {
				return m[1], nil
			}
		case <-p.done:
			return "", fmt.Errorf("exited (%v) before serving:\n%s", p.err, p.output())
		case <-ctx.Done():
			return "", fmt.Errorf("not serving within %v:\n%s", timeout, p.output())
		}
	}
}

func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop sends SIGTERM and returns the exit error (nil: status 0).
func (p *proc) stop(timeout time.Duration) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		p.kill()
		return fmt.Errorf("no exit within %v of SIGTERM", timeout)
	}
}

// member is one PD member: its process (nil while down) and its flags.
type member struct {
	name, dir, clientURL, peerURL string
	proc                          *proc
}

// cluster is a set of `strata pd` processes started together.
type cluster struct {
	t       testing.TB
	members []*member
	initial string
}

// startCluster starts n members on fresh loopback ports and waits until
// each prints its serving line; a start that loses a port race is retried
// on new ports.
func startCluster(t testing.TB, n int) *cluster {
	t.Helper()
	for attempt := 0; ; attempt++ {
		c, err := tryCluster(t, n, attempt)
		if err == nil {
			t.Cleanup(func() {
				for _, m := range c.members {
					if m.proc != nil {
						m.proc.kill()
						if t.Failed() {
							t.Logf("output of %s:\n%s", m.name, m.proc.output())
						}
					}
				}
			})
			return c
		}
		if attempt < 4 && strings.Contains(err.Error(), "address already in use") {
			t.Logf("port race, retrying: %v", err)
			continue
		}
		t.Fatal(err)
	}
}

func tryCluster(t testing.TB, n, attempt int) (*cluster, error) {
	ports, err := pdtest.FreePorts(2 * n)
	if err != nil {
		return nil, err
	}
	c := &cluster{t: t}
	var initial []string
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		m := &member{
			name:      fmt.Sprintf("pd%d", i+1),
			dir:       filepath.Join(dir, fmt.Sprintf("pd%d-%d", i+1, attempt)),
			clientURL: fmt.Sprintf("http://127.0.0.1:%d", ports[2*i]),
			peerURL:   fmt.Sprintf("http://127.0.0.1:%d", ports[2*i+1]),
		}
		c.members = append(c.members, m)
		initial = append(initial, m.name+"="+m.peerURL)
	}
	c.initial = strings.Join(initial, ",")
	for i := range c.members {
		if err := c.launch(i); err != nil {
			c.killAll()
			return nil, err
		}
	}
	for _, m := range c.members {
		if _, err := m.proc.waitServing(60 * time.Second); err != nil {
			c.killAll()
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
	}
	return c, nil
}

func (c *cluster) killAll() {
	for _, m := range c.members {
		if m.proc != nil {
			m.proc.kill()
			m.proc = nil
		}
	}
}

func (c *cluster) launch(i int) error {
	m := c.members[i]
	p, err := startProc("pd", "--name", m.name, "--data-dir", m.dir, "--client-urls", m.clientURL,
		"--peer-urls", m.peerURL, "--initial-cluster", c.initial)
	if err != nil {
		return err
	}
	m.proc = p
	return nil
}

// restart starts member i again on its data dir and ports and waits for
// its serving line.
func (c *cluster) restart(i int) {
	c.t.Helper()
	if err := c.launch(i); err != nil {
		c.t.Fatal(err)
	}
	if _, err := c.members[i].proc.waitServing(60 * time.Second); err != nil {
		c.t.Fatalf("%s: %v", c.members[i].name, err)
	}
}

// kill9 kills member i with SIGKILL.
func (c *cluster) kill9(i int) {
	c.members[i].proc.kill()
	c.members[i].proc = nil
}

// term stops member i with SIGTERM and expects a clean exit.
func (c *cluster) term(i int) {
	c.t.Helper()
	if err := c.members[i].proc.stop(30 * time.Second); err != nil {
		c.t.Fatalf("%s: SIGTERM: %v\n%s", c.members[i].name, err, c.members[i].proc.output())
	}
	c.members[i].proc = nil
}

func (c *cluster) addrs() []string {
	var out []string
	for _, m := range c.members {
		out = append(out, m.clientURL)
	}
	return out
}

// indexOf returns the member named name.
func (c *cluster) indexOf(name string) int {
	for i, m := range c.members {
		if m.name == name {
			return i
		}
	}
	c.t.Fatalf("no member %q", name)
	return -1
}

func newClient(t testing.TB, addrs []string) *pdclient.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pdclient.New(ctx, addrs, pdclient.Options{Logger: pdtest.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
