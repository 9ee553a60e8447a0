package txnclient

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/internal/store/txn"
)

// testOracle is a TSO whose physical clock only moves when the test says:
// locks never expire by accident, and expire exactly when the test wants.
type testOracle struct {
	mu       sync.Mutex
	physical uint64
	logical  uint64
}

func newTestOracle() *testOracle { return &testOracle{physical: 1_700_000_000_000} }

func (o *testOracle) GetTimestamp(context.Context) (uint64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.logical++
	return o.physical<<18 | o.logical, nil
}

// advance moves the physical clock forward by ms.
func (o *testOracle) advance(ms uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.physical += ms
	o.logical = 0
}

func (o *testOracle) now(t testing.TB) uint64 {
	ts, _ := o.GetTimestamp(context.Background())
	return ts
}

const storeAddr = "store1"

// cluster is one in-process store: direct rpc over server.Node over
// txn.Storage over in-memory Pebble.
type cluster struct {
	t      testing.TB
	oracle *testOracle
	store  rpc.StoreAPI // the node, as clients reach it
	region *kvrpcpb.Region
}

func newCluster(t testing.TB) *cluster {
	t.Helper()
	eng, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	st := txn.NewStorage(eng, txn.Options{})
	node := server.NewNode(st, storeAddr)
	t.Cleanup(func() {
		st.Close()
		_ = eng.Close()
	})
	return &cluster{t: t, oracle: newTestOracle(), store: node, region: node.Region()}
}

// client returns a client of the cluster through api (the node unless a
// test wraps it) with opts.
func (cl *cluster) clientVia(api rpc.StoreAPI, opts Options) *Client {
	c := New(rpc.NewDirect(storeAddr, api), locate.StaticRegions(cl.region, storeAddr), cl.oracle, opts)
	cl.t.Cleanup(func() { _ = c.Close() })
	return c
}

func (cl *cluster) client(opts Options) *Client { return cl.clientVia(cl.store, opts) }

// ctx routes a hand-made request to the region.
func (cl *cluster) ctx() *kvrpcpb.Context {
	return &kvrpcpb.Context{RegionId: cl.region.Id, RegionEpoch: cl.region.RegionEpoch, Peer: cl.region.Peers[0]}
}

// mode is one commit protocol under test.
type mode struct {
	name string
	opts Options
}

var modes = []mode{
	{"2pc", Options{}},
	{"async", Options{AsyncCommit: true, GuaranteeLinearizability: true}},
	{"1pc", Options{OnePC: true, GuaranteeLinearizability: true}},
}

// forModes runs f once per commit protocol, each on a fresh cluster.
func forModes(t *testing.T, f func(t *testing.T, cl *cluster, c *Client)) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cl := newCluster(t)
			f(t, cl, cl.client(m.opts))
		})
	}
}

// put commits kvs in one transaction.
func put(t testing.TB, c *Client, kvs ...string) uint64 {
	t.Helper()
	tx := begin(t, c)
	for i := 0; i+1 < len(kvs); i += 2 {
		if err := tx.Set(kv.Key(kvs[i]), []byte(kvs[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatalf("commit: %v", err)
	}
	return tx.CommitTS()
}

func begin(t testing.TB, c *Client) *Txn {
	t.Helper()
	tx, err := c.Begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// get reads k in tx; "<nil>" for absent.
func get(t *testing.T, g interface {
	Get(context.Context, kv.Key) ([]byte, error)
}, k string) string {
	t.Helper()
	v, err := g.Get(context.Background(), kv.Key(k))
	if errors.Is(err, kv.ErrNotExist) {
		return "<nil>"
	}
	if err != nil {
		t.Fatalf("get %q: %v", k, err)
	}
	return string(v)
}
