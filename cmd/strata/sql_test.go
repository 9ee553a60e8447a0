package main

import (
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/config"
)

// TestGRPCOptions: the [tikv-client] keys reach the storage client.
func TestGRPCOptions(t *testing.T) {
	cfg, _, err := config.Parse(`
[tikv-client]
grpc-connection-count = 2
max-batch-size = 64
max-batch-wait-time = 200000
batch-wait-size = 4
grpc-keepalive-time = 7
grpc-keepalive-timeout = 2
`)
	if err != nil {
		t.Fatal(err)
	}
	got := grpcOptions(cfg)
	want := rpc.GRPCOptions{ConnCount: 2, MaxBatchSize: 64, MaxBatchWait: 200 * time.Microsecond, BatchWaitSize: 4,
		KeepaliveTime: 7 * time.Second, KeepaliveTimeout: 2 * time.Second}
	if got.ConnCount != want.ConnCount || got.MaxBatchSize != want.MaxBatchSize || got.MaxBatchWait != want.MaxBatchWait ||
		got.BatchWaitSize != want.BatchWaitSize || got.KeepaliveTime != want.KeepaliveTime || got.KeepaliveTimeout != want.KeepaliveTimeout {
		t.Fatalf("grpcOptions = %+v, want %+v", got, want)
	}
}
