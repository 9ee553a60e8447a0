package raftstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
	"go.etcd.io/raft/v3/raftpb"
	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// fakePD is an in-memory PD for the raftstore's unit tests: ids, split
// ids, timestamps; heartbeats are counted.
type fakePD struct {
	ids        atomic.Uint64
	ts         atomic.Uint64
	mu         sync.Mutex
	heartbeats map[uint64]*pdpb.RegionHeartbeatRequest
	splits     int
}

func newFakePD() *fakePD {
	pd := &fakePD{heartbeats: map[uint64]*pdpb.RegionHeartbeatRequest{}}
	pd.ids.Store(1000)
	return pd
}

func (f *fakePD) AllocID(context.Context) (uint64, error) { return f.ids.Add(1), nil }
func (f *fakePD) AskBatchSplit(_ context.Context, r *kvrpcpb.Region, n int) ([]*pdpb.SplitID, error) {
	var out []*pdpb.SplitID
	for range n {
		sid := &pdpb.SplitID{NewRegionId: f.ids.Add(1)}
		for range r.GetPeers() {
			sid.NewPeerIds = append(sid.NewPeerIds, f.ids.Add(1))
		}
		out = append(out, sid)
	}
	return out, nil
}
func (f *fakePD) ReportBatchSplit(context.Context, []*kvrpcpb.Region) error {
	f.mu.Lock()
	f.splits++
	f.mu.Unlock()
	return nil
}
func (f *fakePD) RegionHeartbeat(_ context.Context, req *pdpb.RegionHeartbeatRequest) error {
	f.mu.Lock()
	f.heartbeats[req.GetRegion().GetId()] = req
	f.mu.Unlock()
	return nil
}
func (f *fakePD) StoreHeartbeat(context.Context, *pdpb.StoreStats) error { return nil }
func (f *fakePD) GetTimestamp(context.Context) (uint64, error)           { return f.ts.Add(1), nil }

// testCluster is n stores of one process over a LocalTransport, each with
// its engines in its own directory.
type testCluster struct {
	t      testing.TB
	dir    string
	cfg    Config
	trans  *LocalTransport
	pd     *fakePD
	stores []*testStore // index = store id - 1
	// raftFS, if set, gives each store's raftdb its file system.
	raftFS func(id uint64) vfs.FS
	// handoff, if set, is each store (re)started's LockHandoff.
	handoff LockHandoff
}

// countingObserver is an ApplyObserver that counts its calls.
type countingObserver struct {
	before, applied, replacing, replaced atomic.Int64
}

func (o *countingObserver) BeforeApply(*engine.Batch)    { o.before.Add(1) }
func (o *countingObserver) Applied(*engine.Batch)        { o.applied.Add(1) }
func (o *countingObserver) RangeReset(start, end []byte) {}
func (o *countingObserver) DataReplacing()               { o.replacing.Add(1) }
func (o *countingObserver) DataReplaced()                { o.replaced.Add(1) }

type testStore struct {
	id     uint64
	kv     *engine.Pebble
	raftdb *pebble.DB
	s      *Store
	obs    countingObserver // the store's apply observer
}

func fastConfig() Config {
	return Config{
		SyncLog: true, TickInterval: 20 * time.Millisecond, ElectionTicks: 10, HeartbeatTicks: 2,
		RaftLogGCInterval: 100 * time.Millisecond, RaftLogGCThreshold: 10,
		SplitCheckInterval: 100 * time.Millisecond, PDHeartbeatInterval: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
}

// newTestCluster bootstraps region 1 (the whole key space) with one peer
// on each of n stores (peer id = 100 + store id) and starts the stores.
func newTestCluster(t testing.TB, n int, cfg Config) *testCluster {
	t.Helper()
	return newTestClusterFS(t, n, cfg, nil)
}

// newTestClusterFS is newTestCluster with raftdb file systems from
// raftFS (nil: the OS's).
func newTestClusterFS(t testing.TB, n int, cfg Config, raftFS func(id uint64) vfs.FS) *testCluster {
	t.Helper()
	c := &testCluster{t: t, dir: t.TempDir(), cfg: cfg, trans: NewLocalTransport(), pd: newFakePD(), raftFS: raftFS}
	region := &kvrpcpb.Region{Id: 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}}
	for i := 1; i <= n; i++ {
		region.Peers = append(region.Peers, &kvrpcpb.Peer{Id: uint64(100 + i), StoreId: uint64(i)})
	}
	for i := 1; i <= n; i++ {
		ts := c.open(uint64(i))
		if err := Bootstrap(ts.kv, ts.raftdb, region); err != nil {
			t.Fatal(err)
		}
		c.stores = append(c.stores, ts)
		c.start(ts)
	}
	t.Cleanup(c.stopAll)
	return c
}

func (c *testCluster) open(id uint64) *testStore {
	dir := filepath.Join(c.dir, fmt.Sprint(id))
	kv, err := engine.Open(filepath.Join(dir, "kv"), mvcc.WithKeySplit(engine.Options{Logger: quietPebble{}}))
	if err != nil {
		c.t.Fatal(err)
	}
	ro := &pebble.Options{Logger: quietPebble{}}
	if c.raftFS != nil {
		ro.FS = c.raftFS(id)
	}
	raftdb, err := pebble.Open(filepath.Join(dir, "raft"), ro)
	if err != nil {
		c.t.Fatal(err)
	}
	return &testStore{id: id, kv: kv, raftdb: raftdb}
}

func (c *testCluster) start(ts *testStore) {
	cfg := c.cfg
	cfg.StoreID = ts.id
	s, err := NewStore(cfg, Deps{KV: ts.kv, RaftDB: ts.raftdb, Transport: c.trans, PD: c.pd})
	if err != nil {
		c.t.Fatal(err)
	}
	ts.s = s
	if c.handoff != nil {
		s.SetLockHandoff(c.handoff)
	}
	s.SetObserver(&ts.obs)
	c.trans.Register(s)
	s.Start()
}

// stop stops store id and closes its engines (a crash: nothing more
// reaches disk; unsynced writes may or may not be there).
func (c *testCluster) stop(id uint64) {
	ts := c.stores[id-1]
	if ts.s == nil {
		return
	}
	c.trans.Unregister(id)
	ts.s.Stop()
	ts.s = nil
	ts.kv.Close()
	ts.raftdb.Close()
}

// restart reopens store id's engines and starts it again.
func (c *testCluster) restart(id uint64) {
	ts := c.open(id)
	c.stores[id-1] = ts
	c.start(ts)
}

func (c *testCluster) stopAll() {
	for _, ts := range c.stores {
		c.stop(ts.id)
	}
}

// leader waits for region id to have a leader and returns its store.
func (c *testCluster) leader(id uint64) *testStore {
	c.t.Helper()
	var found *testStore
	c.waitFor(fmt.Sprintf("leader of region %d", id), func() bool {
		for _, ts := range c.stores {
			if ts.s != nil && ts.s.IsLeader(id) {
				if p := ts.s.peer(id); p != nil && p.maxTSTerm.Load() == p.term.Load() {
					found = ts
					return true
				}
			}
		}
		return false
	})
	return found
}

// next returns the store after ts in id order (wrapping around).
func (c *testCluster) next(ts *testStore) *testStore { return c.stores[int(ts.id)%len(c.stores)] }

// peerOn returns the id of region 1's peer on store to, as store from
// knows the region.
func peerOn(from, to *testStore) uint64 {
	for _, pr := range from.s.peer(1).Region().GetPeers() {
		if pr.GetStoreId() == to.id {
			return pr.GetId()
		}
	}
	return 0
}

// transferLeader moves region 1's leadership from store from to store
// to, asking again on every poll (a leader refuses while the transferee
// is not yet replicating, as it does PD's operator until a later
// heartbeat), until to leads.
func (c *testCluster) transferLeader(from, to *testStore) {
	c.t.Helper()
	peerID := peerOn(from, to)
	c.waitFor(fmt.Sprintf("store %d leads region 1", to.id), func() bool {
		if to.s.IsLeader(1) {
			return true
		}
		from.s.TransferLeader(1, peerID)
		return false
	})
}

// waitFor polls cond until it holds or 20 s pass.
func (c *testCluster) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// onLoop runs f on the raft loop of store ts's peer of region 1 (a
// peer's raft state belongs to its loop) and returns what f returns.
func onLoop(ts *testStore, f func(p *peer) uint64) uint64 {
	ch := make(chan uint64, 1)
	p := ts.s.peer(1)
	p.post(msgCall{func() { ch <- f(p) }})
	return <-ch
}

// regionOf returns the region holding key on some live store.
func (c *testCluster) regionOf(key []byte) *kvrpcpb.Region {
	for _, ts := range c.stores {
		if ts.s != nil {
			if r := ts.s.RegionForKey(key); r != nil {
				return r
			}
		}
	}
	return nil
}

// put writes user key=value (as a committed write record at ts 1)
// through the region's leader, retrying region errors like a client.
func (c *testCluster) put(key, value []byte) error {
	var b engine.Batch
	b.Put(mvcc.WriteKey(key, 1), value)
	return c.write(key, &b)
}

func (c *testCluster) write(key []byte, b *engine.Batch) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		var err error
		region := c.regionOf(key)
		if region == nil {
			err = errors.New("no region")
		} else if ls := c.leaderOf(region.GetId()); ls == nil {
			err = errors.New("no leader")
		} else {
			var rctx context.Context
			rctx, err = ls.s.Route(ctx, regionContext(ls.s, region.GetId()), false)
			if err == nil {
				err = ls.s.Write(rctx, b)
			}
		}
		if err == nil || AsRegionError(err) == nil && !errors.Is(err, ErrStopped) && err.Error() != "no leader" && err.Error() != "no region" {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("put %q: %w (last: %v)", key, ctx.Err(), err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// leaderOf returns the live store leading region id now, or nil.
func (c *testCluster) leaderOf(id uint64) *testStore {
	for _, ts := range c.stores {
		if ts.s != nil && ts.s.IsLeader(id) {
			return ts
		}
	}
	return nil
}

func regionContext(s *Store, id uint64) *kvrpcpb.Context {
	p := s.peer(id)
	r := p.Region()
	return &kvrpcpb.Context{RegionId: id, RegionEpoch: r.GetRegionEpoch(), Peer: findPeer(r, p.peerID)}
}

// get reads user key's value through the region leader's linearizable
// snapshot.
func (c *testCluster) get(key []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		var err error
		region := c.regionOf(key)
		if ls := c.leaderOf(region.GetId()); ls != nil {
			var rctx context.Context
			rctx, err = ls.s.Route(ctx, regionContext(ls.s, region.GetId()), false)
			if err == nil {
				var snap engine.Snapshot
				if snap, err = ls.s.Snapshot(rctx); err == nil {
					v, gerr := snap.Get(mvcc.WriteKey(key, 1))
					snap.Close()
					if errors.Is(gerr, engine.ErrNotFound) {
						return nil, nil
					}
					return v, gerr
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("get %q: %w (last: %v)", key, ctx.Err(), err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// localGet reads key straight from store id's kvdb.
func (c *testCluster) localGet(id uint64, key []byte) []byte {
	v, closer, err := c.stores[id-1].kv.DB().Get(mvcc.WriteKey(key, 1))
	if err != nil {
		return nil
	}
	defer closer.Close()
	return bytes.Clone(v)
}

// quietPebble drops Pebble's informational logs.
type quietPebble struct{}

func (quietPebble) Infof(string, ...any)              {}
func (quietPebble) Errorf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
func (quietPebble) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// addStore opens and starts a new empty store (id = len+1).
func (c *testCluster) addStore() *testStore {
	ts := c.open(uint64(len(c.stores) + 1))
	c.stores = append(c.stores, ts)
	c.start(ts)
	return ts
}

func writeBatch(k []byte, v string) *engine.Batch {
	var b engine.Batch
	b.Put(mvcc.WriteKey(k, 1), []byte(v))
	return &b
}

func heartbeatMsg(to uint64) *raftpb.Message {
	return &raftpb.Message{Type: raftpb.MsgHeartbeat.Enum(), To: proto.Uint64(to), From: proto.Uint64(101), Term: proto.Uint64(100), Commit: proto.Uint64(0)}
}
