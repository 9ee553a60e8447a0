package testproc

import (
	"math/rand/v2"
	"net"
	"strconv"
	"sync"
	"testing"
)

// Ports for processes are picked below Linux's ephemeral range (32768 and
// up), so an outgoing connection of another process cannot take one between
// the pick and the child's bind, and never twice in one test binary: a port
// closed after the check is free again for the kernel to hand out, which is
// how a KV node once got the same port for gRPC and for its status server.
const (
	portLow  = 20000
	portHigh = 32000
)

var (
	portMu sync.Mutex
	given  = map[int]bool{}
)

// FreePort returns a loopback TCP port that was free when checked and that
// no earlier call in this test binary returned.
func FreePort(t testing.TB) int {
	t.Helper()
	portMu.Lock()
	defer portMu.Unlock()
	for range 1000 {
		p := portLow + rand.IntN(portHigh-portLow)
		if given[p] {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		l.Close()
		given[p] = true
		return p
	}
	t.Fatal("testproc: no free loopback port found")
	return 0
}
