package kvnode

import (
	"context"
	"math"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/tso"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/tests/testproc"
)

var servingRE = regexp.MustCompile(`strata kv serving on (127\.0\.0\.1:[0-9]+)`)

// kvNode is one `strata kv` process with its data dir.
type kvNode struct {
	t    *testing.T
	dir  string
	addr string
	proc *testproc.Proc
}

// startKV starts a fresh node on a port chosen by the kernel.
func startKV(t *testing.T) *kvNode {
	n := &kvNode{t: t, dir: filepath.Join(t.TempDir(), "kv"), addr: "127.0.0.1:0"}
	n.start()
	return n
}

// start (re)starts the process on n.dir and n.addr and waits until it
// serves; the first start learns the address the kernel chose.
func (n *kvNode) start() {
	n.t.Helper()
	n.proc = testproc.Start(n.t, "kv", "--data-dir", n.dir, "--addr", n.addr, "--status-addr", "127.0.0.1:0")
	m := n.proc.WaitLine(servingRE, 60*time.Second)
	n.addr = m[1]
}

// rig is a client side: one gRPC transport, one TSO, one txn client.
type rig struct {
	rpc    rpc.Client
	oracle *tso.Allocator
	addr   string
}

func newRig(t *testing.T, addr string) *rig {
	ora, err := tso.New(time.Now, &tso.MemWindowStore{}, tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{rpc: rpc.NewGRPC(rpc.GRPCOptions{}), oracle: ora, addr: addr}
	t.Cleanup(func() { r.rpc.Close() })
	return r
}

func (r *rig) client(opts txnclient.Options) *txnclient.Client {
	return txnclient.New(r.rpc, locate.StaticRegions(server.Region(), r.addr), r.oracle, opts)
}

// store returns the raw StoreAPI of the node, for requests a txn client
// would never send.
func (r *rig) store(t *testing.T) rpc.StoreAPI {
	s, err := r.rpc.Store(r.addr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// regionCtx is the request context of the node's single region.
func regionCtx() *kvrpcpb.Context {
	reg := server.Region()
	return &kvrpcpb.Context{RegionId: reg.Id, RegionEpoch: reg.RegionEpoch, Peer: reg.Peers[0]}
}

// remainingLocks lists every lock left in the node.
func remainingLocks(t *testing.T, s rpc.StoreAPI) []*kvrpcpb.LockInfo {
	t.Helper()
	resp, err := s.KvScanLock(context.Background(), &kvrpcpb.ScanLockRequest{
		Context: regionCtx(), MaxVersion: math.MaxUint64,
	})
	if err != nil {
		t.Fatalf("scan lock: %v", err)
	}
	if resp.RegionError != nil || resp.Error != nil {
		t.Fatalf("scan lock: %v %v", resp.RegionError, resp.Error)
	}
	return resp.Locks
}
