package kvproto

import (
	"context"
	"errors"
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/peer"
)

// listenTCP listens on a loopback port for the test's length; it returns
// the listener and its address.
func listenTCP(t *testing.T) (net.Listener, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, l.Addr().String()
}

// peerNetwork serves the health service on a TCP listener and, with local,
// on addr's local socket too; it reports over which network the server saw
// a client that dialed the TCP address with DialOptions.
func peerNetwork(t *testing.T, local bool) string {
	t.Helper()
	tcp, addr := listenTCP(t)
	seen := make(chan string, 4)
	srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if p, ok := peer.FromContext(ctx); ok {
			seen <- p.Addr.Network()
		}
		return h(ctx, req)
	}))
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(tcp) }()
	if local {
		ul, err := ListenLocal(addr)
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = srv.Serve(ul) }()
	}
	t.Cleanup(srv.Stop)

	cc, err := grpc.NewClient(addr, append(DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := healthpb.NewHealthClient(cc).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	return <-seen
}

// A client dialing a server's TCP address reaches it over the server's
// local socket when it serves one, and over TCP when it does not.
func TestDialPrefersLocalSocket(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract unix sockets are Linux's")
	}
	if got := peerNetwork(t, true); got != "unix" {
		t.Errorf("with a local socket the server saw a %q client, want unix", got)
	}
	if got := peerNetwork(t, false); got != "tcp" {
		t.Errorf("without a local socket the server saw a %q client, want tcp", got)
	}
}

// Only one process holds an address's local socket: a second listen fails
// (the second server then serves TCP alone), and the name is free again
// once the first closes.
func TestListenLocalIsExclusive(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract unix sockets are Linux's")
	}
	_, addr := listenTCP(t)
	first, err := ListenLocal(addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ListenLocal(addr); !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("second ListenLocal(%s): %v, want EADDRINUSE", addr, err)
	}
	first.Close()
	again, err := ListenLocal(addr)
	if err != nil {
		t.Fatalf("ListenLocal(%s) after the first closed: %v", addr, err)
	}
	again.Close()
}
