package raftstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/raft/v3/raftpb"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
	"github.com/strata-db/strata/internal/store/engine"
)

// A follower that missed more than the log keeps is caught up by a
// snapshot.
func TestLaggingFollowerGetsSnapshot(t *testing.T) {
	cfg := fastConfig()
	cfg.RaftLogGCCountLimit = 20
	c := newTestCluster(t, 3, cfg)
	l := c.leader(1)
	var lag uint64 = 1
	if l.id == 1 {
		lag = 2
	}
	c.stop(lag)
	for i := range 200 {
		if err := c.put(key(i), []byte(fmt.Sprint("v", i))); err != nil {
			t.Fatal(err)
		}
	}
	c.waitFor("log truncated past the lagging follower", func() bool {
		return onLoop(c.leaderOf(1), func(p *peer) uint64 { return p.ps.truncated.Index }) > 50
	})
	c.restart(lag)
	c.waitFor("caught up", func() bool {
		return bytes.Equal(c.localGet(lag, key(199)), []byte("v199"))
	})
	c.waitFor("snapshot counted", func() bool { return c.stores[lag-1].s.Stats().SnapshotsReceived > 0 })
	// The apply observer heard of every apply before and after it (the
	// restarted store applied none: the writes came in the snapshot), and
	// of the snapshot's install around it.
	for _, ts := range c.stores {
		o := &ts.obs
		c.waitFor(fmt.Sprintf("store %d's applies and range rewrites observed in pairs", ts.id), func() bool {
			r := o.replacing.Load()
			return o.before.Load() == o.applied.Load() && (ts.id == lag || o.applied.Load() > 0) &&
				r == o.replaced.Load() && (ts.id == lag) == (r > 0)
		})
	}
	for i := range 200 {
		if v := c.localGet(lag, key(i)); string(v) != fmt.Sprint("v", i) {
			t.Fatalf("key %d = %q after snapshot", i, v)
		}
	}
}

// A new store gets a peer (learner, then voter) through a snapshot; a
// removed peer leaves a tombstone and its data goes.
func TestChangePeer(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	for i := range 30 {
		if err := c.put(key(i), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	s4 := c.addStore()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	newPeer := &kvrpcpb.Peer{Id: 200, StoreId: s4.id, Role: kvrpcpb.PeerRole_Learner}
	changePeer(t, c, ctx, pdpb.ConfChangeType_AddLearnerNode, newPeer)
	c.waitFor("learner filled", func() bool { return bytes.Equal(c.localGet(s4.id, key(29)), []byte("x")) })
	changePeer(t, c, ctx, pdpb.ConfChangeType_AddNode, &kvrpcpb.Peer{Id: 200, StoreId: s4.id})
	r := c.leaderOf(1).s.peer(1).Region()
	if len(r.GetPeers()) != 4 || r.GetRegionEpoch().GetConfVer() != 3 {
		t.Fatalf("region after adding: %v", r)
	}
	if err := c.put(key(30), []byte("y")); err != nil {
		t.Fatal(err)
	}
	c.waitFor("new voter applies new writes", func() bool { return bytes.Equal(c.localGet(s4.id, key(30)), []byte("y")) })

	// Remove a follower's peer.
	l := c.leaderOf(1)
	var victim *kvrpcpb.Peer
	for _, p := range r.GetPeers() {
		if p.GetStoreId() != l.id && p.GetStoreId() != s4.id {
			victim = p
			break
		}
	}
	changePeer(t, c, ctx, pdpb.ConfChangeType_RemoveNode, victim)
	c.waitFor("removed peer destroyed", func() bool {
		s := c.stores[victim.GetStoreId()-1].s
		return s.peer(1) == nil
	})
	c.waitFor("removed peer's data deleted", func() bool { return c.localGet(victim.GetStoreId(), key(0)) == nil })
	if err := c.put(key(31), []byte("z")); err != nil {
		t.Fatal(err)
	}
	// A message to the removed peer does not resurrect it.
	c.stores[victim.GetStoreId()-1].s.OnRaftMessage(&raftserverpb.RaftMessage{
		RegionId: 1, FromPeer: findStorePeer(r, l.id), ToPeer: victim,
		RegionEpoch: r.GetRegionEpoch(), Message: heartbeatMsg(victim.GetId()),
	})
	if c.stores[victim.GetStoreId()-1].s.peer(1) != nil {
		t.Fatal("a stale heartbeat recreated a removed peer")
	}
}

func changePeer(t *testing.T, c *testCluster, ctx context.Context, typ pdpb.ConfChangeType, p *kvrpcpb.Peer) {
	t.Helper()
	for {
		l := c.leader(1)
		err := l.s.ChangePeer(ctx, 1, typ, p)
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("change peer %v %v: %v", typ, p, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A region splits by size; writes and reads route to the pieces, whose
// leaders come up on the parent leader's store.
func TestSplitBySize(t *testing.T) {
	cfg := fastConfig()
	cfg.RegionSplitSize = 8 << 10
	cfg.RegionMaxSize = 12 << 10
	c := newTestCluster(t, 3, cfg)
	val := bytes.Repeat([]byte("v"), 100)
	for i := range 400 {
		if err := c.put(key(i), val); err != nil {
			t.Fatal(err)
		}
	}
	c.waitFor("at least 3 regions", func() bool {
		for _, ts := range c.stores {
			if len(ts.s.Regions()) < 3 {
				return false
			}
		}
		return true
	})
	// The regions tile the key space on every store.
	for _, ts := range c.stores {
		checkTiling(t, ts.s.Regions())
	}
	for i := range 400 {
		v, err := c.get(key(i))
		if err != nil || !bytes.Equal(v, val) {
			t.Fatalf("key %d after split: %q, %v", i, v, err)
		}
	}
	if err := c.put(key(5), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if v, _ := c.get(key(5)); string(v) != "new" {
		t.Fatalf("write after split: %q", v)
	}
}

// A leader's heartbeat reports the region's size as the split estimate
// sees it, growing with what is applied, not only at the last
// measurement (which waits for a split threshold).
func TestHeartbeatSizeFollowsWrites(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig()) // default thresholds: no split, no new measure
	val := bytes.Repeat([]byte("v"), 1000)
	for i := range 200 {
		if err := c.put(key(i), val); err != nil {
			t.Fatal(err)
		}
	}
	c.waitFor("a heartbeat of region 1 reporting the 200 writes", func() bool {
		c.pd.mu.Lock()
		defer c.pd.mu.Unlock()
		hb := c.pd.heartbeats[1]
		return hb != nil && hb.GetApproximateSize() >= 200*1000 && hb.GetApproximateKeys() >= 200
	})
}

// checkTiling fails unless regions cover the key space without gaps or
// overlaps.
func checkTiling(t *testing.T, regions []*kvrpcpb.Region) {
	t.Helper()
	byStart := map[string]*kvrpcpb.Region{}
	for _, r := range regions {
		byStart[string(r.GetStartKey())] = r
	}
	cur := ""
	for n := 0; ; n++ {
		r := byStart[cur]
		if r == nil {
			t.Fatalf("no region starts at %q: %v", cur, regions)
		}
		if len(r.GetEndKey()) == 0 {
			if n+1 != len(regions) {
				t.Fatalf("regions overlap: %v", regions)
			}
			return
		}
		cur = string(r.GetEndKey())
	}
}

// A leader cut off from the others loses its lease and cannot commit;
// the majority elects another and goes on; after healing, one history.
func TestPartitionedLeader(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	old := c.leader(1)
	if err := c.put(key(1), []byte("before")); err != nil {
		t.Fatal(err)
	}
	cut := old.id
	c.trans.SetFilter(func(from, to uint64, _ *raftserverpb.RaftMessage) bool { return from != cut && to != cut })
	// The isolated leader's write cannot commit.
	rctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if ctx, err := old.s.Route(rctx, regionContext(old.s, 1), false); err == nil {
		var b = writeBatch(key(2), "lost")
		if err := old.s.Write(ctx, b); err == nil {
			t.Fatal("an isolated leader committed a write")
		}
	}
	c.waitFor("majority elects a new leader", func() bool {
		for _, ts := range c.stores {
			if ts.id != cut && ts.s.IsLeader(1) {
				return true
			}
		}
		return false
	})
	c.waitFor("isolated leader steps down", func() bool { return !old.s.IsLeader(1) })
	if err := c.put(key(3), []byte("majority")); err != nil {
		t.Fatal(err)
	}
	c.trans.SetFilter(nil)
	c.waitFor("healed store catches up", func() bool { return bytes.Equal(c.localGet(cut, key(3)), []byte("majority")) })
	for _, ts := range c.stores {
		if v := c.localGet(ts.id, key(2)); v != nil {
			t.Fatalf("store %d has the isolated leader's write", ts.id)
		}
	}
}

// A peer removed while its store was down destroys itself when it comes
// back: the leader answers its messages with a tombstone.
func TestRemovedWhileDown(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	if err := c.put(key(1), []byte("x")); err != nil {
		t.Fatal(err)
	}
	l := c.leader(1)
	var victim *kvrpcpb.Peer
	for _, p := range l.s.peer(1).Region().GetPeers() {
		if p.GetStoreId() != l.id {
			victim = p
			break
		}
	}
	c.stop(victim.GetStoreId())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	changePeer(t, c, ctx, pdpb.ConfChangeType_RemoveNode, victim)
	c.restart(victim.GetStoreId())
	c.waitFor("stale peer destroys itself", func() bool {
		return c.stores[victim.GetStoreId()-1].s.peer(1) == nil
	})
	if err := c.put(key(2), []byte("y")); err != nil {
		t.Fatal(err)
	}
}

func TestSnapToTable(t *testing.T) {
	tbl := func(id byte, rest string) []byte {
		return append([]byte{'t', 0x80, 0, 0, 0, 0, 0, 0, id}, rest...)
	}
	for _, tc := range []struct {
		key, prev, want []byte
	}{
		{tbl(4, "_r\x80\x01"), nil, tbl(4, "")},                    // cut before table 4
		{tbl(4, "_r\x80\x01"), tbl(4, "_i"), tbl(4, "_r\x80\x01")}, // table 4 started before: cut inside
		{tbl(4, "_r\x80\x01"), tbl(3, "_r"), tbl(4, "")},           // previous cut in table 3
		{[]byte("m\x00meta"), nil, []byte("m\x00meta")},            // not a table key
		{tbl(4, ""), tbl(4, ""), tbl(4, "")},                       // already at the boundary
	} {
		if got := snapToTable(tc.key, tc.prev); !bytes.Equal(got, tc.want) {
			t.Errorf("snapToTable(%q, %q) = %q, want %q", tc.key, tc.prev, got, tc.want)
		}
	}
}

// A store that was down while its peer was removed and a new peer of the
// region was added back on it: the stale peer gives way to the new one,
// which is filled by a snapshot.
func TestReAddedWhileDown(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	if err := c.put(key(1), []byte("x")); err != nil {
		t.Fatal(err)
	}
	l := c.leader(1)
	var victim *kvrpcpb.Peer
	for _, p := range l.s.peer(1).Region().GetPeers() {
		if p.GetStoreId() != l.id {
			victim = p
			break
		}
	}
	c.stop(victim.GetStoreId())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	changePeer(t, c, ctx, pdpb.ConfChangeType_RemoveNode, victim)
	if err := c.put(key(2), []byte("y")); err != nil {
		t.Fatal(err)
	}
	// Back on the same store, as a new peer, before the store returns.
	newPeer := &kvrpcpb.Peer{Id: 900, StoreId: victim.GetStoreId(), Role: kvrpcpb.PeerRole_Learner}
	changePeer(t, c, ctx, pdpb.ConfChangeType_AddLearnerNode, newPeer)
	c.restart(victim.GetStoreId())
	s := func() *Store { return c.stores[victim.GetStoreId()-1].s }
	c.waitFor("the new peer replaces the stale one", func() bool {
		p := s().peer(1)
		return p != nil && p.peerID == 900 && p.initialized.Load()
	})
	c.waitFor("the new peer has the data", func() bool {
		return bytes.Equal(c.localGet(victim.GetStoreId(), key(2)), []byte("y"))
	})
}

// Two snapshot installs of overlapping ranges never run at once, and an
// install never overlaps an initialized region.
func TestReserveRange(t *testing.T) {
	c := newTestCluster(t, 1, fastConfig())
	s := c.stores[0].s
	r := func(id uint64, start, end string) *kvrpcpb.Region {
		return &kvrpcpb.Region{Id: id, StartKey: []byte(start), EndKey: []byte(end)}
	}
	// Region 1 (initialized, the whole key space) is here.
	if s.reserveRange(50, r(50, "a", "c")) {
		t.Fatal("an install overlapping region 1 was allowed")
	}
	if !s.reserveRange(1, r(1, "", "")) {
		t.Fatal("region 1's own install was refused")
	}
	s.releaseRange(1)
	s.mu.Lock()
	s.mu.installing[60] = r(60, "x", "z")
	s.mu.Unlock()
	if s.reserveRange(1, r(1, "", "")) {
		t.Fatal("an install overlapping another install was allowed")
	}
}

// A split's new region has a leader at once: the parent's leader
// campaigns for it, and the followers' new peers (made by the split, not
// restarted) grant their votes without waiting out an election timeout.
func TestSplitNewRegionLeadsAtOnce(t *testing.T) {
	cfg := fastConfig()
	cfg.ElectionTicks = 150 // a 3 s election timeout: twice the wait below
	c := newTestCluster(t, 3, cfg)
	l := c.leader(1)
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	regions, err := l.s.SplitRegion(ctx, 1, [][]byte{key(50)})
	if err != nil {
		t.Fatal(err)
	}
	var newID uint64
	for _, r := range regions {
		if r.GetId() != 1 {
			newID = r.GetId()
		}
	}
	for c.leaderOf(newID) == nil {
		if ctx.Err() != nil {
			t.Fatalf("region %d, made by a split, has no leader after 1.5 s", newID)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A leader writes its in-memory pessimistic locks (the LockHandoff's)
// through raft before it splits its region, and the split comes after:
// the keys that leave keep their locks, in the engine of every replica,
// where the new region's commands find them.
func TestSplitHandsOffLocksFirst(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	var asked atomic.Int64
	c.handoff = testHandoff{locks: func(regionID, term uint64, split bool) *engine.Batch {
		if !split {
			t.Error("a split's hand-off was asked as a transfer's")
		}
		asked.Add(1)
		return writeBatch(key(10), "lock of key 10")
	}}
	for id := uint64(1); id <= 3; id++ {
		c.stop(id)
		c.restart(id)
	}
	l := c.leader(1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := l.s.SplitRegion(ctx, 1, [][]byte{key(50)}); err != nil {
		t.Fatal(err)
	}
	if asked.Load() == 0 {
		t.Fatal("the split asked for no hand-off")
	}
	// Applied before the split, which has applied on the leader.
	if v := string(c.localGet(l.id, key(10))); v != "lock of key 10" {
		t.Fatalf("key 10 on the leader after the split: %q", v)
	}
	for id := uint64(1); id <= 3; id++ {
		c.waitFor(fmt.Sprintf("the hand-off on store %d", id), func() bool {
			return string(c.localGet(id, key(10))) == "lock of key 10"
		})
	}
}

// Every split hand-off is ended once (HandoffEnded with its term): after
// the split, and also when the caller stops waiting for the hand-off, as
// a split whose context ends meanwhile does; a freeze left behind would
// keep the region's pessimistic locks out of memory for the rest of the
// term.
func TestSplitHandOffEndedOnce(t *testing.T) {
	c := newTestCluster(t, 3, fastConfig())
	type call struct{ region, term uint64 }
	var mu sync.Mutex
	var asked, ended []call
	c.handoff = testHandoff{
		locks: func(regionID, term uint64, split bool) *engine.Batch {
			mu.Lock()
			defer mu.Unlock()
			if split {
				asked = append(asked, call{regionID, term})
			}
			return writeBatch(key(10), "lock of key 10")
		},
		ended: func(regionID, term uint64) {
			mu.Lock()
			defer mu.Unlock()
			ended = append(ended, call{regionID, term})
		},
	}
	for id := uint64(1); id <= 3; id++ {
		c.stop(id)
		c.restart(id)
	}
	l := c.leader(1)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.s.SplitRegion(gone, 1, [][]byte{key(30)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("split with a cancelled context: %v", err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if _, err := l.s.SplitRegion(ctx, 1, [][]byte{key(50)}); err != nil {
		t.Fatal(err)
	}
	c.waitFor("both split hand-offs ended", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(ended) >= 2
	})
	mu.Lock()
	defer mu.Unlock()
	byTerm := func(a, b call) int { return cmp.Compare(a.term, b.term) }
	slices.SortFunc(asked, byTerm)
	slices.SortFunc(ended, byTerm)
	if len(asked) != 2 || !slices.Equal(asked, ended) {
		t.Fatalf("split hand-offs %v, ended %v: want each ended once, with its term", asked, ended)
	}
}

// A deposed leader's pending write that the next leader committed is
// never answered StaleCommand ("certainly not applied"), even when the
// deposed leader then catches up by a snapshot that holds the write.
func TestDeposedLeaderWriteNotStale(t *testing.T) {
	cfg := fastConfig()
	// A 3 s election timeout: the deposed leader's wait for its write's
	// fate (two of them) outlasts the catch-up below.
	cfg.ElectionTicks = 150
	cfg.RaftLogGCCountLimit = 20 // a laggard past this gets a snapshot
	c := newTestCluster(t, 3, cfg)
	a := c.leader(1)
	aid := a.id
	// Every follower replicating (not probing): the write's append goes
	// out without waiting for a reply.
	if err := c.put(key(0), []byte("ready")); err != nil {
		t.Fatal(err)
	}
	for id := uint64(1); id <= 3; id++ {
		c.waitFor("replication", func() bool { return bytes.Equal(c.localGet(id, key(0)), []byte("ready")) })
	}
	var cut atomic.Bool
	var reached [4]atomic.Bool // store id -> the write's append got there
	c.trans.SetFilter(func(from, to uint64, m *raftserverpb.RaftMessage) bool {
		if to == aid {
			return false // a hears no acknowledgement: it cannot commit
		}
		if from != aid {
			return true
		}
		if cut.Load() {
			return false
		}
		if mm := m.GetMessage(); mm.GetType() == raftpb.MsgApp && len(mm.GetEntries()) > 0 {
			reached[to].Store(true)
		}
		return true
	})
	rctx, err := a.s.Route(context.Background(), regionContext(a.s, 1), false)
	if err != nil {
		t.Fatal(err)
	}
	res := make(chan error, 1)
	go func() { res <- a.s.Write(rctx, writeBatch(key(1), "w")) }()
	c.waitFor("the write's append reached both followers", func() bool {
		n := 0
		for id := range reached {
			if uint64(id) != aid && reached[id].Load() {
				n++
			}
		}
		return n == 2
	})
	cut.Store(true)
	c.waitFor("the cut-off leader steps down", func() bool { return !a.s.IsLeader(1) })
	aLast := onLoop(a, func(p *peer) uint64 { return p.ps.lastIndex })
	// The new leader commits the write, then truncates its log past a's.
	i := 2
	c.waitFor("the new leader's log starts past the deposed leader's", func() bool {
		if err := c.put(key(i), []byte("x")); err != nil {
			t.Fatal(err)
		}
		i++
		l := c.leaderOf(1)
		return l != nil && l != a && onLoop(l, func(p *peer) uint64 { return p.ps.truncated.Index }) > aLast
	})
	c.trans.SetFilter(nil)
	c.waitFor("the deposed leader applied a snapshot", func() bool { return a.s.Stats().SnapshotsApplied > 0 })
	// Writes after the snapshot: the deposed leader applies entries of the
	// new term one by one.
	for j := 0; j < 5; j++ {
		if err := c.put(key(100+j), []byte("after")); err != nil {
			t.Fatal(err)
		}
	}
	c.waitFor("the deposed leader caught up", func() bool { return bytes.Equal(c.localGet(aid, key(104)), []byte("after")) })
	err = <-res
	v, gerr := c.get(key(1))
	if gerr != nil {
		t.Fatal(gerr)
	}
	re := AsRegionError(err)
	if string(v) == "w" && re != nil && re.GetStaleCommand() != nil {
		t.Fatalf("the write applied, but its proposer was told StaleCommand: %v", err)
	}
	t.Logf("write %q, answered %v", v, err)
}
