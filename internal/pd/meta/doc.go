// Package meta is PD's in-memory metadata: the registered stores and the
// region tree, persisted through a Storage interface that the PD server
// backs with etcd.
//
//	     heartbeats, split reports          GetRegion / ScanRegions
//	                 │                                ▲
//	                 ▼                                │
//	Cluster ── regionTree: B-tree by start key + map by id
//	   │     └ stores: map by id (registration + last stats)
//	   ▼
//	Storage (etcd in PD: regions written behind in batches,
//	         stores written through)
//
// # Invariants
//
//   - The ranges in the region tree never overlap. A region that is put
//     removes every region its range overlaps: after a split, the first
//     child reported replaces the parent, and the other children fill in
//     as they report.
//   - Epoch rule (PD's core/region.go check): a report is refused with
//     ErrStaleRegion when its version is below the version of any region
//     it overlaps, or when its version, conf_ver or (non-zero) term is
//     below those PD holds for the same region id. Both version and
//     conf_ver must be at least PD's, so a report never moves a region
//     back in time.
//   - RegionInfo and StoreInfo values are immutable once published; an
//     update replaces the value. Readers may keep them without a lock.
//   - Only the persisted part of a region (range, epoch, peers) is written
//     to Storage, and only when it changes; leaders, pending and down
//     peers and sizes are memory only and come back with heartbeats.
//   - A tombstone store never comes back, and no two stores that are not
//     tombstones share an address.
//
// # Lock order
//
// Cluster.putMu (store registrations) → Cluster.mu → the Storage's own
// locks. Region writes reach Storage under Cluster.mu (so that Storage sees
// the changes of one region in tree order) and must not block; store
// writes are made with putMu held and mu released.
package meta
