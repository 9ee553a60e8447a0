package server

import (
	"errors"
	"sync"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/grpc"
)

// ErrNoStream: no region heartbeat stream from that store is open on the
// leader.
var ErrNoStream = errors.New("pd: no heartbeat stream from store")

type heartbeatStream = grpc.BidiStreamingServer[pdpb.RegionHeartbeatRequest, pdpb.RegionHeartbeatResponse]

// hbStream is one store's region heartbeat stream; sends are serialized
// (a gRPC stream allows one sender at a time).
type hbStream struct {
	mu     sync.Mutex
	stream heartbeatStream
}

func (h *hbStream) send(resp *pdpb.RegionHeartbeatResponse) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stream.Send(resp)
}

// heartbeatStreams maps store ids to their latest heartbeat stream, so
// that operators can be sent to a store outside a heartbeat's handling.
type heartbeatStreams struct {
	mu      sync.Mutex
	byStore map[uint64]*hbStream
}

func newHeartbeatStreams() *heartbeatStreams {
	return &heartbeatStreams{byStore: map[uint64]*hbStream{}}
}

// bind records h as store's stream.
func (m *heartbeatStreams) bind(store uint64, h *hbStream) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.byStore[store] = h
}

// unbind forgets h wherever it is bound.
func (m *heartbeatStreams) unbind(h *hbStream) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, cur := range m.byStore {
		if cur == h {
			delete(m.byStore, id)
		}
	}
}

func (m *heartbeatStreams) get(store uint64) *hbStream {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byStore[store]
}

// SendToStore sends a heartbeat response (an operator step) on the region
// heartbeat stream of store; ErrNotLeader when this member does not lead,
// ErrNoStream when the store has no stream open.
func (s *Server) SendToStore(store uint64, resp *pdpb.RegionHeartbeatResponse) error {
	t := s.currentTerm()
	if t == nil {
		return ErrNotLeader
	}
	h := t.streams.get(store)
	if h == nil {
		return ErrNoStream
	}
	if resp.Header == nil {
		resp.Header = s.header()
	}
	return h.send(resp)
}
