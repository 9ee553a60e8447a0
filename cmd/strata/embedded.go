package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/tso"
	"github.com/strata-db/strata/internal/store/raftstore"
)

// localPD stands in for PD inside `strata server`: the TSO, and ids for
// splits from a window persisted like the TSO's (ids below the saved
// limit are never handed out again).
type localPD struct {
	tso *tso.Allocator

	mu    sync.Mutex
	ids   *tso.FileWindowStore
	next  uint64
	limit uint64
}

const idWindow = 1000

func newLocalPD(oracle *tso.Allocator, idFile string) (*localPD, error) {
	ids := tso.NewFileWindowStore(idFile)
	limit, err := ids.Load()
	if err != nil {
		return nil, err
	}
	// Ids below 1000 are the bootstrap region's (1) and its peer's (1).
	next := max(limit, 1000)
	return &localPD{tso: oracle, ids: ids, next: next, limit: next}, nil
}

func (l *localPD) AllocID(context.Context) (uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next >= l.limit {
		if err := l.ids.Save(l.next + idWindow); err != nil {
			return 0, fmt.Errorf("save id window: %w", err)
		}
		l.limit = l.next + idWindow
	}
	l.next++
	return l.next - 1, nil
}

func (l *localPD) AskBatchSplit(ctx context.Context, r *kvrpcpb.Region, n int) ([]*pdpb.SplitID, error) {
	out := make([]*pdpb.SplitID, 0, n)
	for range n {
		id, err := l.AllocID(ctx)
		if err != nil {
			return nil, err
		}
		sid := &pdpb.SplitID{NewRegionId: id}
		for range r.GetPeers() {
			pid, err := l.AllocID(ctx)
			if err != nil {
				return nil, err
			}
			sid.NewPeerIds = append(sid.NewPeerIds, pid)
		}
		out = append(out, sid)
	}
	return out, nil
}

func (l *localPD) ReportBatchSplit(context.Context, []*kvrpcpb.Region) error           { return nil }
func (l *localPD) RegionHeartbeat(context.Context, *pdpb.RegionHeartbeatRequest) error { return nil }
func (l *localPD) StoreHeartbeat(context.Context, *pdpb.StoreStats) error              { return nil }
func (l *localPD) GetTimestamp(ctx context.Context) (uint64, error)                    { return l.tso.GetTimestamp(ctx) }

// storeRegions is the region source of `strata server`: the regions of
// its one store, which leads them all.
type storeRegions struct {
	s    *raftstore.Store
	addr string
}

func (r storeRegions) info(region *kvrpcpb.Region, what string) (*locate.RegionInfo, error) {
	if region == nil {
		return nil, fmt.Errorf("embedded store: no region %s", what)
	}
	var leader *kvrpcpb.Peer
	for _, p := range region.GetPeers() {
		if p.GetStoreId() == r.s.StoreID() {
			leader = p
		}
	}
	return &locate.RegionInfo{Region: region, Leader: leader, Addr: r.addr}, nil
}

func (r storeRegions) RegionByKey(_ context.Context, key []byte) (*locate.RegionInfo, error) {
	return r.info(r.s.RegionForKey(key), fmt.Sprintf("holds %q", key))
}

func (r storeRegions) RegionBeforeKey(_ context.Context, key []byte) (*locate.RegionInfo, error) {
	return r.info(r.s.RegionBeforeKey(key), fmt.Sprintf("ends at %q", key))
}

func (r storeRegions) StoreAddr(context.Context, uint64) (string, error) { return r.addr, nil }
