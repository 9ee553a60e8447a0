// Package kv is the leaf of Strata's dependency graph: the key type, the
// transactional interfaces the SQL layer programs against, the lock
// description shared by storage and client, and the errors with identity
// that travel from storage through the client to the SQL boundary.
//
// It imports nothing of Strata's. Storage returns these errors from its MVCC
// commands, the RPC layer turns them into kvrpcpb.KeyError and back, and the
// SQL layer maps them to MySQL codes: every hop keeps errors.Is working.
package kv
