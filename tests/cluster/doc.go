// Package cluster holds the end-to-end tests of a multi-process Strata
// cluster: real `strata pd`, `strata kv --pd` and `strata sql --pd`
// processes on loopback ports chosen at run time, driven through
// go-sql-driver/mysql, PD's client and kill -9.
package cluster
