//go:build !linux

package kvproto

import "net"

// trustedPeer: there are no local sockets off Linux (LocalSocketName).
func trustedPeer(net.Conn) bool { return false }
