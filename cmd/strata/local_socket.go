package main

import (
	"log/slog"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/kvproto"
	"github.com/strata-db/strata/internal/store/server"
)

// serveLocalSocket serves node also on the local socket of addr, its
// advertised address (server.local-socket; kvproto.ListenLocal), until the
// node stops. Where none can be had, the node serves TCP alone.
func serveLocalSocket(node *server.Node, addr string, file *config.Config, log *slog.Logger) {
	if !file.Server.LocalSocket || kvproto.LocalSocketName(addr) == "" {
		return
	}
	lis, err := kvproto.ListenLocal(addr)
	if err != nil {
		log.Warn("local socket not served; clients use TCP", "addr", addr, "err", err)
		return
	}
	go func() { _ = node.Serve(lis) }()
}
