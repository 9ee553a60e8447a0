package kvproto

import (
	"context"
	"net"
	"os"
	"syscall"
	"testing"
)

// A local socket held by another user's process (which could take the
// name before the server) is not used: the dial goes over TCP.
func TestDialSkipsLocalSocketOfOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to listen as another user")
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := tcp.Addr().String()
	// Take the name as user nobody: the listener's credentials are those
	// of listen(2)'s caller.
	if err := syscall.Setresuid(-1, 65534, -1); err != nil {
		t.Skipf("cannot become user nobody: %v", err)
	}
	squat, err := ListenLocal(addr)
	if err := syscall.Setresuid(-1, 0, -1); err != nil {
		t.Fatalf("cannot become root again: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer squat.Close()

	c, err := dialLocalFirst(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := c.RemoteAddr().Network(); n != "tcp" {
		t.Fatalf("dialed over %s to a local socket held by another user, want tcp", n)
	}
	tcp.Close()
}
