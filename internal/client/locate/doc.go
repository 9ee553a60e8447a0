// Package locate routes client requests to the region that owns their keys
// and retries them across region errors, the way tikv/client-go's
// internal/locate does, in three small pieces:
//
//		RegionSource ──► RegionCache ──► RegionRequestSender ──► rpc.Client/StoreAPI
//		(PD or static)   (sorted by        (fills kvrpcpb.Context, handles
//		                  start key)        RegionError, backs off, retries)
//
//	  - RegionSource answers "which region holds this key, who leads it, and
//	    where does that store listen". StaticRegions serves one fixed region
//	    (today's single-node server); a PD-backed source plugs in unchanged.
//	  - RegionCache keeps the regions it has learnt, ordered by start key, and
//	    is corrected by the sender when storage answers NotLeader (switch the
//	    leader to the hint), EpochNotMatch (replace overlapping regions by the
//	    current ones), RegionNotFound / KeyNotInRegion (drop and reload).
//	  - Backoffer is passed explicitly down every call. Each error kind has
//	    its own base and cap (exponential with equal jitter); the total sleep
//	    is bounded by a budget in milliseconds; it never sleeps once the
//	    context is done. The caller decides the budget, so a read and a commit
//	    can have different patience.
//	  - RegionRequestSender sends one request to one region (Send) or to the
//	    region of one key (SendKey), with one generic helper for every
//	    StoreAPI method. Region errors never leave it except as
//	    kv.ErrRegionUnavailable once the budget is spent; an RPC that failed
//	    without a reply comes back as *SendError (errors.Is ErrNoReply), so
//	    that a caller that commits can report an undetermined result.
//
// Invariants:
//   - Cached regions never overlap: inserting a region evicts every cached
//     region whose range intersects it.
//   - A KeyLocation is an immutable copy; holders may keep it after the
//     cache changed, and the epoch it carries makes storage reject it when
//     it is stale.
//
// Lock order: RegionCache.mu is a leaf; no call into a RegionSource, the
// network or a Backoffer happens while it is held.
package locate
