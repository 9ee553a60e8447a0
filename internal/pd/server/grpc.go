package server

import (
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// grpcService implements pdpb.PDServer over a Server. Each handler
// validates the request header (checkRequest), works on the current term,
// and reports failures in the response header, never as gRPC errors, so
// the client can tell NOT_LEADER (go find the leader) from the rest.
type grpcService struct{ s *Server }

var _ pdpb.PDServer = (*grpcService)(nil)

func (s *Server) header() *pdpb.ResponseHeader { return &pdpb.ResponseHeader{ClusterId: s.clusterID} }

func (s *Server) errHeader(typ pdpb.ErrorType, format string, args ...any) *pdpb.ResponseHeader {
	return &pdpb.ResponseHeader{ClusterId: s.clusterID, Error: &pdpb.Error{Type: typ, Message: fmt.Sprintf(format, args...)}}
}

// errorHeader maps an error to the response header that reports it.
func (s *Server) errorHeader(err error) *pdpb.ResponseHeader {
	typ := pdpb.ErrorType_UNKNOWN
	switch {
	case errors.Is(err, ErrNotLeader):
		typ = pdpb.ErrorType_NOT_LEADER
	case errors.Is(err, meta.ErrStaleRegion):
		typ = pdpb.ErrorType_STALE_REGION
	case errors.Is(err, meta.ErrRegionNotFound):
		typ = pdpb.ErrorType_REGION_NOT_FOUND
	case errors.Is(err, meta.ErrStoreTombstone):
		typ = pdpb.ErrorType_STORE_TOMBSTONE
	}
	return s.errHeader(typ, "%v", err)
}

// checkMember validates what every request must pass, leader or not: the
// member is ready and the request is for this cluster.
func (s *Server) checkMember(h *pdpb.RequestHeader) *pdpb.ResponseHeader {
	if !s.ready.Load() {
		return s.errHeader(pdpb.ErrorType_NOT_LEADER, "%v", ErrNotReady)
	}
	if id := h.GetClusterId(); id != 0 && id != s.clusterID {
		return s.errHeader(pdpb.ErrorType_CLUSTER_MISMATCH, "request for cluster %d, this is cluster %d", id, s.clusterID)
	}
	return nil
}

// checkRequest validates a request and returns the current term, or the
// header to answer with: CLUSTER_MISMATCH, or NOT_LEADER when this member
// does not lead.
func (s *Server) checkRequest(h *pdpb.RequestHeader) (*term, *pdpb.ResponseHeader) {
	if hdr := s.checkMember(h); hdr != nil {
		return nil, hdr
	}
	t := s.currentTerm()
	if t == nil {
		leader := "unknown"
		if m := s.leader.Load(); m != nil && m.GetMemberId() != s.memberID {
			leader = fmt.Sprintf("%s %v", m.GetName(), m.GetClientUrls())
		}
		return nil, s.errHeader(pdpb.ErrorType_NOT_LEADER, "%s is not the PD leader (leader: %s)", s.cfg.Name, leader)
	}
	return t, nil
}

// checkBootstrapped is checkRequest for the RPCs that need a bootstrapped
// cluster.
func (s *Server) checkBootstrapped(h *pdpb.RequestHeader) (*term, *pdpb.ResponseHeader) {
	t, hdr := s.checkRequest(h)
	if hdr != nil {
		return nil, hdr
	}
	if !t.bootstrapped.Load() {
		return nil, s.errHeader(pdpb.ErrorType_NOT_BOOTSTRAPPED, "cluster %d is not bootstrapped", s.clusterID)
	}
	return t, nil
}

// received is one message (or the error ending the stream) of a stream.
type received[T any] struct {
	msg *T
	err error
}

// receive reads a stream in its own goroutine, so that a handler can wait
// for the next message and for the server closing at once (a handler
// blocked in Recv would hold up etcd's graceful stop). It stops after the
// first error or once done is closed.
func receive[T any](done <-chan struct{}, recv func() (*T, error)) <-chan received[T] {
	ch := make(chan received[T])
	go func() {
		for {
			m, err := recv()
			select {
			case ch <- received[T]{m, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}
