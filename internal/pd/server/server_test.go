package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/server/pdtest"
	"github.com/strata-db/strata/internal/pd/tso"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// dial returns a raw PD gRPC client for a member's client URL.
func dial(t *testing.T, url string) pdpb.PDClient {
	t.Helper()
	conn, err := grpc.NewClient(strings.TrimPrefix(url, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return pdpb.NewPDClient(conn)
}

func errType(h *pdpb.ResponseHeader) pdpb.ErrorType { return h.GetError().GetType() }

// waitServing polls until the member answers as leader.
func waitServing(t *testing.T, cli pdpb.PDClient) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := cli.IsBootstrapped(context.Background(), &pdpb.IsBootstrappedRequest{})
		if err == nil && resp.GetHeader().GetError() == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("PD did not serve in time")
}

func tsoOnce(t *testing.T, cli pdpb.PDClient, count uint32) (*pdpb.TsoResponse, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := cli.Tso(ctx)
	if err != nil {
		return nil, err
	}
	if err := st.Send(&pdpb.TsoRequest{Count: count}); err != nil {
		return nil, err
	}
	return st.Recv()
}

func TestSingleMemberBasics(t *testing.T) {
	c := pdtest.Start(t, 1, nil)
	cli := dial(t, c.Addrs()[0])
	waitServing(t, cli)
	ctx := context.Background()

	// Before bootstrap.
	gr, err := cli.GetRegion(ctx, &pdpb.GetRegionRequest{RegionKey: []byte("a")})
	if err != nil || errType(gr.Header) != pdpb.ErrorType_NOT_BOOTSTRAPPED {
		t.Fatalf("GetRegion before bootstrap: %v %v", gr, err)
	}
	ids, err := cli.AllocID(ctx, &pdpb.AllocIDRequest{Count: 3})
	if err != nil || ids.Header.Error != nil || ids.Id == 0 || ids.Count != 3 {
		t.Fatalf("AllocID: %v %v", ids, err)
	}
	clusterID := ids.Header.ClusterId
	if clusterID == 0 || clusterID != c.Servers[0].ClusterID() {
		t.Fatalf("cluster id %d, server says %d", clusterID, c.Servers[0].ClusterID())
	}
	// A request for another cluster.
	mm, err := cli.AllocID(ctx, &pdpb.AllocIDRequest{Header: &pdpb.RequestHeader{ClusterId: clusterID + 1}})
	if err != nil || errType(mm.Header) != pdpb.ErrorType_CLUSTER_MISMATCH {
		t.Fatalf("mismatched cluster: %v %v", mm, err)
	}

	store := &pdpb.Store{Id: ids.Id, Address: "127.0.0.1:20160"}
	region := &kvrpcpb.Region{Id: ids.Id + 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
		Peers: []*kvrpcpb.Peer{{Id: ids.Id + 2, StoreId: ids.Id}}}
	bs, err := cli.Bootstrap(ctx, &pdpb.BootstrapRequest{Store: store, Region: region})
	if err != nil || bs.Header.Error != nil {
		t.Fatalf("Bootstrap: %v %v", bs, err)
	}
	bs, err = cli.Bootstrap(ctx, &pdpb.BootstrapRequest{Store: store, Region: region})
	if err != nil || errType(bs.Header) != pdpb.ErrorType_ALREADY_BOOTSTRAPPED {
		t.Fatalf("second Bootstrap: %v %v", bs, err)
	}
	gr, err = cli.GetRegion(ctx, &pdpb.GetRegionRequest{RegionKey: []byte("a")})
	if err != nil || gr.Header.Error != nil || gr.Region.GetId() != region.Id {
		t.Fatalf("GetRegion: %v %v", gr, err)
	}

	r1, err := tsoOnce(t, cli, 10)
	if err != nil || r1.Header.Error != nil || r1.Count != 10 {
		t.Fatalf("Tso: %v %v", r1, err)
	}
	r2, err := tsoOnce(t, cli, 1)
	if err != nil {
		t.Fatal(err)
	}
	ts1 := tso.ComposeTS(uint64(r1.Timestamp.Physical), uint64(r1.Timestamp.Logical))
	ts2 := tso.ComposeTS(uint64(r2.Timestamp.Physical), uint64(r2.Timestamp.Logical))
	if ts2 <= ts1 {
		t.Fatalf("tso went back: %d after %d", ts2, ts1)
	}
	bad, err := tsoOnce(t, cli, 0)
	if err != nil || errType(bad.Header) != pdpb.ErrorType_UNKNOWN {
		t.Fatalf("Tso count 0: %v %v", bad, err)
	}
}
