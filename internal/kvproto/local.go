package kvproto

import (
	"context"
	"net"
	"runtime"
)

// localPrefix starts the name of a local socket: a unix socket in Linux's
// abstract namespace (the leading "@"), which has no file to leave behind
// and, like a TCP address, belongs to the network namespace.
const localPrefix = "@strata-grpc/"

// LocalSocketName is the name of the local socket of a gRPC server that
// clients reach at the TCP address addr ("" where there are no abstract
// unix sockets: off Linux).
func LocalSocketName(addr string) string {
	if runtime.GOOS != "linux" || addr == "" {
		return ""
	}
	return localPrefix + addr
}

// ListenLocal listens on the local socket of the gRPC server that clients
// reach at addr. The server serves it next to its TCP listener, and every
// Strata process dialing addr from the same network namespace
// (DialOptions) connects there instead: a message then crosses a unix
// socket, not loopback TCP, which on one machine running several Strata
// processes costs less CPU per message. Call it only with the address the
// server's TCP listener is bound to, as an IP and port: that is what a
// dialer sees after name resolution, and no other process of the
// namespace can be reached at that address. Binding a name that is taken
// fails with EADDRINUSE (the server then serves TCP alone).
//
// Any process may bind any abstract name: there are no file permissions.
// Another user's process could therefore take the name before the
// server does, so a dialer uses the socket only when the process holding
// it runs as the dialer's effective user or as root (trustedPeer), and
// TCP otherwise. Traffic over the socket bypasses netfilter: rules that
// limit local access to the TCP port do not apply to it.
func ListenLocal(addr string) (net.Listener, error) {
	name := LocalSocketName(addr)
	if name == "" {
		return nil, net.UnknownNetworkError("unix (abstract)")
	}
	return net.Listen("unix", name)
}

// dialLocalFirst dials addr's local socket, and addr over TCP when no
// server of this network namespace listens there (the usual case for a
// process on another machine: the connect fails at once), or when the
// process listening there is not trusted (trustedPeer).
func dialLocalFirst(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	if name := LocalSocketName(addr); name != "" {
		if c, err := d.DialContext(ctx, "unix", name); err == nil {
			if trustedPeer(c) {
				return c, nil
			}
			c.Close()
		}
	}
	return d.DialContext(ctx, "tcp", addr)
}
