package server

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// stub answers KvGet with the key as value, panics on KvScan, fails
// KvCommit with a Go error; the rest is unimplemented.
type stub struct {
	kvrpcpb.StoreAPI // nil: other methods panic, which the node must survive
	calls            atomic.Int64
}

func (s *stub) KvGet(_ context.Context, r *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	s.calls.Add(1)
	return &kvrpcpb.GetResponse{Value: append([]byte("v:"), r.Key...)}, nil
}

func (s *stub) KvScan(context.Context, *kvrpcpb.ScanRequest) (*kvrpcpb.ScanResponse, error) {
	panic("boom")
}

func (s *stub) KvCommit(context.Context, *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	return nil, errors.New("storage is shutting down")
}

func goodCtx() *kvrpcpb.Context {
	return &kvrpcpb.Context{RegionId: 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}, Peer: &kvrpcpb.Peer{Id: 1, StoreId: 1}}
}

func TestRegionCheck(t *testing.T) {
	s := &stub{}
	n := NewNode(s, "127.0.0.1:1")
	ctx := context.Background()
	cases := []struct {
		name string
		req  *kvrpcpb.GetRequest
		want string // "" = served
	}{
		{"nil request", nil, "region_not_found"},
		{"nil context", &kvrpcpb.GetRequest{Key: []byte("a")}, "region_not_found"},
		{"other region", &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 7}}, "region_not_found"},
		{"missing epoch", &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 1}}, "epoch_not_match"},
		{"stale version", &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 1,
			RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 0}}}, "epoch_not_match"},
		{"wrong peer", &kvrpcpb.GetRequest{Context: &kvrpcpb.Context{RegionId: 1,
			RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}, Peer: &kvrpcpb.Peer{Id: 9}}}, "not_leader"},
		{"good", &kvrpcpb.GetRequest{Context: goodCtx(), Key: []byte("k")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := s.calls.Load()
			resp, err := n.KvGet(ctx, c.req)
			if err != nil {
				t.Fatal(err)
			}
			re := resp.GetRegionError()
			switch c.want {
			case "":
				if re != nil || string(resp.Value) != "v:k" || s.calls.Load() != before+1 {
					t.Fatalf("not served: %v", resp)
				}
			case "region_not_found":
				if re.GetRegionNotFound() == nil || s.calls.Load() != before {
					t.Fatalf("want RegionNotFound, got %v", resp)
				}
			case "epoch_not_match":
				cur := re.GetEpochNotMatch().GetCurrentRegions()
				if len(cur) != 1 || cur[0].GetId() != 1 || cur[0].GetRegionEpoch().GetVersion() != 1 || s.calls.Load() != before {
					t.Fatalf("want EpochNotMatch with the current region, got %v", resp)
				}
			case "not_leader":
				if re.GetNotLeader().GetLeader().GetId() != 1 || s.calls.Load() != before {
					t.Fatalf("want NotLeader, got %v", resp)
				}
			}
		})
	}
	r := n.Region()
	if r.GetId() != 1 || len(r.GetStartKey()) != 0 || len(r.GetEndKey()) != 0 || r.GetPeers()[0].GetStoreId() != 1 {
		t.Fatalf("Region() = %v", r)
	}
	r.Id = 99 // a copy: the node is unaffected
	if n.Region().GetId() != 1 {
		t.Fatal("Region() returned the node's own region")
	}
}

func TestPanicIsContained(t *testing.T) {
	n := NewNode(&stub{}, "x")
	if _, err := n.KvScan(context.Background(), &kvrpcpb.ScanRequest{Context: goodCtx()}); err == nil ||
		!strings.Contains(err.Error(), "internal error") {
		t.Fatalf("KvScan err = %v", err)
	}
	// Unimplemented method of the stub (nil embedded interface) too.
	if _, err := n.KvCleanup(context.Background(), &kvrpcpb.CleanupRequest{Context: goodCtx()}); err == nil {
		t.Fatal("want error")
	}
}

// serve starts n on a loopback port and returns a raw gRPC client.
func serve(t *testing.T, n *Node) kvrpcpb.TikvClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- n.Serve(lis) }()
	t.Cleanup(func() {
		n.Stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	cc, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cc.Close() })
	return kvrpcpb.NewTikvClient(cc)
}

func TestBatchCommandsStream(t *testing.T) {
	n := NewNode(&stub{}, "x")
	c := serve(t, n)
	ctx := context.Background()
	stream, err := c.BatchCommands(ctx)
	if err != nil {
		t.Fatal(err)
	}
	get := func(key string, rc *kvrpcpb.Context) *kvrpcpb.BatchCommandsRequest_Request {
		return &kvrpcpb.BatchCommandsRequest_Request{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Get{
			Get: &kvrpcpb.GetRequest{Context: rc, Key: []byte(key)}}}
	}
	msg := &kvrpcpb.BatchCommandsRequest{
		Requests: []*kvrpcpb.BatchCommandsRequest_Request{
			get("a", goodCtx()),
			get("b", &kvrpcpb.Context{RegionId: 2}),
			{}, // no command
			{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Scan{Scan: &kvrpcpb.ScanRequest{Context: goodCtx()}}},       // panics
			{Cmd: &kvrpcpb.BatchCommandsRequest_Request_Commit{Commit: &kvrpcpb.CommitRequest{Context: goodCtx()}}}, // Go error
			get("c", goodCtx()),
		},
		RequestIds: []uint64{10, 11, 12, 13, 14, 15},
	}
	if err := stream.Send(msg); err != nil {
		t.Fatal(err)
	}
	// A batch with more requests than ids: the extra is ignored.
	if err := stream.Send(&kvrpcpb.BatchCommandsRequest{
		Requests:   []*kvrpcpb.BatchCommandsRequest_Request{get("d", goodCtx()), get("e", goodCtx())},
		RequestIds: []uint64{16},
	}); err != nil {
		t.Fatal(err)
	}
	got := map[uint64]*kvrpcpb.BatchCommandsResponse_Response{}
	for len(got) < 7 {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		for i, id := range resp.RequestIds {
			got[id] = resp.Responses[i]
		}
	}
	if v := string(got[10].GetGet().GetValue()); v != "v:a" {
		t.Errorf("10: %v", got[10])
	}
	if got[11].GetGet().GetRegionError().GetRegionNotFound() == nil {
		t.Errorf("11: %v", got[11])
	}
	if got[12].GetCmd() != nil {
		t.Errorf("12: %v", got[12])
	}
	if got[13].GetScan().GetRegionError().GetServerIsBusy() == nil {
		t.Errorf("13: %v", got[13])
	}
	if got[14].GetCommit().GetRegionError().GetServerIsBusy() == nil {
		t.Errorf("14: %v", got[14])
	}
	if v := string(got[15].GetGet().GetValue()); v != "v:c" {
		t.Errorf("15: %v", got[15])
	}
	if v := string(got[16].GetGet().GetValue()); v != "v:d" {
		t.Errorf("16: %v", got[16])
	}
	// Unary over gRPC works too.
	resp, err := c.KvGet(ctx, &kvrpcpb.GetRequest{Context: goodCtx(), Key: []byte("u")})
	if err != nil || string(resp.Value) != "v:u" {
		t.Fatalf("unary: %v %v", resp, err)
	}
	// GracefulStop ends open streams instead of waiting for the client.
	n.GracefulStop()
	if _, err := stream.Recv(); err != io.EOF {
		t.Fatalf("after GracefulStop Recv = %v, want EOF", err)
	}
}
