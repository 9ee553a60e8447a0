package client

import (
	"context"
	"fmt"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// storeCache maps store ids to addresses.
type storeCache struct {
	mu    sync.RWMutex
	addrs map[uint64]string
}

func (s *storeCache) init() { s.addrs = map[uint64]string{} }

func (s *storeCache) get(id uint64) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.addrs[id]
	return a, ok
}

func (s *storeCache) put(id uint64, addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addrs[id] = addr
}

func (s *storeCache) drop(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.addrs, id)
}

// PutStore registers or updates a store.
func (c *Client) PutStore(ctx context.Context, store *pdpb.Store) error {
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		resp, err := pd.PutStore(ctx, &pdpb.PutStoreRequest{Header: c.header(), Store: store})
		return resp.GetHeader(), err
	})
	if err == nil {
		c.stores.drop(store.GetId())
	}
	return err
}

// GetStore returns a store and its last statistics (nil before its first
// heartbeat); ErrStoreNotFound for an unknown id.
func (c *Client) GetStore(ctx context.Context, id uint64) (*pdpb.Store, *pdpb.StoreStats, error) {
	var resp *pdpb.GetStoreResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.GetStore(ctx, &pdpb.GetStoreRequest{Header: c.header(), StoreId: id})
		return resp.GetHeader(), err
	})
	if err != nil {
		return nil, nil, err
	}
	if resp.GetStore() == nil {
		return nil, nil, fmt.Errorf("%w: %d", ErrStoreNotFound, id)
	}
	return resp.GetStore(), resp.GetStats(), nil
}

// GetAllStores lists the stores, without tombstones if asked.
func (c *Client) GetAllStores(ctx context.Context, excludeTombstones bool) ([]*pdpb.Store, error) {
	var resp *pdpb.GetAllStoresResponse
	err := c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		var err error
		resp, err = pd.GetAllStores(ctx, &pdpb.GetAllStoresRequest{Header: c.header(), ExcludeTombstoneStores: excludeTombstones})
		return resp.GetHeader(), err
	})
	return resp.GetStores(), err
}

// StoreHeartbeat reports a store's statistics.
func (c *Client) StoreHeartbeat(ctx context.Context, stats *pdpb.StoreStats) error {
	return c.do(ctx, func(ctx context.Context, pd pdpb.PDClient) (*pdpb.ResponseHeader, error) {
		resp, err := pd.StoreHeartbeat(ctx, &pdpb.StoreHeartbeatRequest{Header: c.header(), Stats: stats})
		return resp.GetHeader(), err
	})
}

// StoreAddr returns the address of a store, from a cache filled on a miss;
// ErrStoreNotFound for an unknown store, ErrStoreTombstone for a removed
// one.
func (c *Client) StoreAddr(ctx context.Context, id uint64) (string, error) {
	if a, ok := c.stores.get(id); ok {
		return a, nil
	}
	st, _, err := c.GetStore(ctx, id)
	if err != nil {
		return "", err
	}
	if st.GetState() == pdpb.StoreState_Tombstone {
		return "", fmt.Errorf("%w: %d", ErrStoreTombstone, id)
	}
	c.stores.put(id, st.GetAddress())
	return st.GetAddress(), nil
}

// InvalidateStore drops a store's cached address (it moved, or the
// address failed), so the next StoreAddr asks PD.
func (c *Client) InvalidateStore(id uint64) { c.stores.drop(id) }
