// Package server is a PD member: an embedded etcd member (go.etcd.io/etcd
// server/v3/embed) with PD's gRPC service registered on etcd's own gRPC
// server (embed.Config.ServiceRegister) and PD's HTTP API on etcd's HTTP
// mux (UserHandlers), so that one client URL serves etcd, PD's gRPC and
// the HTTP API, as in PD.
//
//	client URL ──┬─ etcd gRPC (KV, lease, watch)   peer URL ── etcd raft
//	             ├─ pdpb.PD (grpcService)
//	             └─ HTTP: /pd/api/v1/*, /status, /metrics, /debug/pprof/
//
//	campaignLoop: leader key absent ─► campaign (lease + put-if-absent)
//	                 │                        │ won
//	                 │ present                ▼
//	                 ▼                  lead: newTerm (load from etcd),
//	          follow (watch key)        keepAlive, watch key, serve;
//	                                    step down when lost or closing
//
// # Leadership
//
// Members elect the PD leader through etcd: a leader key
// (/strata/pd/leader, the leader's pdpb.Member) created with
// put-if-absent under a lease of Config.LeaderLease (3 s). The winner
// starts a term (term.go): it loads the cluster config, the ID and TSO
// windows, the GC safe point, the bootstrap mark, the stores and the
// regions from etcd, then serves. Every etcd write of a term is guarded
// (guardedTxn): it happens only if the leader key still has the create
// revision and the value of this term's campaign. A refused write, a
// lease that could not be renewed in time, or a watch event showing the
// key changed ends the term at once; the member then follows or
// campaigns again. Followers answer every RPC but GetMembers with
// NOT_LEADER; GetMembers names the leader with its client URLs.
//
// # Invariants
//
//   - One server at a time: a term serves a request only while
//     Server.mono() is below its deadline, the send time of the last
//     granted lease renewal plus the TTL. etcd expires the lease no
//     earlier than that, and only then can another member create the
//     key, so two members never serve at once.
//   - TSO never goes back: the allocator (internal/pd/tso) saves a window
//     limit in etcd (EtcdWindowStore, guarded) before serving any
//     timestamp below it; a new leader starts above the saved limit. A
//     timestamp is sent only if the term was still valid after it was
//     allocated.
//   - IDs are never reused: the ID allocator (idalloc.go) saves the end of
//     its window (guarded) before handing out an id in it; a new leader
//     starts above the saved end. Ids lost in a crash are skipped.
//   - Epoch rule: region reports go through meta.Cluster.PutRegion, which
//     refuses a report whose version or conf_ver is below PD's (or whose
//     version is below a region it overlaps); after a split the children
//     replace the parent. AskBatchSplit refuses a stale epoch the same way.
//   - The GC safe point never goes back; the cluster id is created once
//     (put-if-absent) by the first member to start.
//   - Region metadata is written to etcd behind the tree, in guarded
//     batches every RegionFlushInterval (the newest change per region
//     wins); a clean step-down flushes. A change lost to a crash is
//     repaired by the region's next heartbeat. Stores, the bootstrap, the
//     config and the GC safe point are written through.
//
// # etcd layout
//
// Under /strata/pd/: cluster_id, leader, tso_limit, alloc_id,
// bootstrapped, gc_safe_point, config (JSON), stores/<id>,
// regions/<id> (protobuf; ids zero-padded to 20 digits).
//
// # Lock order
//
// Within a term: bootMu, gc and config are each held across their own
// guarded etcd write and never nest. The TSO allocator's and the ID
// allocator's locks are held across their window saves. meta.Cluster's
// locks come before etcdStorage.mu (region changes are queued under the
// tree's lock, so the queue sees them in tree order). heartbeatStreams.mu
// is a leaf; each hbStream's mu serializes the sends on its stream.
// Server state read by every request (term, leader, hook) is in atomics.
package server
