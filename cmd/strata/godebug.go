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

// madviseGODEBUG makes the runtime give freed heap pages back to the
// kernel with MADV_FREE instead of MADV_DONTNEED.
//
// Why: the runtime's scavenger returns the pages of spans the collector
// freed, and the heap soon takes them again. After MADV_DONTNEED the
// first touch of each page is a page fault that maps a zeroed page; a
// page given back with MADV_FREE keeps its mapping until the kernel
// needs the memory, and a write takes it back without a fault. A storage
// node under 16-thread oltp_update_non_index on a playground took
// 3,200-5,500 minor faults/s, 60% of them on fresh spans of the heap
// (perf record -e page-faults: raft messages and raft commands being
// decoded); with MADV_FREE, 1,700/s, left to Pebble's new memtables and
// compactions. On a virtual machine a fault costs a trap to the
// hypervisor besides the kernel's work. On a playground (bench/cluster/ab.sh,
// 16 threads, 15 s) two runs of 3 alternated rounds moved the medians of
// oltp_read_write by +17% and +14%, oltp_insert by +7% and +22%, and
// oltp_update_non_index (+12%, -12%) and oltp_update_index (+10%, -2%)
// within this machine's noise.
//
// The cost: pages given back this way still count in the process's RSS
// until the kernel reclaims them, which it does first under memory
// pressure; RSS can read higher than what the process holds.
const madviseGODEBUG = "madvdontneed=0"

// defaultGODEBUG lists the settings every strata process runs with unless
// the operator's GODEBUG sets the same key.
var defaultGODEBUG = []string{sysmonGODEBUG, madviseGODEBUG}

// withDefaultGODEBUG returns cur (a GODEBUG value) with every default
// whose key cur does not set appended, and whether it added any.
func withDefaultGODEBUG(cur string) (string, bool) {
	set := map[string]bool{}
	for _, kv := range strings.Split(cur, ",") {
		if k, _, ok := strings.Cut(strings.TrimSpace(kv), "="); ok {
			set[k] = true
		}
	}
	val, added := cur, false
	for _, d := range defaultGODEBUG {
		k, _, _ := strings.Cut(d, "=")
		if set[k] {
			continue
		}
		if val != "" {
			val += ","
		}
		val += d
		added = true
	}
	return val, added
}

// reexecForGODEBUG re-executes the binary with defaultGODEBUG added to
// GODEBUG, since the runtime reads these settings only at start-up. It
// does nothing when GODEBUG already sets every key (the operator's
// choice: GODEBUG=schedtrace=0,madvdontneed=1 keeps Go's defaults) or
// when the exec fails; on success it does not return. The process keeps
// its pid.
func reexecForGODEBUG() {
	val, added := withDefaultGODEBUG(os.Getenv("GODEBUG"))
	if !added {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") })
	_ = syscall.Exec(exe, os.Args, append(env, "GODEBUG="+val))
}
