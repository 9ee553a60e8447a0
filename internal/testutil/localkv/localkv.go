// Package localkv starts the real storage stack in one process for unit
// tests of the layers above it: an in-memory Pebble engine, txn.Storage,
// the single-region storage node, a direct (in-process) rpc client, a TSO
// and a txnclient.Client. Nothing is faked: requests go through the same
// code as in `strata server`, without sockets.
package localkv

import (
	"context"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/pd/tso"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
	"github.com/strata-db/strata/internal/store/server"
	"github.com/strata-db/strata/internal/store/txn"
)

// Addr is the store address of the in-process node.
const Addr = "store1"

// Cluster is one in-process storage node and a client of it.
type Cluster struct {
	Engine  *engine.Pebble
	Storage *txn.Storage
	Node    *server.Node
	Oracle  *tso.Allocator
	Client  *txnclient.Client
}

// Start starts a cluster that t's cleanup stops.
func Start(t testing.TB, opts txnclient.Options) *Cluster {
	t.Helper()
	eng, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	st := txn.NewStorage(eng, txn.Options{})
	node := server.NewNode(st, Addr)
	oracle, err := tso.New(time.Now, &tso.MemWindowStore{}, tso.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Engine: eng, Storage: st, Node: node, Oracle: oracle,
		Client: txnclient.New(rpc.NewDirect(Addr, node), locate.StaticRegions(node.Region(), Addr), oracle, opts)}
	t.Cleanup(func() {
		_ = c.Client.Close()
		st.Close()
		_ = eng.Close()
	})
	return c
}

// Begin starts a transaction, as the kv.Transaction the SQL layer's
// metadata stores take.
func (c *Cluster) Begin(ctx context.Context) (kv.Transaction, error) { return c.Client.Begin(ctx) }
