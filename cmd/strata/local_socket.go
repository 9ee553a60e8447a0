package main

import (
	"log/slog"
	"net"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/store/server"
)

// listenLocalSocket listens on the local socket of a storage node bound
// at bound and advertised at advertised (server.local-socket;
// kvproto.ListenLocal). Call it right after the TCP listen, so that a
// client reconnecting while the node starts (after a restart) waits in
// the socket's backlog as it would in TCP's, instead of settling on TCP.
// It returns nil when the key is off, off Linux, when the node advertises
// another address than the one it bound (that address may be a proxy's
// or another node's: only the process bound to an address takes its
// name), or when the name is taken.
func listenLocalSocket(bound, advertised string, file *config.Config, log *slog.Logger) net.Listener {
	if !file.Server.LocalSocket || kvproto.LocalSocketName(bound) == "" || advertised != bound {
		return nil
	}
	lis, err := kvproto.ListenLocal(bound)
	if err != nil {
		log.Warn("local socket not served; clients use TCP", "addr", bound, "err", err)
		return nil
	}
	return lis
}

// serveLocalSocket serves node on lis (nil: nothing to serve) until the
// node stops.
func serveLocalSocket(node *server.Node, lis net.Listener, log *slog.Logger) {
	if lis == nil {
		return
	}
	go func() {
		if err := node.Serve(lis); err != nil {
			log.Warn("local socket no longer served; clients reconnect over TCP", "addr", lis.Addr().String(), "err", err)
		}
	}()
}

// closeLocalSocket closes lis when the node never served it.
func closeLocalSocket(lis net.Listener) {
	if lis != nil {
		lis.Close()
	}
}
