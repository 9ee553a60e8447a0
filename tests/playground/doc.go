// Package playground tests `strata playground` and `strata ctl` end to
// end: a real playground (the binary built once, see tests/testproc) on a
// port offset whose ports are all free, reached with go-sql-driver, shown
// by `strata playground display` and `strata ctl`, then stopped by
// SIGTERM (every child gone, data removed unless tagged) or killed (no
// child outlives it).
package playground
