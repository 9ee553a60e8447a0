// Package pdnode holds end-to-end tests of `strata pd`: real processes
// started by the tests (one member, or a three-member cluster), reached
// through the PD client as storage nodes and SQL servers reach them. They
// check that timestamps only go up and ids never repeat across SIGTERM,
// kill -9 and leader failover, and that bad flags or config exit 2.
//
// BenchmarkTSO measures the TSO throughput of one PD process with 1, 16
// and 64 concurrent callers:
//
//	go test ./tests/pdnode -run '^$' -bench TSO -benchtime 3s
package pdnode
