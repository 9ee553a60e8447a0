package main

import (
	"os"
	"slices"
	"strings"
	"syscall"
)

// sysmonGODEBUG keeps the Go runtime's sysmon thread out of its deep
// sleep, the only way the runtime offers: a schedtrace period so long
// (2^31-1 ms, 24.8 days of CLOCK_MONOTONIC, so nothing is printed before
// the machine has been up that long, then one SCHED line per period on
// stderr) that the trace itself never matters.
//
// Why: when every P of a process is idle, sysmon sleeps until the next
// syscall wakes it, and that wake resets its poll to every 20 µs, during
// which it takes the P from any syscall longer than one poll and wakes
// another thread to run it. A storage node or SQL server goes idle and
// busy again hundreds of times a second, so on a small machine sysmon's
// nanosleeps and the hand-offs were 45% of all context switches (perf
// record -e sched:sched_switch -a under oltp_update_index on a playground).
// Without the deep sleep sysmon backs off to its 10 ms poll and stays
// there: nanosleeps fell 13x and futex calls 170x, and sysbench on a
// playground (oltp_* at 16 threads, 15 s) gained 27-113% in each of 14
// alternated pairs.
//
// The cost: sysmon wakes every 10 ms in an idle process, and a syscall
// blocks its P for up to that poll before another thread takes it (the
// engines' fsyncs do not: they park on io_uring, engine/syncring).
const sysmonGODEBUG = "schedtrace=2147483647"

// reexecForGODEBUG re-executes the binary with sysmonGODEBUG added to
// GODEBUG, since the runtime reads that setting only at start-up. It
// does nothing when GODEBUG already sets schedtrace (the operator's
// choice: GODEBUG=schedtrace=0 keeps Go's default) or when the exec fails;
// on success it does not return. The process keeps its pid.
func reexecForGODEBUG() {
	cur := os.Getenv("GODEBUG")
	for _, kv := range strings.Split(cur, ",") {
		if strings.HasPrefix(strings.TrimSpace(kv), "schedtrace=") {
			return
		}
	}
	val := sysmonGODEBUG
	if cur != "" {
		val = cur + "," + sysmonGODEBUG
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") })
	_ = syscall.Exec(exe, os.Args, append(env, "GODEBUG="+val))
}
