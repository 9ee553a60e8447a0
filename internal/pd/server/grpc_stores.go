package server

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// PutStore registers or updates a store (allowed before bootstrap).
func (g *grpcService) PutStore(_ context.Context, req *pdpb.PutStoreRequest) (*pdpb.PutStoreResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.PutStoreResponse{Header: hdr}, nil
	}
	if err := t.cluster.PutStore(req.GetStore()); err != nil {
		return &pdpb.PutStoreResponse{Header: s.errorHeader(err)}, nil
	}
	return &pdpb.PutStoreResponse{Header: s.header()}, nil
}

// GetStore returns a store and its last statistics (allowed before
// bootstrap). An unknown id answers without a store.
func (g *grpcService) GetStore(_ context.Context, req *pdpb.GetStoreRequest) (*pdpb.GetStoreResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetStoreResponse{Header: hdr}, nil
	}
	resp := &pdpb.GetStoreResponse{Header: s.header()}
	if st := t.cluster.Store(req.GetStoreId()); st != nil {
		resp.Store, resp.Stats = st.Meta, st.Stats
	}
	return resp, nil
}

// GetAllStores lists the stores, optionally without tombstones.
func (g *grpcService) GetAllStores(_ context.Context, req *pdpb.GetAllStoresRequest) (*pdpb.GetAllStoresResponse, error) {
	s := g.s
	t, hdr := s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.GetAllStoresResponse{Header: hdr}, nil
	}
	resp := &pdpb.GetAllStoresResponse{Header: s.header()}
	for _, st := range t.cluster.Stores() {
		if req.GetExcludeTombstoneStores() && st.IsTombstone() {
			continue
		}
		resp.Stores = append(resp.Stores, st.Meta)
	}
	return resp, nil
}

// StoreHeartbeat records a store's statistics (in memory) and its last
// heartbeat time.
func (g *grpcService) StoreHeartbeat(_ context.Context, req *pdpb.StoreHeartbeatRequest) (*pdpb.StoreHeartbeatResponse, error) {
	s := g.s
	t, hdr := s.checkBootstrapped(req.GetHeader())
	if hdr != nil {
		return &pdpb.StoreHeartbeatResponse{Header: hdr}, nil
	}
	s.metrics.storeHeartbeats.Inc()
	if err := t.cluster.StoreHeartbeat(req.GetStats(), time.Now()); err != nil {
		return &pdpb.StoreHeartbeatResponse{Header: s.errorHeader(err)}, nil
	}
	return &pdpb.StoreHeartbeatResponse{Header: s.header(), ClusterVersion: s.cfg.Version}, nil
}
