package server

import (
	"context"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"google.golang.org/protobuf/proto"
)

// GetMembers lists the etcd members and the PD leader; every member
// answers it, leader or not.
func (g *grpcService) GetMembers(_ context.Context, req *pdpb.GetMembersRequest) (*pdpb.GetMembersResponse, error) {
	s := g.s
	if hdr := s.checkMember(req.GetHeader()); hdr != nil {
		return &pdpb.GetMembersResponse{Header: hdr}, nil
	}
	resp := &pdpb.GetMembersResponse{Header: s.header(), Members: s.members()}
	if t := s.currentTerm(); t != nil {
		resp.Leader = proto.Clone(s.self).(*pdpb.Member)
	} else if m := s.leader.Load(); m != nil && m.GetMemberId() != s.memberID {
		resp.Leader = proto.Clone(m).(*pdpb.Member)
	}
	return resp, nil
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
