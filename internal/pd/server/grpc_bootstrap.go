package server

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// IsBootstrapped reports whether the cluster has its first store and
// region.
func (g *grpcService) IsBootstrapped(_ context.Context, req *pdpb.IsBootstrappedRequest) (*pdpb.IsBootstrappedResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.IsBootstrappedResponse{Header: hdr}, nil
	}
	return &pdpb.IsBootstrappedResponse{Header: s.header(), Bootstrapped: t.bootstrapped.Load()}, nil
}

// Bootstrap creates the cluster: its first store and its first region,
// which must cover the whole key space and have a peer on that store.
// They are written in one guarded etcd transaction with the bootstrapped
// mark; a second Bootstrap answers ALREADY_BOOTSTRAPPED.
func (g *grpcService) Bootstrap(ctx context.Context, req *pdpb.BootstrapRequest) (*pdpb.BootstrapResponse, error) {
	s := g.s
	t, hdr := s.checkRequest(req.GetHeader())
	if hdr != nil {
		return &pdpb.BootstrapResponse{Header: hdr}, nil
	}
	store, region := req.GetStore(), req.GetRegion()
	if err := meta.ValidateStore(store); err != nil {
		return &pdpb.BootstrapResponse{Header: s.errorHeader(err)}, nil
	}
	if err := meta.ValidateRegion(region); err != nil {
		return &pdpb.BootstrapResponse{Header: s.errorHeader(err)}, nil
	}
	if len(region.GetStartKey()) > 0 || len(region.GetEndKey()) > 0 {
		return &pdpb.BootstrapResponse{Header: s.errHeader(pdpb.ErrorType_UNKNOWN,
			"the first region must cover the whole key space")}, nil
	}
	if (&meta.RegionInfo{Meta: region}).PeerOnStore(store.GetId()) == nil {
		return &pdpb.BootstrapResponse{Header: s.errHeader(pdpb.ErrorType_UNKNOWN,
			"the first region has no peer on store %d", store.GetId())}, nil
	}

	t.bootMu.Lock()
	defer t.bootMu.Unlock()
	if t.bootstrapped.Load() {
		return &pdpb.BootstrapResponse{Header: s.errHeader(pdpb.ErrorType_ALREADY_BOOTSTRAPPED,
			"cluster %d is already bootstrapped", s.clusterID)}, nil
	}
	store = proto.Clone(store).(*pdpb.Store)
	store.State, store.LastHeartbeat = pdpb.StoreState_Up, 0
	sb, err := proto.Marshal(store)
	if err != nil {
		return nil, err
	}
	rb, err := proto.Marshal(region)
	if err != nil {
		return nil, err
	}
	cmps := append(append([]clientv3.Cmp(nil), t.guard...),
		clientv3.Compare(clientv3.CreateRevision(keyBootstrapped), "=", 0))
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	resp, err := s.cli.Txn(ctx).If(cmps...).Then(
		clientv3.OpPut(keyBootstrapped, time.Now().UTC().Format(time.RFC3339)),
		clientv3.OpPut(storeKey(store.GetId()), string(sb)),
		clientv3.OpPut(regionKey(region.GetId()), string(rb)),
	).Else(clientv3.OpGet(keyLeader), clientv3.OpGet(keyBootstrapped)).Commit()
	if err != nil {
		return &pdpb.BootstrapResponse{Header: s.errorHeader(err)}, nil
	}
	if !resp.Succeeded {
		leader := resp.Responses[0].GetResponseRange().GetKvs()
		if len(leader) == 0 || leader[0].CreateRevision != t.createRev {
			t.lose("leader key changed")
			return &pdpb.BootstrapResponse{Header: s.errorHeader(ErrNotLeader)}, nil
		}
		t.bootstrapped.Store(true)
		return &pdpb.BootstrapResponse{Header: s.errHeader(pdpb.ErrorType_ALREADY_BOOTSTRAPPED,
			"cluster %d is already bootstrapped", s.clusterID)}, nil
	}
	t.cluster.AddPersisted(store, region)
	t.bootstrapped.Store(true)
	s.log.Info("pd: cluster bootstrapped", "store", store.GetId(), "address", store.GetAddress(), "region", region.GetId())
	return &pdpb.BootstrapResponse{Header: s.header()}, nil
}
