// Package sqlnode holds end-to-end tests of a real `strata server` process
// reached through real MySQL clients: go-sql-driver/mysql and, when
// installed, the mysql command-line client.
package sqlnode
