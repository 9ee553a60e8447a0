// Command strata is the one binary of Strata: each role of the database is
// a subcommand (see DESIGN.md). This package only parses flags (stdlib
// flag) and wires packages together; one file per subcommand.
//
//	strata kv --data-dir DIR --addr 127.0.0.1:20160
//	    Pebble engine (sync on) under DIR -> txn.Storage -> server.Node on
//	    gRPC. Logs "strata kv serving on <addr>" once the listener accepts
//	    connections. On SIGTERM/SIGINT: Node.GracefulStop (running requests
//	    answer; after --stop-timeout connections are cut), Storage.Close,
//	    engine Close, exit 0. A standalone kv node has no TSO: its clients
//	    run one in their own process until PD serves it over RPC.
//	strata version | help
//	strata server|pd|sql|playground|bench|cluster|ctl
//	    not built yet: say so on stderr, exit 2.
//
// Exit status: 0 success, 1 runtime failure, 2 usage error or not built.
package main
