package cluster

import (
	"fmt"
	"os"
	"runtime"
)

// ChildEnv is the environment the playground adds to every child. Its
// processes share one machine, so each gets GOMAXPROCS = the CPUs divided
// by the KV and SQL processes (at least 1): Go's scheduler otherwise gives
// each process every CPU, and with more runnable processes than CPUs its
// idle processors spin and wake threads for work another process has.
// Measured on 2 CPUs with 1 PD, 3 KV and 1 SQL (sysbench, 16 threads,
// medians of 3 alternated runs): point_select +24%, insert +24%,
// update_index +12%, read_write +8%. The SQL server, the busiest process
// under point_select, gets no more than the others: GOMAXPROCS=2 for it
// alone measured point_select -11% (medians of 8 alternated rounds),
// with 19% more CPU per query. A GOMAXPROCS the user set is kept.
// The second result describes the choice for the playground's output.
func ChildEnv(t Topology) ([]string, string) {
	if v, ok := os.LookupEnv("GOMAXPROCS"); ok {
		return nil, fmt.Sprintf("GOMAXPROCS=%s from the environment", v)
	}
	n := cpuShare(runtime.NumCPU(), t.KV+t.SQL)
	return []string{fmt.Sprintf("GOMAXPROCS=%d", n)},
		fmt.Sprintf("GOMAXPROCS=%d per process (%d CPUs shared by %d KV and SQL processes; set GOMAXPROCS to choose)", n, runtime.NumCPU(), t.KV+t.SQL)
}

// cpuShare is cpus divided among procs, at least 1.
func cpuShare(cpus, procs int) int {
	if procs <= 0 {
		return max(cpus, 1)
	}
	return max(cpus/procs, 1)
}
