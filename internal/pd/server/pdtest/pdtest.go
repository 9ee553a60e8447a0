// Package pdtest starts in-process PD members for tests: each in its own
// temp dir, on loopback ports chosen at run time (a port is found free by
// binding :0 and closing it; a start that loses the race for a port is
// retried on new ports).
package pdtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/pd/server"
)

// FreePorts returns n distinct loopback ports that were free a moment ago.
func FreePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// Cluster is a set of in-process PD members.
type Cluster struct {
	t       testing.TB
	Configs []server.Config  // each member's config, by index
	Servers []*server.Server // nil for a stopped member
}

// Logger is the logger of test members: warnings and errors to stderr
// when STRATA_TEST_LOG is set, nothing otherwise.
func Logger() *slog.Logger {
	if os.Getenv("STRATA_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// Start starts an n-member cluster and stops it when the test ends. tune,
// if set, adjusts each member's config.
func Start(t testing.TB, n int, tune func(*server.Config)) *Cluster {
	t.Helper()
	dir := t.TempDir()
	for attempt := 0; ; attempt++ {
		c, err := tryStart(t, dir, attempt, n, tune)
		if err == nil {
			t.Cleanup(c.StopAll)
			return c
		}
		if attempt < 5 && strings.Contains(err.Error(), "address already in use") {
			continue
		}
		t.Fatalf("start PD cluster: %v", err)
	}
}

func tryStart(t testing.TB, dir string, attempt, n int, tune func(*server.Config)) (*Cluster, error) {
	ports, err := FreePorts(2 * n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{t: t, Configs: make([]server.Config, n), Servers: make([]*server.Server, n)}
	var initial []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("pd%d", i+1)
		initial = append(initial, fmt.Sprintf("%s=http://127.0.0.1:%d", name, ports[2*i+1]))
	}
	for i := 0; i < n; i++ {
		cfg := server.Config{
			Name:           fmt.Sprintf("pd%d", i+1),
			DataDir:        filepath.Join(dir, fmt.Sprintf("try%d-pd%d", attempt, i+1)),
			ClientURLs:     []string{fmt.Sprintf("http://127.0.0.1:%d", ports[2*i])},
			PeerURLs:       []string{fmt.Sprintf("http://127.0.0.1:%d", ports[2*i+1])},
			InitialCluster: strings.Join(initial, ","),
			Logger:         Logger(),
			Version:        "test",
		}
		if tune != nil {
			tune(&cfg)
		}
		c.Configs[i] = cfg
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = c.startMember(i)
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			c.StopAll()
			return nil, err
		}
	}
	return c, nil
}

func (c *Cluster) startMember(i int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := server.Start(ctx, c.Configs[i])
	if err != nil {
		return err
	}
	c.Servers[i] = s
	return nil
}

// Addrs are the members' client URLs.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, cfg := range c.Configs {
		out = append(out, cfg.ClientURLs...)
	}
	return out
}

// Stop stops member i (a clean stop: it hands leadership over).
func (c *Cluster) Stop(i int) {
	if s := c.Servers[i]; s != nil {
		s.Close()
		c.Servers[i] = nil
	}
}

// Restart starts stopped member i again on its data dir and ports.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	if err := c.startMember(i); err != nil {
		c.t.Fatalf("restart pd%d: %v", i+1, err)
	}
}

// StopAll stops every member, one at a time and the etcd leader first
// each time: stopping members at once makes etcd's leader wait (7 s) for
// a leadership transfer to a member that is going away too.
func (c *Cluster) StopAll() {
	for {
		next := -1
		for i, s := range c.Servers {
			if s == nil {
				continue
			}
			if next < 0 || s.IsEtcdLeader() {
				next = i
			}
		}
		if next < 0 {
			return
		}
		c.Stop(next)
	}
}

// WaitLeader polls until one running member leads and returns its index.
func (c *Cluster) WaitLeader(timeout time.Duration) int {
	c.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for i, s := range c.Servers {
			if s != nil && s.IsLeader() {
				return i
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.t.Fatalf("no PD leader within %v", timeout)
	return -1
}
