package raftstore

import (
	"sync"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// Transport carries raft messages between stores. Sends never block the
// raft loop: a message that cannot go is dropped (raft retransmits) and
// reported unreachable.
type Transport interface {
	// Send queues msgs for store storeID.
	Send(storeID uint64, msgs []*raftserverpb.RaftMessage)
	// SendSnapshot streams a snapshot (the MsgSnap and its payload) to
	// store storeID and calls done with the outcome.
	SendSnapshot(storeID uint64, msg *raftserverpb.RaftMessage, payload []byte, done func(error))
}

// LocalTransport connects stores of one process directly: for tests and
// for the embedded server. Filter, if set, drops the messages it returns
// false for (partitions in tests).
type LocalTransport struct {
	mu     sync.RWMutex
	stores map[uint64]*Store
	filter func(from, to uint64, m *raftserverpb.RaftMessage) bool
}

// NewLocalTransport returns a transport with no stores.
func NewLocalTransport() *LocalTransport {
	return &LocalTransport{stores: map[uint64]*Store{}}
}

// Register makes s reachable.
func (t *LocalTransport) Register(s *Store) {
	t.mu.Lock()
	t.stores[s.StoreID()] = s
	t.mu.Unlock()
}

// Unregister makes store id unreachable (a stopped store).
func (t *LocalTransport) Unregister(id uint64) {
	t.mu.Lock()
	delete(t.stores, id)
	t.mu.Unlock()
}

// SetFilter installs f (nil: deliver everything).
func (t *LocalTransport) SetFilter(f func(from, to uint64, m *raftserverpb.RaftMessage) bool) {
	t.mu.Lock()
	t.filter = f
	t.mu.Unlock()
}

func (t *LocalTransport) target(to uint64) (*Store, func(from, to uint64, m *raftserverpb.RaftMessage) bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.stores[to], t.filter
}

// Send implements Transport.
func (t *LocalTransport) Send(storeID uint64, msgs []*raftserverpb.RaftMessage) {
	s, f := t.target(storeID)
	if s == nil {
		return
	}
	for _, m := range msgs {
		if f != nil && !f(m.GetFromPeer().GetStoreId(), storeID, m) {
			continue
		}
		s.OnRaftMessage(m)
	}
}

// SendSnapshot implements Transport.
func (t *LocalTransport) SendSnapshot(storeID uint64, msg *raftserverpb.RaftMessage, payload []byte, done func(error)) {
	s, f := t.target(storeID)
	if s == nil || f != nil && !f(msg.GetFromPeer().GetStoreId(), storeID, msg) {
		go done(errUnreachable)
		return
	}
	go func() { done(s.OnSnapshot(msg, payload)) }()
}
