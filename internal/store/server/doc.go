// Package server is a storage node's front door: Node checks every
// request's routing Context against the regions the node serves, then hands
// it to the node's StoreAPI (txn.Storage). The same Node is called
// in-process by the embedded server (it implements kvrpcpb.StoreAPI) and over
// gRPC (it implements kvrpcpb.TikvServer, unary calls and BatchCommands).
//
// Today a node serves one region: id 1, epoch conf_ver 1 version 1, the
// whole key space, one peer (id 1) on store 1. A request for another
// region gets RegionError.RegionNotFound; one with another epoch gets
// EpochNotMatch carrying the current region, so the client can refresh its
// region cache and resend. The raftstore will replace the single region by
// its region map without changing this shape.
//
// # BatchCommands
//
//	client stream ──Recv──▶ [req, req, ...] ──▶ one goroutine per request
//	                                               (bounded by Options.MaxConcurrency
//	                                                across all streams of the node)
//	client stream ◀──Send── [resp, resp, ...] ◀── sender gathers every
//	                                               response that is ready
//
// Responses go back in completion order, tagged with their request ids.
// A request that fails as a whole (the storage shutting down, a panic)
// answers with a RegionError (ServerIsBusy), never by breaking the stream.
//
// # Bad input
//
// No request can crash the node: a nil request or nil Context is a region
// error, and a panic inside a request is recovered, logged and reported as
// that request's error.
package server
