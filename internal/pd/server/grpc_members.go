package server

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// GetMembers lists the etcd members and the PD leader; every member
// answers it, leader or not.
func (g *grpcService) GetMembers(ctx context.Context, req *pdpb.GetMembersRequest) (*pdpb.GetMembersResponse, error) {
	s := g.s
	if hdr := s.checkMember(req.GetHeader()); hdr != nil {
		return &pdpb.GetMembersResponse{Header: hdr}, nil
	}
	resp := &pdpb.GetMembersResponse{Header: s.header(), Members: s.members()}
	if t := s.currentTerm(); t != nil {
		resp.Leader = proto.Clone(s.self).(*pdpb.Member)
	} else if m := s.leader.Load(); m != nil && m.GetMemberId() != s.memberID {
		resp.Leader = proto.Clone(m).(*pdpb.Member)
	} else if m := s.readLeader(ctx); m != nil {
		// The election loop has not caught up with a new leader yet, or
		// this member has just won and is loading its state.
		resp.Leader = m
	}
	return resp, nil
}

// readLeader reads the leader key from the local etcd member (nil: none,
// or not readable quickly).
func (s *Server) readLeader(ctx context.Context) *pdpb.Member {
	ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	resp, err := s.cli.Get(ctx, keyLeader, clientv3.WithSerializable())
	if err != nil || len(resp.Kvs) == 0 {
		return nil
	}
	m := &pdpb.Member{}
	if proto.Unmarshal(resp.Kvs[0].Value, m) != nil {
		return nil
	}
	return m
}

// members lists the etcd cluster's members.
func (s *Server) members() []*pdpb.Member {
	var out []*pdpb.Member
	for _, m := range s.etcd.Server.Cluster().Members() {
		out = append(out, &pdpb.Member{
			Name:       m.Name,
			MemberId:   uint64(m.ID),
			PeerUrls:   append([]string(nil), m.PeerURLs...),
			ClientUrls: append([]string(nil), m.ClientURLs...),
		})
	}
	return out
}
