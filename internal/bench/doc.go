// Package bench holds the workloads of `strata bench`: today the KV
// throughput workload (point reads and 1-key update transactions through the
// transaction client against a storage node); sysbench-style and TPC-C
// workloads come with the SQL layer.
//
// Results are reported the way the tools our users know report them:
// operations per second and latency percentiles per workload.
package bench
