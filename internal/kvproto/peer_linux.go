package kvproto

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// trustedPeer reports whether the process at the other end of the unix
// connection c runs as this process's effective user or as root
// (SO_PEERCRED gives the listener's effective uid).
func trustedPeer(c net.Conn) bool {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || credErr != nil {
		return false
	}
	return cred.Uid == uint32(os.Geteuid()) || cred.Uid == 0
}
