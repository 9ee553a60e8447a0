// Package cluster runs Strata clusters as separate local processes: the
// playground (`strata playground`) today, topology-driven deploys later.
//
// A playground is a Topology (counts of PD, KV and SQL processes and a
// port offset) laid out by Plan into Instances: each has a name (pd-0,
// kv-1, sql-0, ...), TiDB's default ports shifted by the offset, and a
// folder <data-root>/<tag>/<name> holding its data (data/) and its log
// (<role>.log). Before anything starts, every planned port is probed; one
// that is taken fails the start with a *PortsTakenError naming it.
//
// Start order is PD, KV, SQL. Every process is the same strata binary;
// readiness is the line a process prints when it serves ("strata pd
// serving on", "strata kv serving on", "strata sql ready:"), read from its
// log file, never a guess by time. All PD members start together (a
// member prints its line only once a quorum has formed), the others one
// after another so that store IDs follow the KV names. Each process gets
// GOMAXPROCS = the CPUs divided by the KV and SQL processes (ChildEnv),
// unless the environment sets it, and, unless --config names a file, the
// config file OneMachineConfig written into the playground's folder
// (raftstore.raft-max-inflight-msgs = 1).
//
// Stop order is the reverse, a tier at a time: SIGTERM to every process of
// the tier, SIGKILL to those still running after the stop timeout (or at
// once when the stop is forced). Children stay in the playground's
// process group, so a signal to the group reaches them all; on Linux they
// also get SIGKILL when the playground dies without stopping them
// (PR_SET_PDEATHSIG), so none outlives it. A child that exits on its own
// is reported on Exits with its status and the last lines of its log; the
// others keep running.
//
// The playground writes a State file (<data-root>/<tag>/playground.json)
// with its own pid and every child's pid, role, addresses and paths;
// `strata playground display` reads these files and checks which pids are
// alive. A playground started without a tag gets a random one and its
// folder is removed at stop; with a tag the folder stays, and a later
// start with the same tag reuses the data.
//
// Concurrency: a Playground is driven by one goroutine (Start, then Stop);
// Exits may be read from another. Each Process has one goroutine waiting
// for its exit; its exit status is published by closing its done channel.
package cluster
