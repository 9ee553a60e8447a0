package kvproto

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// squatEnv names, in a child of TestDialSkipsLocalSocketOfOtherUser, the
// address whose local socket the child takes.
const squatEnv = "KVPROTO_TEST_SQUAT_ADDR"

// TestSquatHelper is the child: it holds the local socket of the address
// in squatEnv until its standard input closes.
func TestSquatHelper(t *testing.T) {
	addr := os.Getenv(squatEnv)
	if addr == "" {
		t.Skip("the child of TestDialSkipsLocalSocketOfOtherUser")
	}
	lis, err := ListenLocal(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer lis.Close()
	os.Stdout.WriteString("ready\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// A local socket held by another user's process (which could take the
// name before the server) is not used: the dial goes over TCP.
func TestDialSkipsLocalSocketOfOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a process as another user")
	}
	_, addr := listenTCP(t)

	// The child runs this test binary as user nobody, from a copy that
	// user may execute.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "kvproto-squat")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "kvproto.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestSquatHelper$")
	cmd.Env = append(os.Environ(), squatEnv+"="+addr)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("run the child as user nobody: %v", err)
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("the child did not take the local socket: %q, %v", line, err)
	}

	c, err := dialLocalFirst(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.RemoteAddr().Network(); n != "tcp" {
		t.Fatalf("dialed over %s to a local socket held by another user, want tcp", n)
	}
}
