// Package kvnode holds end-to-end tests of one `strata kv` process: real
// processes started by the tests, reached through the transaction client
// over gRPC (batched streams), as a SQL server will reach them. The bank,
// crash and bad-input tests of the storage core live here.
package kvnode
